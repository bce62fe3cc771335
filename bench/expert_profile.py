"""What an `expert` decision does in Slovenian 4p, by tricks left: how many deals it solved
(or, too early for an exact solve, how many PIMC playout samples it drew), and its wall and
CPU time against the budget. Positions come from hands of heuristic play, stopped before each
trick's first card.

Usage: python bench/expert_profile.py [--hands 4] [--budget 0.25] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.bots.expert import ExpertBot
from tarok_service.bots.heuristic import HeuristicBot
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.variants.registry import find_variant


def positions(hands: int, seed: int) -> list[HandState]:
    """Each trick's start in `hands` hands of heuristic play (Slovenian 4p)."""
    variant = find_variant("slovenian")
    rules = variant.make_rules(4)
    bot = HeuristicBot()
    rng = random.Random(seed)
    found: list[HandState] = []
    for _ in range(hands):
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state: HandState = variant.deal(rules, order, 0)
        while not state.finished:
            if state.phase == TRICKS and not state.trick:
                found.append(state)
            assert state.turn is not None
            move = bot.choose(variant.view(state, state.turn), variant, rules)
            state = variant.apply(state, move)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--budget", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variant = find_variant("slovenian")
    rows: dict[int, list[tuple[int, int, float, float]]] = {}
    for state in positions(args.hands, args.seed):
        assert state.turn is not None
        view = variant.view(state, state.turn)
        if len(view.legal) < 2:
            continue
        bot: Any = ExpertBot(seed=args.seed, budget=args.budget)
        wall, cpu = time.perf_counter(), time.thread_time()
        bot.choose(view, variant, state.rules)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        left = len(state.hands[state.turn])
        rows.setdefault(left, []).append(
            (bot.worlds_used, bot.unsolved.samples_used if bot.delegated else 0, wall, cpu)
        )
    print(f"budget {args.budget * 1000:.0f} ms; per tricks left: decisions, solved deals "
          "(median), PIMC samples (median, when handed over), wall max, CPU max")  # fmt: skip
    for left in sorted(rows, reverse=True):
        r = rows[left]
        solved = [w for w, s, _, _ in r if not s]
        handed = [s for _, s, _, _ in r if s]
        print(
            f"{left:2d} left: {len(r):2d} decisions, "
            f"solved {statistics.median(solved) if solved else '-'} ({len(solved)}), "
            f"PIMC {statistics.median(handed) if handed else '-'} ({len(handed)}), "
            f"wall max {max(x[2] for x in r) * 1000:.0f} ms, "
            f"CPU max {max(x[3] for x in r) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
