"""Duplicate-style bot comparison through the engine (no server).

Each deal is played twice with the same cards and dealer: bot A in the even seats and bot B
in the odd ones, then the other way round, so that the luck of the cards cancels out. The
figure reported is, per deal, A's mean score per seat-hand minus B's, averaged over the
deals, with a 95% confidence interval (normal approximation).

    python -m tarok_service.bots.arena --variant slovenian --players 4 \\
        --a pimc --a-opt budget=0.05 --b heuristic --deals 200 --seed 1 [--seconds 180 --jobs 2]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import Card
from ..engine.options import Rules
from ..engine.outcome import HandResult
from ..engine.variant import Variant
from ..variants.registry import find_variant
from .base import Bot, make_bot

BotFactory = Callable[[int], Bot]


@dataclass
class DuelStats:
    """The outcome of a duel: per-deal differences (A minus B) and their summary."""

    variant: str
    players: int
    bot_a: str
    bot_b: str
    diffs: list[float] = field(default_factory=list)
    contracts: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def deals(self) -> int:
        return len(self.diffs)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs) if self.diffs else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean."""
        if len(self.diffs) < 2:
            return math.inf
        return 1.96 * statistics.stdev(self.diffs) / math.sqrt(len(self.diffs))

    def summary(self) -> str:
        return (
            f"{self.variant} {self.players}p: {self.bot_a} - {self.bot_b} = "
            f"{self.mean:+.2f} ± {self.ci95:.2f} points per seat-hand "
            f"({self.deals} deals x 2, {self.seconds:.0f} s)"
        )


def play_hand(
    variant: Variant[Any], rules: Rules, order: Sequence[Card], dealer: int, bots: Sequence[Bot]
) -> HandResult:
    """One hand with `bots[seat]` in each seat; every bot sees only its own view."""
    state = variant.deal(rules, order, dealer)
    while not state.finished:
        seat = state.turn
        assert seat is not None
        view = variant.view(state, seat)
        move = bots[seat].choose(view, variant, rules)
        if move not in view.legal:
            raise RuntimeError(f"bot {bots[seat].name} chose illegal {move.id}")
        state = variant.apply(state, move, check=False)
    result = variant.result(state)
    assert result is not None
    return result


def _factory(name: str, options: dict[str, Any]) -> BotFactory:
    return lambda seed: make_bot(name, seed, **options)


def duel(
    variant_id: str,
    players: int,
    bot_a: str | BotFactory,
    bot_b: str | BotFactory,
    deals: int,
    seed: int = 1,
    seconds: float | None = None,
) -> DuelStats:
    """Play `deals` deals (fewer if `seconds` run out) twice each, seats swapped; bots are names
    for `make_bot` or factories taking a seed."""
    variant = find_variant(variant_id)
    rules = variant.make_rules(players)
    make_a = _factory(bot_a, {}) if isinstance(bot_a, str) else bot_a
    make_b = _factory(bot_b, {}) if isinstance(bot_b, str) else bot_b
    stats = DuelStats(variant_id, players, _name(bot_a), _name(bot_b))
    rng = random.Random(seed)
    start = time.perf_counter()
    while stats.deals < deals:
        if seconds is not None and time.perf_counter() - start > seconds:
            break
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        dealer = stats.deals % players
        if variant.deal(rules, order, dealer).finished:  # thrown in: draw another deal
            continue
        diff, contract = _duplicate(variant, rules, order, dealer, make_a, make_b, rng)
        stats.diffs.append(diff)
        stats.contracts[contract] += 1
    stats.seconds = time.perf_counter() - start
    return stats


def _duplicate(
    variant: Variant[Any],
    rules: Rules,
    order: Sequence[Card],
    dealer: int,
    make_a: BotFactory,
    make_b: BotFactory,
    rng: random.Random,
) -> tuple[float, str]:
    """A's mean score per seat-hand minus B's over the two plays of one deal."""
    a_scores: list[int] = []
    b_scores: list[int] = []
    contract = ""
    for a_parity in (0, 1):
        bots = [
            (make_a if seat % 2 == a_parity else make_b)(rng.randrange(1 << 30))
            for seat in range(rules.players)
        ]
        result = play_hand(variant, rules, order, dealer, bots)
        contract = contract or result.contract
        for seat, total in enumerate(result.totals):
            (a_scores if seat % 2 == a_parity else b_scores).append(total)
    return statistics.fmean(a_scores) - statistics.fmean(b_scores), contract


def duel_parallel(
    variant_id: str,
    players: int,
    bots: tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]],
    deals: int,
    seed: int = 1,
    seconds: float | None = None,
    jobs: int = 2,
) -> DuelStats:
    """`duel` split over `jobs` processes (each with its own deals); bots are given as
    (name, options) pairs so that they can be rebuilt in each process."""
    share = -(-deals // jobs)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(_duel_job, variant_id, players, bots, share, seed * 1009 + j, seconds)
            for j in range(jobs)
        ]
        parts = [f.result() for f in futures]
    stats = DuelStats(variant_id, players, bots[0][0], bots[1][0])
    for part in parts:
        stats.diffs += part.diffs
        stats.contracts.update(part.contracts)
        stats.seconds = max(stats.seconds, part.seconds)
    return stats


def _duel_job(
    variant_id: str,
    players: int,
    bots: tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]],
    deals: int,
    seed: int,
    seconds: float | None,
) -> DuelStats:
    (a, a_opt), (b, b_opt) = bots
    stats = duel(variant_id, players, _factory(a, a_opt), _factory(b, b_opt), deals, seed, seconds)
    stats.bot_a, stats.bot_b = a, b
    return stats


def _name(bot: str | BotFactory) -> str:
    return bot if isinstance(bot, str) else getattr(bot, "__name__", "bot")


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """`key=value` pairs, values read as int, float or str."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        value: Any = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        out[key] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tarok_service.bots.arena", description=__doc__)
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--a", default="heuristic", help="bot A (random, heuristic, pimc)")
    parser.add_argument("--b", default="random", help="bot B")
    parser.add_argument("--a-opt", nargs="*", default=[], help="options of A, key=value")
    parser.add_argument("--b-opt", nargs="*", default=[], help="options of B, key=value")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes to share the deals")
    args = parser.parse_args(argv)
    bots = ((args.a, _options(args.a_opt)), (args.b, _options(args.b_opt)))
    if args.jobs > 1:
        stats = duel_parallel(
            args.variant, args.players, bots, args.deals, args.seed, args.seconds, args.jobs
        )
    else:
        stats = _duel_job(args.variant, args.players, bots, args.deals, args.seed, args.seconds)
    print(stats.summary())
    print("contracts (first play):", dict(stats.contracts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
