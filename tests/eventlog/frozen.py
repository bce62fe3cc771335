"""Reading the frozen logs under `tests/data/logs/` as stored events."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarok_service.store import StoredEvent

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"


@dataclass(frozen=True)
class FrozenLog:
    """One frozen table log and the totals it was recorded with."""

    name: str
    variant: str
    players: int
    rules_version: int
    hand_totals: list[list[int]]
    final_totals: list[int]
    stored: list[StoredEvent]


def paths() -> list[Path]:
    """Every frozen log, of every format (one directory per format after the first)."""
    return sorted(LOGS.glob("**/*.json"))


def log_id(path: Path) -> str:
    """A test id for a frozen log: its format directory and name."""
    name = path.relative_to(LOGS).as_posix().removesuffix(".json")
    return "schema1" if name == "." else name


def load(path: Path) -> FrozenLog:
    return from_dict(json.loads(path.read_text()), path.parent.name)


def from_dict(raw: dict[str, Any], directory: str) -> FrozenLog:
    """A log as `freeze.play` writes it, read as stored events."""
    name = f"{directory}/{raw['name']}"
    stored = [
        StoredEvent(f"table/{name}", seq, kind, base64.b64decode(data), None, 0.0)
        for seq, (kind, data) in enumerate(raw["events"], start=1)
    ]
    return FrozenLog(
        name,
        str(raw["variant"]),
        int(raw["players"]),
        int(raw["rules_version"]),
        [[int(t) for t in hand] for hand in raw["hand_totals"]],
        [int(t) for t in raw["final_totals"]],
        stored,
    )
