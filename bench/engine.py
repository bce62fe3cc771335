"""Engine benchmark: our Slovenian engine against OpenSpiel's C++ tarok, in one run.

Measures (4 players):
- full-length random playouts per second (deal + every move chosen at random through the API);
- the time to replay a recorded hand (the same deals and moves in both engines), with and
  without legality checks on our side (the service replays its validated log unchecked;
  OpenSpiel's ApplyAction always checks), and through the fast `Variant.replay` path.

Prints the figures side by side and the ratios. Usage: python bench/engine.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.selfplay import choose
from tarok_service.variants.slovenian import SLOVENIAN
from tests.variants.test_openspiel_differential import OPTIONS, os_moves, start

Record = tuple[int, list[int], list[Move], HandState]


def record_hands(count: int) -> list[Record]:
    """Seeded hands played identically in both engines: (seed, OpenSpiel actions, our moves)."""
    records = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        pair = start(seed, 4)
        initial = pair.ours
        actions: list[int] = []
        moves: list[Move] = []
        while not pair.ours.finished:
            legal = SLOVENIAN.legal_moves(pair.ours)
            if pair.ours.phase == "announce":
                move = Move("pass")
            else:
                theirs = os_moves(pair)
                move = choose([mv for mv in legal if mv.id in theirs], rng, 0.7)
                actions.append(theirs[move.id])
                pair.os.apply_action(theirs[move.id])  # type: ignore[attr-defined]
            moves.append(move)
            pair.ours = SLOVENIAN.apply(pair.ours, move)  # type: ignore[assignment]
        records.append((seed, actions, moves, initial))
    return records


def best_of(runs: int, *fns: Callable[[], None]) -> list[float]:
    """The best time of each function over `runs` rounds, the functions taking turns in each
    round (so that a burst of load on a shared machine does not favour one of them)."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    records = record_hands(args.hands)
    moves_total = sum(len(r[2]) for r in records)
    dealt = {seed: start(seed, 4).os for seed, *_ in records}  # OpenSpiel states after the deal

    def replay_ours(check: bool) -> Callable[[], None]:
        def run() -> None:
            for _, _, moves, initial in records:
                state = initial
                for move in moves:
                    state = SLOVENIAN.apply(state, move, check=check)

        return run

    def replay_fast() -> None:
        for _, _, moves, initial in records:
            SLOVENIAN.replay(initial, moves)

    for _, _, moves, initial in records:  # the fast path must agree with the pure one
        folded = initial
        for move in moves:
            folded = SLOVENIAN.apply(folded, move, check=False)
        assert SLOVENIAN.replay(initial, moves) == folded

    def replay_openspiel() -> None:
        for seed, actions, _, _ in records:
            state = dealt[seed].clone()  # type: ignore[attr-defined]
            for a in actions:
                state.apply_action(a)

    def playouts_ours() -> None:
        rng = random.Random(7)
        rules = SLOVENIAN.make_rules(4, OPTIONS)
        for _ in range(args.hands):
            order = list(SLOVENIAN.deck(rules).cards)
            rng.shuffle(order)
            state = SLOVENIAN.deal(rules, order, 3)
            while not state.finished:
                state = SLOVENIAN.apply(state, rng.choice(SLOVENIAN.legal_moves(state)))

    def playouts_openspiel() -> None:
        rng = random.Random(7)
        game = pyspiel.load_game("tarok", {"players": 4, "rng_seed": 7})
        for _ in range(args.hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))

    ours_checked, ours_unchecked, ours_fast, theirs = best_of(
        5, replay_ours(True), replay_ours(False), replay_fast, replay_openspiel
    )
    play_ours, play_theirs = best_of(3, playouts_ours, playouts_openspiel)
    n = len(records)
    print(f"{n} recorded 4-player hands, {moves_total} moves in ours (incl. announcement passes)")
    print(f"{'':38}{'ours':>12}{'OpenSpiel':>12}{'ratio':>8}")
    for name, mine, other in (
        ("replay a hand, checked (us/hand)", ours_checked, theirs),
        ("replay a hand, log unchecked (us/hand)", ours_unchecked, theirs),
        ("replay a hand, Variant.replay (us/hand)", ours_fast, theirs),
    ):
        print(f"{name:38}{mine / n * 1e6:12.1f}{other / n * 1e6:12.1f}{mine / other:8.2f}x")
    print(
        f"{'random playouts per second':38}{args.hands / play_ours:12.0f}"
        f"{args.hands / play_theirs:12.0f}{play_theirs / play_ours:8.2f}x"
    )


if __name__ == "__main__":
    main()
