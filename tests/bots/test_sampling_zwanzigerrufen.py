"""The Zwanzigerrufen sampler builds states consistent with a seat's view, from the view alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine import tricks as t
from tarok_service.engine.cards import Card
from tarok_service.engine.inference import completed_tricks
from tarok_service.engine.state import TRICKS
from tarok_service.engine.view import View
from tarok_service.variants.zwanzigerrufen import data as d
from tarok_service.variants.zwanzigerrufen.auction import suit_cards
from tarok_service.variants.zwanzigerrufen.rules import ZWANZIGERRUFEN, needs_redeal
from tarok_service.variants.zwanzigerrufen.sampler import ZwanzigerSampler
from tarok_service.variants.zwanzigerrufen.state import ZwanzigerState

SAMPLER = ZwanzigerSampler()
RULES = ZWANZIGERRUFEN.make_rules(4)


def census(state: ZwanzigerState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(games: int, seed: int) -> Iterator[tuple[ZwanzigerState, View]]:
    """Trick-play positions of random games (random bots that often pass, so that solos,
    colour solos, additions and kontras all occur), with the view of the seat to move."""
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s, pass_bias=0.6) for s in range(4)]
    for game in range(games):
        order = list(ZWANZIGERRUFEN.deck(RULES).cards)
        rng.shuffle(order)
        state = ZWANZIGERRUFEN.deal(RULES, order, game % 4)
        while not state.finished:
            assert state.turn is not None
            view = ZWANZIGERRUFEN.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            state = ZWANZIGERRUFEN.apply(
                state, bots[state.turn].choose(view, ZWANZIGERRUFEN, RULES)
            )


def history_legal(sample: ZwanzigerState, view: View) -> bool:
    """Whether every card the view shows played was a legal play from the sampled hands (the
    hand then: the cards held now plus those played since): voids, and in a colour solo the
    ban on leading a tarok while holding a suit card."""
    plays = [p for trick in (*completed_tricks(view), view.trick) for p in trick]
    rules = ZWANZIGERRUFEN.trick_rules(sample)
    i = 0
    for trick in (*completed_tricks(view), view.trick):
        for k, (seat, card) in enumerate(trick):
            later = [c for s, c in plays[i:] if s == seat]
            hand = (*sample.hands[seat], *later)
            held = ZWANZIGERRUFEN.held_cards(sample, seat)
            if card not in t.legal_plays(hand, [c for _, c in trick[:k]], rules, held):
                return False
            i += 1
    return True


@pytest.mark.slow
def test_samples_agree_with_the_view() -> None:
    rng = random.Random(1)
    games: Counter[str] = Counter()
    legal = total = 0
    for state, view in positions(40, 3):
        sample = SAMPLER.sample(view, RULES, rng)
        assert sample is not None, (view.contract, view.facts)
        assert ZWANZIGERRUFEN.view(sample, view.seat) == view
        assert census(sample) == Counter(ZWANZIGERRUFEN.deck(RULES).cards)
        s = sample
        assert (s.game, s.declarer, s.called, s.levels) == (
            state.game, state.declarer, state.called, state.levels
        )  # fmt: skip
        total += 1
        legal += history_legal(sample, view)
        games[view.contract] += 1
    assert set(games) == set(d.GAMES), games
    assert legal == total, (legal, total)


@pytest.mark.slow
def test_the_auction_constrains_the_hands() -> None:
    """A known partner holds the called tarok, the caller the callable taroks above it, a
    colour-solo bidder enough suit cards; no hand would have been thrown in."""
    rng = random.Random(2)
    partners = solos = 0
    for state, view in positions(40, 11):
        drawn = SAMPLER.sample(view, RULES, rng)
        assert drawn is not None, (view.contract, view.facts)
        sample = drawn
        assert not any(needs_redeal(h) for h in sample.dealt)
        if view.partners:
            assert sample.partner == state.partner == view.partners[0]
            partners += 1
        if state.called is not None and state.declarer is not None:
            above = [r for r in d.CALLABLE_RANKS if r > state.called.rank]
            assert all(Card("T", r) in sample.dealt[state.declarer] for r in above)
        if state.game == d.COLOUR_SOLO and state.declarer is not None:
            assert suit_cards(sample.dealt[state.declarer]) >= RULES.num("colour_solo_min_suits")
            solos += 1
    assert partners > 20 and solos > 20, (partners, solos)


@pytest.mark.slow
def test_the_sampler_sees_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see give the same samples."""
    compared = 0
    for state, view in positions(20, 5):
        assert view.seat is not None
        side = {view.seat, state.declarer, state.partner}
        others = [s for s in range(4) if s not in side and state.hands[s]]
        if len(others) < 2 or len(state.hands[others[0]]) != len(state.hands[others[1]]):
            continue
        a, b = others[:2]
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        twin = ZwanzigerState(**{f: getattr(state, f) for f in ZwanzigerState.__dataclass_fields__})
        object.__setattr__(twin, "hands", tuple(hands))
        if ZWANZIGERRUFEN.view(twin, view.seat) != view:
            continue
        one = SAMPLER.sample(view, RULES, random.Random(9))
        two = SAMPLER.sample(ZWANZIGERRUFEN.view(twin, view.seat), RULES, random.Random(9))
        assert one is not None and one == two
        compared += 1
    assert compared > 10


@pytest.mark.slow
def test_pimc_samples_in_trick_play() -> None:
    bot = PimcBot(seed=3, budget=0.01, max_samples=3)
    used = []
    for _, view in positions(3, 21):
        move = bot.choose(view, ZWANZIGERRUFEN, RULES)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1
