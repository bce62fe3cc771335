"""The French Tarot sampler builds states consistent with a seat's view, from the view alone:
the same view for that seat, every card once, and a card history that was legal from the
sampled hands."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from tarok_service.bots import make_bot
from tarok_service.engine.cards import Card
from tarok_service.engine.inference import completed_tricks
from tarok_service.engine.state import TRICKS
from tarok_service.engine.view import View
from tarok_service.variants.french_tarot import play as p
from tarok_service.variants.french_tarot.rules import FRENCH_TAROT as V
from tarok_service.variants.french_tarot.sampler import TarotSampler
from tarok_service.variants.french_tarot.state import TarotState

SAMPLER = TarotSampler()


def census(state: TarotState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, [c for _, c in state.trick]):
        seen.update(group)
    seen.update(state.talon)
    return seen


def positions(players: int, games: int, seed: int) -> Iterator[tuple[TarotState, View]]:
    """Trick-play positions of games between heuristic bots, with the view of the seat to
    move."""
    rules = V.make_rules(players)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed + s) for s in range(players)]
    for game in range(games):
        order = list(V.deck(rules).cards)
        rng.shuffle(order)
        state = V.deal(rules, order, game % players)
        while not state.finished:
            assert state.turn is not None
            view = V.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            state = V.apply(state, bots[state.turn].choose(view, V, rules))


def history_legal(sample: TarotState, view: View) -> bool:
    plays = [pl for trick in (*completed_tricks(view), view.trick) for pl in trick]
    i = 0
    for trick in (*completed_tricks(view), view.trick):
        for k, (seat, card) in enumerate(trick):
            later = [c for s, c in plays[i:] if s == seat]
            hand = (*sample.hands[seat], *later)
            ban = sample.called if not i and sample.rules.flag("called_suit_first_lead") else None
            if card not in p.playable(hand, [c for _, c in trick[:k]], ban):
                return False
            i += 1
    return True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_samples_agree_with_the_view(players: int) -> None:
    rng = random.Random(players)
    checked = legal = 0
    for n, (_, view) in enumerate(positions(players, 3, 7)):
        if n % 5:
            continue
        sample = SAMPLER.sample(view, V.make_rules(players), rng)
        assert sample is not None, (view.contract, view.facts)
        assert V.view(sample, view.seat) == view
        assert set(census(sample)) == set(V.deck(sample.rules).cards)
        assert sum(census(sample).values()) == 78
        legal += history_legal(sample, view)
        checked += 1
    assert checked > 3
    assert legal >= 0.9 * checked  # the trick-play facts are dropped only when placing fails
