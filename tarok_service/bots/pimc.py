"""The `pimc` bot: perfect-information Monte Carlo over hidden cards sampled from its view.

For each sample (until the time budget or the sample cap is reached) the hidden cards are dealt
consistently with the view by the variant's `Sampler`, every legal move is tried, and the rest
of the hand is played out by the heuristic policy for all seats; the move with the best average
outcome for the bot's seat is chosen. Outside trick play and when sampling fails it plays as the
heuristic bot does; so it does, for every move, in a rule set registered without a sampler (the
registry's `RuleSet.sampler`; every shipped rule set has one, tests/variants/test_completeness.py
checks it, and tests/bots/test_pimc_without_sampler.py shows the fallback).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from ..engine.cards import Card
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.outcome import HandResult
from ..engine.playout import playout as fast_playout
from ..engine.sampling import Sampler
from ..engine.state import TRICKS, HandState, Play
from ..engine.trickplay import TrickPlay
from ..engine.variant import Variant
from ..engine.view import View
from ..variants.registry import find_rule_set
from .heuristic import HeuristicBot
from .play import choose_card
from .situation import Situation, friends_in_team, situation_from_view


def sampler_of(variant: Variant[Any]) -> Sampler[Any] | None:
    """The registered sampler of the variant's rule set; None for a rule set registered without
    one, or not registered at all."""
    try:
        return find_rule_set(variant.id).sampler
    except KeyError:
        return None


def utility(result: HandResult, seat: int) -> float:
    """The seat's total less the mean of the others': a zero-sum view of scores in which the
    declarer's opponents (who often score nothing themselves) still prefer him to lose."""
    totals = result.totals
    others = [v for s, v in enumerate(totals) if s != seat]
    return totals[seat] - (sum(others) / len(others) if others else 0.0)


class PimcBot:
    """Monte Carlo over sampled deals, with heuristic playouts."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = 0.2,
        max_samples: int = 200,
        min_samples: int = 1,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.fallback = HeuristicBot()
        self.samples_used = 0  # of the last decision (0: the heuristic decided)

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`."""
        default = self.fallback.choose(view, variant, rules)
        self.samples_used = 0
        sampler = sampler_of(variant)
        if len(view.legal) == 1 or view.phase != TRICKS or sampler is None:
            return default
        if not isinstance(variant, TrickPlay):
            return default
        scores = self.evaluate(view, variant, rules, sampler)
        if scores is None:
            return default
        moves = list(view.legal)
        best = max(range(len(moves)), key=lambda i: (scores[i], moves[i] == default))
        return moves[best]

    def evaluate(
        self,
        view: View,
        variant: Variant[Any],
        rules: Rules,
        sampler: Sampler[Any],
        deadline: float | None = None,
    ) -> list[float] | None:
        """Mean utility of each legal move over the samples, or None when none was drawn.
        Without `deadline` samples are drawn until `budget` has passed; with one (a
        `time.perf_counter()` instant), only while the time per sample so far says one more
        ends before it (at least one sample is drawn)."""
        assert view.seat is not None
        began = time.perf_counter()
        keep = deadline is not None
        if deadline is None:
            deadline = began + self.budget
        base = situation_from_view(view, variant.deck(rules))
        totals = [0.0] * len(view.legal)
        count = failures = 0
        while count < self.max_samples and failures < 10:
            now = time.perf_counter()
            if count >= self.min_samples and now >= deadline:
                break
            if keep and count and now + (now - began) / count >= deadline:
                break
            state = sampler.sample(view, rules, self.rng)
            if state is None:
                failures += 1
                continue
            team = sampler.team(state)
            for i, move in enumerate(view.legal):
                after = variant.apply(state, move, check=False)
                final = playout(variant, after, team, base)
                result = variant.result(final)
                assert result is not None
                totals[i] += utility(result, view.seat)
            count += 1
        self.samples_used = count
        return [t / count for t in totals] if count else None


def playout(
    variant: Variant[Any], state: HandState, team: Sequence[int], base: Situation
) -> HandState:
    """Play the hand to its end with the heuristic card play for every seat (each knowing the
    sides of the sampled deal); other moves: the first legal one. Trick play runs on the
    engine's in-place loop (`engine.playout`)."""
    friends = [friends_in_team(s, base.players, team) for s in range(base.players)]
    done = len(state.tricks)
    gone = frozenset(c for tr in state.tricks for c in tr.cards)
    out = {c for pile in state.piles for c in pile} | set(state.talon)  # not in any hand
    remaining = frozenset(base.deck) - gone - out

    def pick_card(before: HandState, seat: int, legal: list[Card], plays: list[Play]) -> Card:
        nonlocal done, gone, remaining
        if len(legal) == 1:
            return legal[0]
        if len(before.tricks) != done:
            new = {c for tr in before.tricks[done:] for c in tr.cards}
            gone, remaining, done = gone | new, remaining - new, len(before.tricks)
        hand, trick = before.hands[seat], tuple(plays)
        unseen = remaining.difference(hand, [c for _, c in trick])
        sit = Situation(
            seat, base.players, hand, tuple(legal), trick, gone, unseen, friends[seat],
            base.negative, base.points, base.deck, base.rules,
        )  # fmt: skip
        return choose_card(sit)

    return fast_playout(variant, state, _first, pick_card)


def _first(moves: list[Move]) -> Move:
    return moves[0]
