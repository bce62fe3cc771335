"""Sampling hidden cards for Monte Carlo bots: the `Sampler` hook and a constrained deal.

A sampler is given a seat's `View` only, and builds a complete hand state of its variant that
agrees with everything that view shows; the cards it cannot see are dealt at random, subject to
what the play so far has revealed (voids, announced cards, a known partner).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ..engine.cards import Card
from ..engine.options import Rules
from ..engine.state import HandState
from ..engine.view import View

TALON_SLOT = -1  # the hidden talon cards
DISCARD_SLOT = -2  # the declarer's discards this seat did not see

Allowed = Callable[[Card, int], bool]


class Sampler(Protocol):
    """Builds full hand states consistent with a view (a variant-specific hook)."""

    def sample(self, view: View, rules: Rules, rng: random.Random) -> HandState | None:
        """A state whose view for `view.seat` shows what `view` shows, with the hidden cards
        dealt at random; None when the view is not in a phase the sampler handles, or no
        consistent deal was found."""
        ...

    def team(self, state: HandState) -> tuple[int, ...]:
        """The declarer side of a (sampled) state; () when each plays for himself."""
        ...


def deal_constrained(
    cards: Sequence[Card],
    capacity: Mapping[int, int],
    allowed: Allowed,
    rng: random.Random,
    tries: int = 20,
) -> dict[int, list[Card]] | None:
    """Deal `cards` into slots of the given sizes so that every card lands where `allowed`;
    None when the sizes do not add up or `tries` random attempts all fail. The most constrained
    cards go first, each to a slot chosen with odds proportional to the room left, which keeps
    the deal close to uniform among the consistent ones."""
    if sum(capacity.values()) != len(cards) or any(n < 0 for n in capacity.values()):
        return None
    options = {c: [s for s, n in capacity.items() if n > 0 and allowed(c, s)] for c in cards}
    if any(not slots for slots in options.values()):
        return None
    for _ in range(tries):
        dealt = _attempt(cards, capacity, options, rng)
        if dealt is not None:
            return dealt
    return None


def _attempt(
    cards: Sequence[Card],
    capacity: Mapping[int, int],
    options: Mapping[Card, list[int]],
    rng: random.Random,
) -> dict[int, list[Card]] | None:
    order = sorted(cards, key=lambda c: (len(options[c]), rng.random()))
    left = dict(capacity)
    out: dict[int, list[Card]] = {s: [] for s in capacity}
    for card in order:
        slots = [s for s in options[card] if left[s] > 0]
        if not slots:
            return None
        slot = rng.choices(slots, weights=[left[s] for s in slots])[0]
        out[slot].append(card)
        left[slot] -= 1
    return out
