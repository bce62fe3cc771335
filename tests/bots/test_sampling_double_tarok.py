"""The double-tarok sampler builds states consistent with a seat's view, from the view alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.cards import PAGAT, Card
from tarok_service.engine.inference import completed_tricks, infer_voids
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.view import View
from tarok_service.variants.double_tarok import data as dd
from tarok_service.variants.double_tarok.rules import DOUBLE_TAROK
from tarok_service.variants.double_tarok.sampler import DoubleTarokSampler
from tarok_service.variants.slovenian.state import SlovenianState

SAMPLER = DoubleTarokSampler()
FREE = {"talon_exchange": "free"}


def census(state: HandState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(
    players: int, games: int, seed: int, options: Mapping[str, OptionValue] | None = None
) -> Iterator[tuple[HandState, View]]:
    """Trick-play positions of random games (random bots that often pass, so that every
    contract, announcements and kontras occur), with the view of the seat to move."""
    rules = DOUBLE_TAROK.make_rules(players, options)
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s, pass_bias=0.85) for s in range(players)]
    for game in range(games):
        order = list(DOUBLE_TAROK.deck(rules).cards)
        rng.shuffle(order)
        state = DOUBLE_TAROK.deal(rules, order, game % players)
        while not state.finished:
            assert state.turn is not None
            view = DOUBLE_TAROK.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            move = bots[state.turn].choose(view, DOUBLE_TAROK, rules)
            state = DOUBLE_TAROK.apply(state, move)


def start_hand(state: HandState, seat: int) -> set[Card]:
    played = {c for tr in state.tricks for s, c in tr.plays if s == seat}
    return set(state.hands[seat]) | played | {c for s, c in state.trick if s == seat}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options", "games"), [(4, None, 8), (6, None, 6), (8, None, 4), (6, FREE, 5)]
)
def test_samples_agree_with_the_view(
    players: int, options: Mapping[str, OptionValue] | None, games: int
) -> None:
    rules = DOUBLE_TAROK.make_rules(players, options)
    rng = random.Random(1)
    contracts: Counter[str] = Counter()
    voids_kept = voids_total = 0
    for state, view in positions(players, games, players, options):
        if len(view.tricks) % 3:  # every third trick: enough positions, a quick test
            continue
        sample = SAMPLER.sample(view, rules, rng)
        assert sample is not None, (view.contract, view.trick)
        assert DOUBLE_TAROK.view(sample, view.seat) == view
        assert census(sample) == Counter(DOUBLE_TAROK.deck(rules).cards)
        assert isinstance(sample, SlovenianState) and isinstance(state, SlovenianState)
        assert sample.called == state.called
        assert set(view.partners) <= set(sample.partners)
        assert sample.talon_kings == state.talon_kings and sample.group == state.group
        for f in view.facts:  # an ultimo's announcer holds one of the cards
            if f.kind == "announce" and f.value in dd.PAGAT_GROUP and f.seat is not None:
                assert any(c.is_tarok and c.rank == PAGAT for c in start_hand(sample, f.seat))
            if f.kind == "announce" and f.value in dd.KING_ULTIMO_GROUP and f.seat is not None:
                assert start_hand(sample, f.seat) & set(sample.called)
        voids = infer_voids((*completed_tricks(view), view.trick))
        for seat, suits in voids.items():
            voids_total += 1
            voids_kept += not any(c.suit in suits for c in sample.hands[seat])
        contracts[view.contract] += 1
    assert len(contracts) >= 3, contracts
    assert voids_kept >= 0.97 * voids_total


def test_known_partners_hold_called_kings() -> None:
    rules = DOUBLE_TAROK.make_rules(6)
    rng = random.Random(2)
    checked = 0
    for state, view in positions(6, 12, 11):
        assert isinstance(state, SlovenianState)
        partners = [p for p in view.partners if p != view.seat]
        if not partners or len(view.tricks) % 2:
            continue
        sample = SAMPLER.sample(view, rules, rng)
        assert isinstance(sample, SlovenianState)
        for p in partners:
            assert start_hand(sample, p) & set(sample.called)
            assert p in sample.partners
        checked += 1
    assert checked > 10


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 8])
def test_the_sampler_sees_only_the_view(players: int) -> None:
    """Two states that differ only in cards the seat cannot see give the same samples."""
    rules = DOUBLE_TAROK.make_rules(players)
    compared = 0
    for state, view in positions(players, 6, 5):
        assert isinstance(state, SlovenianState) and view.seat is not None
        if len(view.tricks) % 2:
            continue
        hidden = {view.seat, *state.partners}
        if state.declarer is not None:
            hidden.add(state.declarer)
        others = [s for s in range(players) if s not in hidden and state.hands[s]]
        pairs = [(a, b) for a in others for b in others if a < b]
        same = [(a, b) for a, b in pairs if len(state.hands[a]) == len(state.hands[b])]
        if not same:
            continue
        a, b = same[0]
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        twin = replace(state, hands=tuple(hands), talon=state.talon[::-1])
        if DOUBLE_TAROK.view(twin, view.seat) != view:
            continue
        one = SAMPLER.sample(view, rules, random.Random(9))
        two = SAMPLER.sample(DOUBLE_TAROK.view(twin, view.seat), rules, random.Random(9))
        assert one == two
        compared += 1
    assert compared > 10


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 6, 8])
def test_pimc_samples_in_trick_play(players: int) -> None:
    rules = DOUBLE_TAROK.make_rules(players)
    bot = PimcBot(seed=3, budget=0.01, max_samples=2)
    used = []
    for n, (_, view) in enumerate(positions(players, 1, 21)):
        if n % 5:
            continue
        move = bot.choose(view, DOUBLE_TAROK, rules)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1
