"""Engine benchmark: our Slovenian engine against OpenSpiel's C++ tarok, in one run.

Measures (4 players):
- full-length random playouts per second (a uniformly random deal, then every move chosen
  uniformly at random among the legal ones, to the end of the hand): through the pure API
  (`apply(state, rng.choice(legal_moves(state)))`), and through the fast
  `engine.playout.random_playout` (the same moves from the same seed, trick play on bitmasks).
  Both of ours deal with `Variant.random_deal` (`engine.shuffle.random_order`: one draw of
  random bits sorted in C, where `random.shuffle` makes a Python call per card; exactly
  uniform too); OpenSpiel deals in C++ (its chance node shuffles with its own generator) and
  plays uniformly random legal actions the same way, so both sides still do the same work;
- the time to replay a recorded hand (the same deals and moves in both engines), with and
  without legality checks on our side (the service replays its validated log unchecked;
  OpenSpiel's ApplyAction always checks), and through the fast `Variant.replay` path.

Prints the medians of the figures side by side and the median ratios, with the load average.
Usage: python bench/engine.py [--hands N] [--repetitions R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.engine.moves import Move
from tarok_service.engine.playout import random_playout
from tarok_service.engine.state import HandState
from tarok_service.selfplay import choose
from tarok_service.variants.slovenian.rules import SLOVENIAN
from tests.variants.test_openspiel_differential import OPTIONS, os_moves, start

Record = tuple[int, list[int], list[Move], HandState]


def record_hands(count: int) -> list[Record]:
    """Seeded hands played identically in both engines: (seed, OpenSpiel actions, our moves)."""
    records: list[Record] = []
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


def rounds(runs: int, *fns: Callable[[], None]) -> list[list[float]]:
    """The times of each function over `runs` rounds, the functions taking turns in each round
    (so that a burst of load on a shared machine does not favour one of them)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t0)
    return times


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repetitions", type=int, default=5)
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
            state = SLOVENIAN.random_deal(rules, rng, 3)
            while not state.finished:
                state = SLOVENIAN.apply(state, rng.choice(SLOVENIAN.legal_moves(state)))

    def playouts_fast() -> None:
        rng = random.Random(7)
        rules = SLOVENIAN.make_rules(4, OPTIONS)
        for _ in range(args.hands):
            random_playout(SLOVENIAN, SLOVENIAN.random_deal(rules, rng, 3), rng)

    def playouts_openspiel() -> None:
        rng = random.Random(7)
        game = pyspiel.load_game("tarok", {"players": 4, "rng_seed": 7})
        for _ in range(args.hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))

    reps = args.repetitions
    print(f"load average before: {loadavg()}")
    replays = rounds(reps, replay_ours(True), replay_ours(False), replay_fast, replay_openspiel)
    plays = rounds(reps, playouts_ours, playouts_fast, playouts_openspiel)
    print(f"load average after:  {loadavg()}")
    n = len(records)
    print(f"{n} recorded 4-player hands, {moves_total} moves in ours (incl. announcement passes)")
    print(f"medians of {reps} repetitions (ratio: median of the per-repetition ratios)")
    print(f"{'':40}{'ours':>10}{'OpenSpiel':>11}{'ratio':>8}")
    theirs = replays[3]
    for name, mine in (
        ("replay a hand, checked (us/hand)", replays[0]),
        ("replay a hand, log unchecked (us/hand)", replays[1]),
        ("replay a hand, Variant.replay (us/hand)", replays[2]),
    ):
        ratio = median([a / b for a, b in zip(mine, theirs, strict=True)])
        us, os_us = median(mine) / n * 1e6, median(theirs) / n * 1e6
        print(f"{name:40}{us:10.1f}{os_us:11.1f}{ratio:7.2f}x")
    theirs = plays[2]
    for name, mine in (
        ("random playouts/s, pure API loop", plays[0]),
        ("random playouts/s, engine.playout", plays[1]),
    ):
        rate = median([b / a for a, b in zip(mine, theirs, strict=True)])
        print(
            f"{name:40}{args.hands / median(mine):10.0f}"
            f"{args.hands / median(theirs):11.0f}{rate:7.3f}x"
        )


if __name__ == "__main__":
    main()
