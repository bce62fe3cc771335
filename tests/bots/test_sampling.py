"""The Slovenian sampler builds states consistent with a seat's view, from the view alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.cards import Card
from tarok_service.engine.inference import completed_tricks, infer_voids
from tarok_service.engine.sampling import deal_constrained
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.view import View
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState
from tarok_service.variants.slovenian.sampler import SlovenianSampler

SAMPLER = SlovenianSampler()


def census(state: HandState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(players: int, games: int, seed: int) -> Iterator[tuple[HandState, View]]:
    """Trick-play positions of random games (random bots that often pass, so that every
    contract, announcements and kontras occur), with the view of the seat to move."""
    rules = SLOVENIAN.make_rules(players)
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s, pass_bias=0.8) for s in range(players)]
    for game in range(games):
        order = list(SLOVENIAN.deck(rules).cards)
        rng.shuffle(order)
        state = SLOVENIAN.deal(rules, order, game % players)
        while not state.finished:
            assert state.turn is not None
            view = SLOVENIAN.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            state = SLOVENIAN.apply(state, bots[state.turn].choose(view, SLOVENIAN, rules))


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 3])
def test_samples_agree_with_the_view(players: int) -> None:
    rules = SLOVENIAN.make_rules(players)
    rng = random.Random(1)
    contracts: Counter[str] = Counter()
    voids_kept = voids_total = 0
    for _, view in positions(players, 60, players):
        sample = SAMPLER.sample(view, rules, rng)
        assert sample is not None, (view.contract, view.trick)
        assert SLOVENIAN.view(sample, view.seat) == view
        assert census(sample) == Counter(SLOVENIAN.deck(rules).cards)
        voids = infer_voids((*completed_tricks(view), view.trick))
        for seat, suits in voids.items():
            voids_total += 1
            voids_kept += not any(c.suit in suits for c in sample.hands[seat])
        contracts[view.contract] += 1
    assert len(contracts) >= 6, contracts
    assert voids_kept >= 0.97 * voids_total


def test_a_known_partner_holds_the_called_king() -> None:
    rules = SLOVENIAN.make_rules(4)
    rng = random.Random(2)
    checked = 0
    for state, view in positions(4, 60, 11):
        assert isinstance(state, SlovenianState)
        partners = [p for p in view.partners if p != view.seat]
        if not partners or not state.called:
            continue
        sample = SAMPLER.sample(view, rules, rng)
        assert isinstance(sample, SlovenianState)
        assert sample.partners == state.partners == (partners[0],)
        checked += 1
    assert checked > 20


@pytest.mark.slow
def test_the_sampler_sees_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see give the same samples."""
    rules = SLOVENIAN.make_rules(4)
    compared = 0
    for state, view in positions(4, 20, 5):
        assert isinstance(state, SlovenianState) and view.seat is not None
        hidden = {view.seat, *state.partners}
        others = [s for s in range(4) if s not in hidden and state.hands[s]]
        if len(others) < 2 or len(state.hands[others[0]]) < 2:
            continue
        a, b = others[:2]
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        if len(hands[a]) != len(state.hands[a]):
            continue
        twin = SlovenianState(**{f: getattr(state, f) for f in SlovenianState.__dataclass_fields__})
        object.__setattr__(twin, "hands", tuple(hands))
        if SLOVENIAN.view(twin, view.seat) != view:
            continue
        one = SAMPLER.sample(view, rules, random.Random(9))
        two = SAMPLER.sample(SLOVENIAN.view(twin, view.seat), rules, random.Random(9))
        assert one == two
        compared += 1
    assert compared > 10


def test_constrained_deal_respects_the_slots() -> None:
    cards = [Card("H", r) for r in range(1, 9)] + [Card("T", r) for r in range(1, 5)]
    capacity = {0: 4, 1: 4, 2: 4}

    def allowed(card: Card, slot: int) -> bool:
        return not (slot == 0 and card.suit == "T")

    for seed in range(20):
        dealt = deal_constrained(cards, capacity, allowed, random.Random(seed))
        assert dealt is not None
        assert sorted(c for cs in dealt.values() for c in cs) == sorted(cards)
        assert {len(cs) for cs in dealt.values()} == {4}
        assert not any(c.suit == "T" for c in dealt[0])
    assert deal_constrained(cards, {0: 12}, allowed, random.Random(1)) is None
    assert deal_constrained(cards, {0: 5, 1: 5}, allowed, random.Random(1)) is None


@pytest.mark.slow
def test_pimc_samples_in_trick_play() -> None:
    rules = SLOVENIAN.make_rules(4)
    bot = PimcBot(seed=3, budget=0.01, max_samples=3)
    used = []
    for _, view in positions(4, 3, 21):
        move = bot.choose(view, SLOVENIAN, rules)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1
