"""The engine's share of one SubmitMove, in process: `moves.decide` + `moves.answer`.

    .venv/bin/python bench/move_path.py                      # time it (this checkout)
    .venv/bin/python bench/move_path.py --src /work/main     # time another checkout's code
    .venv/bin/python bench/move_path.py --profile            # cProfile, top functions

Recorded matches (`--variant`, `--hands`, seeded) are built the way the server builds them
(`commands.seat_player` / `make_move`); then every recorded move is decided again from the
state before it - validate + apply (`Variant.apply(check=True)`), `commands.make_move` (events,
label, the fold into `TableState`) and the reply (`answer`) - `--repetitions` times. Reports
microseconds per move (min over repetitions), split into trick-phase card plays and the rest.
Deterministic and without a store: run old and new code one after the other (`--src`) and
compare; under `valgrind --tool=callgrind` it gives instruction counts.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def build(variant_id: str, players: int, hands: int, seed: int) -> list[tuple[Any, int, Any]]:
    """(table before, seat, move) for every move of a seeded match of `hands` hands."""
    from tarok_service.server.model import commands
    from tarok_service.server.model.fold import PLAYING, fold
    from tarok_service.variants.registry import find_variant

    rng = random.Random(seed)
    variant = find_variant(variant_id)

    def shuffle(table: Any) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        rng.shuffle(order)
        return order, False

    created = commands.table_created(variant, players, {}, hands, [])
    table = fold(None, "bench", 1, created)
    for seat in range(players):
        table = commands.seat_player(table, seat, f"p{seat}", shuffle).table
    out = []
    while table.status == PLAYING:
        hand = table.hand
        assert hand is not None and hand.turn is not None
        legal = variant.legal_moves(hand)
        passes = [m for m in legal if m.kind == "pass"]
        move = passes[0] if passes and rng.random() < 0.7 else rng.choice(legal)
        move = type(move).parse(move.id)  # as the server gets it: parsed from the request
        out.append((table, hand.turn, move))
        after = variant.apply(hand, move, check=True)
        table = commands.make_move(table, hand.turn, move, after, 1.0e9, shuffle).table
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", help="checkout whose tarok_service to import (default: this)")
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument(
        "--part",
        choices=("all", "decide", "apply"),
        default="all",
        help="time decide + answer (all), decide only, or only the engine's checked apply",
    )
    parser.add_argument(
        "--common",
        action="store_true",
        help="only the common move: card plays that do not end the hand (no scoring, no deal)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile one repetition")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.src).resolve() if args.src else ROOT))
    from tarok_service.server.usecases import moves

    recorded = build(args.variant, args.players, args.hands, args.seed)
    fixed = random.Random(1)

    def shuffle(table: Any) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        fixed.shuffle(order)
        return order, False

    ctx = SimpleNamespace(clock=lambda: 1.0e9, shuffle=shuffle)
    decide, answer = moves.decide, moves.answer
    if args.common:  # one event only: the hand goes on
        recorded = [r for r in recorded if len(decide(ctx, *r, None).payloads) == 1]  # type: ignore[arg-type]
    plays = [r for r in recorded if r[0].hand.phase == "tricks"]
    others = [r for r in recorded if r[0].hand.phase != "tricks"]

    def run(items: list[tuple[Any, int, Any]]) -> float:
        started = time.perf_counter()
        if args.part == "apply":
            for table, _, move in items:
                table.variant.apply(table.hand, move, check=True)
        elif args.part == "decide":
            for table, seat, move in items:
                decide(ctx, table, seat, move, None)  # type: ignore[arg-type]
        else:
            for table, seat, move in items:
                batch = decide(ctx, table, seat, move, None)  # type: ignore[arg-type]
                answer(batch.table, batch.payloads, move)
        return (time.perf_counter() - started) / len(items) * 1e6

    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(lambda: [run(recorded) for _ in range(5)])
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    best_plays, best_others = float("inf"), float("inf")
    for _ in range(args.repetitions):
        best_plays = min(best_plays, run(plays))
        best_others = min(best_others, run(others)) if others else 0.0
    print(f"src={args.src or ROOT} variant={args.variant} part={args.part} moves={len(recorded)}")
    print(f"card play   {len(plays):5d} moves  {best_plays:7.2f} us/move (min of reps)")
    print(f"other moves {len(others):5d} moves  {best_others:7.2f} us/move (min of reps)")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
