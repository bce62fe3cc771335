"""Dealing again the cards a seat has not seen, so that search agents (ISMCTS and the like) can
sample worlds the seat cannot tell from the real one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tarok_service.engine.cards import Card
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import HandState
from tarok_service.variants.registry import find_rule_set

from .observe import view_string

if TYPE_CHECKING:
    from .game import TarokGame

# Re-deals tried before giving up. Zwanzigerrufen's auction has no constrained sampler: its
# statements (an announced pagat, a solo, a valat) can leave about 1 re-deal in 200 consistent,
# and 400 tries failed in ~15% of hands like that; 2,000 fail in about 1 in 10,000.
TRIES = 2000


def seen_cards(game: TarokGame, states: Sequence[HandState], seat: int) -> set[Card]:
    """Every card `seat` has been shown at some point of the hand."""
    seen: set[Card] = set()
    for state in states:
        seen |= game.variant.view(state, seat).visible_cards()
    return seen


def redeal(
    game: TarokGame,
    order: Sequence[Card],
    dealer: int,
    moves: Sequence[Move],
    states: Sequence[HandState],
    seat: int,
    rng: random.Random,
) -> list[HandState] | None:
    """A hand in which the cards `seat` never saw are dealt again at random, the same moves
    are legal and `seat` sees exactly what it saw: first the rule set's own sampler (it handles
    trick play), then rejection over re-deals. Returns the hand's states after the deal and
    after each move when they are known (re-deals), or just the current one (the sampler);
    None when neither finds one."""
    view = game.variant.view(states[-1], seat)
    sampler = find_rule_set(game.variant.id).sampler
    if sampler is not None:
        sampled = sampler.sample(view, game.rules, rng)
        if sampled is not None:
            return [sampled]
    seen = seen_cards(game, states, seat)
    hidden = [i for i, card in enumerate(order) if card not in seen]
    expected = [view_string(game.variant.view(s, seat), game.deck) for s in states]
    for _ in range(TRIES):
        shuffled = [order[i] for i in hidden]
        rng.shuffle(shuffled)
        trial = list(order)
        for i, card in zip(hidden, shuffled, strict=True):
            trial[i] = card
        found = _replay(game, trial, dealer, moves, seat, expected)
        if found is not None:
            return found
    return None


def _replay(
    game: TarokGame,
    order: Sequence[Card],
    dealer: int,
    moves: Sequence[Move],
    seat: int,
    expected: Sequence[str],
) -> list[HandState] | None:
    state = game.variant.deal(game.rules, order, dealer)
    if view_string(game.variant.view(state, seat), game.deck) != expected[0]:
        return None
    states = [state]
    for move, want in zip(moves, expected[1:], strict=True):
        try:
            state = game.variant.apply(state, move)
        except IllegalMove:
            return None
        if view_string(game.variant.view(state, seat), game.deck) != want:
            return None
        states.append(state)
    return states
