"""Write frozen table logs: seeded random games played through the service's commands.

Run once per log format, never to refresh an existing file: the files under
`tests/data/logs/` are the format of their day, and `test_frozen_logs.py` keeps replaying
them forever. An existing file is never overwritten. The logs of the first format (short
type names, no settlements) are in `tests/data/logs/` itself; each later format gets its own
directory, named in FORMAT: raise it when the log format changes, and run

    .venv/bin/python -m tests.eventlog.freeze
"""

from __future__ import annotations

import base64
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from google.protobuf.duration_pb2 import Duration
from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.selfplay import choose
from tarok_service.server.model import commands, events
from tarok_service.server.model.fold import PLAYING, TableState, fold
from tarok_service.variants.registry import find_variant

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"
FORMAT = "schema2"  # full type names with versions; HandScored and TableClosed version 2


@dataclass(frozen=True)
class Spec:
    """One frozen log: a variant, a player count, options and how the game is played."""

    name: str
    variant: str
    players: int
    hands: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)
    time_per_move: int = 0  # seconds; with a limit, some moves are timed out
    pass_rate: float = 0.6


SPECS = (
    Spec("slovenian-4", "slovenian", 4, 16, 1401),
    Spec("slovenian-3", "slovenian", 3, 16, 1402),
    Spec("slovenian-4-own-radelci", "slovenian", 4, 12, 1403, {"radelc_mode": "own"}),
    Spec("double_tarok-4", "double_tarok", 4, 8, 1404),
    Spec("double_tarok-6", "double_tarok", 6, 6, 1405),
    Spec("double_tarok-8", "double_tarok", 8, 4, 1406),
    Spec("tarocco_bolognese-4", "tarocco_bolognese", 4, 8, 1407),
    Spec("taroky-4", "taroky", 4, 16, 1450, pass_rate=0.95),
    Spec("taroky-4-timed", "taroky", 4, 12, 1408, time_per_move=30, pass_rate=0.8),
    Spec("taroky-4-declarer-pays", "taroky", 4, 16, 1458, {"zid_lost_payer": "declarer"}, 0, 0.95),
    Spec("zwanzigerrufen-4", "zwanzigerrufen", 4, 12, 1410),
)


def play(spec: Spec) -> dict[str, object]:
    """The log of one seeded game and the totals it ended with."""
    rng = random.Random(spec.seed)
    variant = find_variant(spec.variant)
    clock = [1_700_000_000.0 + spec.seed]

    def shuffle(table: TableState) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        rng.shuffle(order)
        return order, False

    created = commands.table_created(variant, spec.players, spec.options, spec.hands, [])
    if spec.time_per_move:
        created.time_per_move.CopyFrom(Duration(seconds=spec.time_per_move))
    table = fold(None, spec.name, 1, created)
    payloads: list[events.Payload] = [created]
    for seat in range(spec.players):
        batch = commands.seat_player(table, seat, f"player{seat}", shuffle)
        table, payloads = batch.table, payloads + batch.payloads
    while table.status == PLAYING:
        clock[0] += 1.5
        hand = table.hand
        assert hand is not None and hand.turn is not None
        if spec.time_per_move and rng.random() < 0.02:
            batch = commands.time_out(table, clock[0], shuffle)
        else:
            move = choose(variant.legal_moves(hand), rng, spec.pass_rate)
            after = variant.apply(hand, move, check=True)
            batch = commands.make_move(table, hand.turn, move, after, clock[0], shuffle)
        table, payloads = batch.table, payloads + batch.payloads
    scored = [p for p in payloads if isinstance(p, ev.HandScored)]
    closed = payloads[-1]
    assert isinstance(closed, ev.TableClosed)
    return {
        "name": spec.name,
        "variant": spec.variant,
        "players": spec.players,
        "options": spec.options,
        "rules_version": variant.rules_version,
        "hand_totals": [list(p.totals) for p in scored],
        "final_totals": list(closed.totals),
        "events": [
            [item.type, base64.b64encode(item.payload).decode()]
            for item in events.encode(payloads)
        ],
    }


def main() -> int:
    target = LOGS / FORMAT
    target.mkdir(parents=True, exist_ok=True)
    for spec in SPECS:
        path = target / f"{spec.name}.json"
        if path.exists():
            print(f"kept {path.name} (frozen logs are never rewritten)")
            continue
        log = play(spec)
        path.write_text(json.dumps(log, separators=(",", ":")) + "\n")
        print(f"wrote {path.name}: {len(log['events'])} events")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
