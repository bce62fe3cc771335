"""Shared helpers of the operations tests: free ports, scraping, the `tarok` command, PostgreSQL."""

from __future__ import annotations

import os
import socket
import sys
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def scrape(port: int, host: str = "127.0.0.1") -> Samples:
    """GET /metrics: {(sample name, sorted labels): value}."""
    with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=30) as reply:
        text = reply.read().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include `labels` (0 when none)."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


def tarok_command() -> list[str]:
    script = Path(sys.executable).parent / "tarok"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tarok_client.cli"]


def subprocess_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    return env


def require(what: str, reason: str) -> None:
    """Skip for a missing dependency, or fail when TAROK_REQUIRE_POSTGRES=1 (CI)."""
    if os.environ.get("TAROK_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"TAROK_REQUIRE_POSTGRES=1 but {what}: {reason}")
    pytest.skip(f"{what}: {reason}")


