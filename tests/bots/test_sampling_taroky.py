"""The Czech taroky sampler builds states consistent with a seat's view, from the view alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.cards import PAGAT, TAROK, Card
from tarok_service.engine.inference import completed_tricks, infer_voids
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.view import View
from tarok_service.variants.taroky import data as d
from tarok_service.variants.taroky.declarations import declarations
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.sampler import TarokySampler, distance, feasible
from tarok_service.variants.taroky.state import TarokyState

SAMPLER = TarokySampler()
RULES = TAROKY.make_rules(4)


def census(state: HandState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(games: int, seed: int, every: int = 1) -> Iterator[tuple[TarokyState, View]]:
    """Trick-play positions (every `every`-th trick) of random games, with the view of the
    seat to move. The bots pass often, so that all obligations and varšava occur."""
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s, pass_bias=0.5) for s in range(4)]
    for game in range(games):
        order = list(TAROKY.deck(RULES).cards)
        rng.shuffle(order)
        state = TAROKY.deal(RULES, order, game % 4)
        while not state.finished:
            assert state.turn is not None and isinstance(state, TarokyState)
            view = TAROKY.view(state, state.turn)
            if state.phase == TRICKS and len(state.tricks) % every == 0:
                yield state, view
            state = TAROKY.apply(state, bots[state.turn].choose(view, TAROKY, RULES))


def start_hand(state: HandState, seat: int) -> list[Card]:
    plays = [p for tr in state.tricks for p in tr.plays] + list(state.trick)
    return [*state.hands[seat], *(c for s, c in plays if s == seat)]


@pytest.mark.slow
def test_samples_agree_with_the_view() -> None:
    rng = random.Random(1)
    contracts: Counter[str] = Counter()
    voids_kept = voids_total = declared_kept = declared_total = 0
    for state, view in positions(60, 4, every=3):
        sample = SAMPLER.sample(view, RULES, rng)
        assert sample is not None, (view.contract, view.trick)
        assert TAROKY.view(sample, view.seat) == view
        assert census(sample) == Counter(TAROKY.deck(RULES).cards)
        assert isinstance(sample, TarokyState)
        assert sample.multiplier == state.multiplier and sample.third_step == state.third_step
        assert sample.declarations == state.declarations and sample.flek == state.flek
        assert len(sample.talon) == len(state.talon)
        if view.partners:
            assert sample.partner == state.partner
        pagat_announcer = state.announcer(d.PAGAT)
        if pagat_announcer is not None:
            assert Card(TAROK, PAGAT) in start_hand(sample, pagat_announcer)
        voids = infer_voids((*completed_tricks(view), view.trick))
        for seat, suits in voids.items():
            voids_total += 1
            voids_kept += not any(c.suit in suits for c in sample.hands[seat])
        if view.contract != d.VARSAVA:
            for seat in range(4):
                made = tuple(v for s, v in state.declarations if s == seat)
                declared_total += 1
                declared_kept += tuple(declarations(start_hand(sample, seat))) == made
        contracts[view.contract] += 1
    assert len(contracts) >= 4, contracts
    assert voids_kept >= 0.97 * voids_total
    assert declared_kept >= 0.97 * declared_total


@pytest.mark.slow
def test_third_obligation_talon_and_the_call() -> None:
    """The third's talon as it lies (face up when rejected), the cards a rejected-both
    declarer took back with him, the taroks above a called one with the declarer."""
    rng = random.Random(3)
    thirds = calls = 0
    for state, view in positions(80, 8, every=4):
        if view.contract not in (d.THIRD, d.BASIC, d.SECOND) or view.seat == state.declarer:
            continue
        sample = SAMPLER.sample(view, RULES, rng)
        assert isinstance(sample, TarokyState) and state.declarer is not None
        if view.contract == d.THIRD:
            thirds += 1
            if state.shown:
                assert sample.talon == state.talon
            if len(state.shown) == 2:
                taken = set(start_hand(sample, state.declarer)) | set(sample.piles[state.declarer])
                assert set(state.shown[0]) <= taken
        elif state.called is not None:
            calls += 1
            above = [Card(TAROK, r) for r in (19, 18, 17) if r > state.called.rank]
            kept = [*start_hand(sample, state.declarer), *sample.piles[state.declarer]]
            assert all(c in kept for c in above)
            laid_away = [c for _, c in sample.discards]
            assert any(state.called in start_hand(sample, s) for s in range(4)) or (
                state.called in laid_away
            )
    assert thirds > 5 and calls > 5


def test_declarations_give_the_hands_counts() -> None:
    assert (3, 0, 0) in feasible(()) and (8, 0, 0) not in feasible(())
    assert all(n >= 10 for n, _, _ in feasible((d.TAROKY,)))
    assert distance((d.TAROCKY,), (5, 0, 0)) == 3
    assert distance((d.TRUL,), (6, 0, 3)) == 0 and distance((d.TRUL,), (6, 1, 3)) == 1


@pytest.mark.slow
def test_the_sampler_sees_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see give the same samples."""
    compared = 0
    for state, view in positions(12, 5, every=2):
        hidden = {view.seat, state.declarer, state.partner}
        others = [s for s in range(4) if s not in hidden and state.hands[s]]
        if len(others) < 2 or len(state.hands[others[0]]) != len(state.hands[others[1]]):
            continue
        a, b = others[:2]
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        twin = replace(state, hands=tuple(hands), talon=state.talon[::-1])
        if TAROKY.view(twin, view.seat) != view:
            continue
        one = SAMPLER.sample(view, RULES, random.Random(9))
        two = SAMPLER.sample(TAROKY.view(twin, view.seat), RULES, random.Random(9))
        assert one == two
        compared += 1
    assert compared > 10


@pytest.mark.slow
def test_pimc_samples_in_trick_play() -> None:
    bot = PimcBot(seed=3, budget=0.01, max_samples=3)
    used = []
    for _, view in positions(4, 21, every=2):
        move = bot.choose(view, TAROKY, RULES)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1
