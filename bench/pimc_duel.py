"""The PIMC bot against the heuristic bot: a duplicate duel through the engine (no server).

Each deal is played twice with the same cards (PIMC in the even seats, then in the odd ones;
`tarok_service.bots.arena`). Prints PIMC's mean per-deal edge in points per seat-hand with its
95% confidence interval, the mean number of samples PIMC drew per sampled decision (what
a faster engine buys within the same time budget), and PIMC's CPU time per sample (less
sensitive to the machine's load than the samples a wall-clock budget allows).

Usage: python bench/pimc_duel.py [--deals 200] [--budget 0.05] [--seed 1] [--jobs 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.bots.arena import duel
from tarok_service.bots.base import Bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import View

SAMPLES: list[int] = []  # samples of every decision PIMC took by sampling
CPU: list[float] = []  # process time of those decisions


class CountingPimc(PimcBot):
    """PimcBot that records how many samples each of its decisions drew."""

    def choose(self, view: View, variant: Variant, rules: Rules) -> Move:
        start = time.process_time()
        move = super().choose(view, variant, rules)
        if self.samples_used:
            SAMPLES.append(self.samples_used)
            CPU.append(time.process_time() - start)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.05, help="seconds per decision")
    parser.add_argument("--max-samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    def pimc(seed: int) -> Bot:
        return CountingPimc(seed, budget=args.budget, max_samples=args.max_samples)

    stats = duel("slovenian", 4, pimc, "heuristic", args.deals, args.seed)
    print(stats.summary())
    if SAMPLES:
        print(
            f"samples per sampled decision: mean {statistics.fmean(SAMPLES):.1f}, "
            f"median {statistics.median(SAMPLES):.0f} over {len(SAMPLES)} decisions "
            f"(budget {args.budget} s, cap {args.max_samples})"
        )
        print(f"PIMC CPU time per sample: {sum(CPU) / sum(SAMPLES) * 1e3:.2f} ms")
    print("load average:", " ".join(Path("/proc/loadavg").read_text().split()[:3]))


if __name__ == "__main__":
    main()
