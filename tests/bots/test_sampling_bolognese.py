"""The Tarocco Bolognese sampler builds states consistent with a seat's view, from the view
alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine import tricks as t
from tarok_service.engine.cards import MATTO_CARD, Card
from tarok_service.engine.inference import completed_tricks
from tarok_service.engine.state import TRICKS
from tarok_service.engine.view import View
from tarok_service.variants.tarocco_bolognese.combinations import find
from tarok_service.variants.tarocco_bolognese.rules import (
    KEPT_BACK,
    TAROCCO_BOLOGNESE,
    BologneseState,
)
from tarok_service.variants.tarocco_bolognese.sampler import BologneseSampler

SAMPLER = BologneseSampler()
RULES = TAROCCO_BOLOGNESE.make_rules(4)
DECK = TAROCCO_BOLOGNESE.deck(RULES)


def census(state: BologneseState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(games: int, seed: int) -> Iterator[tuple[BologneseState, View]]:
    """Trick-play positions of random games (random bots declare or pass at random), with the
    view of the seat to move."""
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s) for s in range(4)]
    for game in range(games):
        order = list(DECK.cards)
        rng.shuffle(order)
        state = TAROCCO_BOLOGNESE.deal(RULES, order, game % 4)
        while not state.finished:
            assert state.turn is not None
            view = TAROCCO_BOLOGNESE.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            move = bots[state.turn].choose(view, TAROCCO_BOLOGNESE, RULES)
            state = TAROCCO_BOLOGNESE.apply(state, move)


def history_legal(sample: BologneseState, view: View) -> bool:
    """Whether every card the view shows played was a legal play from the sampled hands (the
    hand then: the cards held now plus those played since); the Matto may always be played,
    and when it is led the next card sets the suit."""
    tricks = (*completed_tricks(view), view.trick)
    plays = [p for trick in tricks for p in trick]
    rules = TAROCCO_BOLOGNESE.trick_rules(sample)
    i = 0
    for trick in tricks:
        for k, (seat, card) in enumerate(trick):
            hand = (*sample.hands[seat], *(c for s, c in plays[i:] if s == seat))
            if card not in t.legal_plays(hand, [c for _, c in trick[:k]], rules):
                return False
            i += 1
    return True


@pytest.mark.slow
def test_samples_agree_with_the_view() -> None:
    rng = random.Random(1)
    legal = total = matto_led = declared = 0
    for state, view in positions(14, 3):
        sample = SAMPLER.sample(view, RULES, rng)
        assert sample is not None, (view.seat, view.facts)
        assert TAROCCO_BOLOGNESE.view(sample, view.seat) == view
        assert census(sample) == Counter(DECK.cards)
        s = sample
        assert len(s.discards) == 2 and not set(s.discards) & KEPT_BACK
        if view.seat == view.dealer:
            assert s.discards == state.discards
        for seat, combos in s.declared:  # exactly the declared combinations, from the hand
            hand = (
                *sample.hands[seat],
                *(c for tr in sample.tricks for p, c in tr.plays if p == seat),
            )
            hand += tuple(c for p, c in sample.trick if p == seat)
            assert find(hand) == combos == dict(state.declared)[seat]
            declared += 1
        total += 1
        legal += history_legal(sample, view)
        matto_led += any(tr.plays[0][1] == MATTO_CARD for tr in view.tricks)
    assert legal == total, (legal, total)
    assert matto_led > 10 and declared > 100, (matto_led, declared)


@pytest.mark.slow
def test_the_sampler_sees_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see (the hands of two other seats
    that declared nothing, the dealer's discards) give the same samples."""
    compared = 0
    for state, view in positions(8, 5):
        assert view.seat is not None
        spoke = {seat for seat, _ in state.declared}
        others = [s for s in range(4) if s != view.seat and s not in spoke and state.hands[s]]
        if len(others) < 2 or len(state.hands[others[0]]) != len(state.hands[others[1]]):
            continue
        a, b = others[:2]
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        twin = replace(state, hands=tuple(hands))
        if view.seat != state.dealer:  # the discards trade places with two cards of seat a
            hidden = [c for c in hands[a] if c not in KEPT_BACK][:2]
            if len(hidden) == 2:
                hands[a] = DECK.sort(
                    [c for c in hands[a] if c not in hidden] + list(state.discards)
                )
                pile = [c for c in state.piles[state.dealer] if c not in state.discards]
                piles = list(state.piles)
                piles[state.dealer] = (*pile, *hidden)
                twin = replace(
                    state, hands=tuple(hands), piles=tuple(piles), discards=tuple(hidden)
                )
        if TAROCCO_BOLOGNESE.view(twin, view.seat) != view:
            continue
        one = SAMPLER.sample(view, RULES, random.Random(9))
        two = SAMPLER.sample(TAROCCO_BOLOGNESE.view(twin, view.seat), RULES, random.Random(9))
        assert one is not None and one == two
        compared += 1
    assert compared > 10


@pytest.mark.slow
def test_pimc_samples_in_trick_play() -> None:
    bot = PimcBot(seed=3, budget=0.01, max_samples=3)
    used = []
    for _, view in positions(1, 21):
        move = bot.choose(view, TAROCCO_BOLOGNESE, RULES)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1
