"""The Königrufen sampler builds states consistent with a seat's view, from the view alone,
and PIMC plays Königrufen with it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.cards import Card
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.view import View
from tarok_service.variants.koenigrufen import data as d
from tarok_service.variants.koenigrufen.rules import KOENIGRUFEN
from tarok_service.variants.koenigrufen.sampler import KoenigrufenSampler
from tarok_service.variants.slovenian.state import SlovenianState

SAMPLER = KoenigrufenSampler()
BIRDS = d.BIRD_CARDS


def census(state: HandState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def positions(
    games: int, seed: int, options: Mapping[str, OptionValue] | None = None
) -> Iterator[tuple[HandState, View]]:
    """Trick-play positions of random games (random bots that often pass, so that every
    contract, announcements and kontras occur), with the view of the seat to move."""
    rules = KOENIGRUFEN.make_rules(4, options)
    rng = random.Random(seed)
    bots = [make_bot("random", seed + s, pass_bias=0.85) for s in range(4)]
    for game in range(games):
        order = list(KOENIGRUFEN.deck(rules).cards)
        rng.shuffle(order)
        state = KOENIGRUFEN.deal(rules, order, game % 4)
        while not state.finished:
            assert state.turn is not None
            view = KOENIGRUFEN.view(state, state.turn)
            if state.phase == TRICKS:
                yield state, view
            state = KOENIGRUFEN.apply(state, bots[state.turn].choose(view, KOENIGRUFEN, rules))


@pytest.mark.parametrize("options", [None, {"trischaken_talon": "first_six", "zwiccolo": True}])
def test_samples_agree_with_the_view(options: Mapping[str, OptionValue] | None) -> None:
    rules = KOENIGRUFEN.make_rules(4, options)
    rng = random.Random(1)
    contracts: Counter[str] = Counter()
    for state, view in positions(30, 4, options):
        if len(view.tricks) % 4:  # every fourth trick: enough positions, a quick test
            continue
        sample = SAMPLER.sample(view, rules, rng)
        assert sample is not None, (view.contract, view.trick)
        assert KOENIGRUFEN.view(sample, view.seat) == view
        assert census(sample) == Counter(KOENIGRUFEN.deck(rules).cards)
        assert isinstance(sample, SlovenianState) and isinstance(state, SlovenianState)
        assert sample.called == state.called and sample.contract == state.contract
        contracts[view.contract] += 1
    assert len(contracts) >= 4, contracts


def test_pimc_samples_in_trick_play() -> None:
    rules = KOENIGRUFEN.make_rules(4)
    bot = PimcBot(seed=3, budget=0.01, max_samples=2)
    used = []
    for n, (_, view) in enumerate(positions(2, 21)):
        if n % 5:
            continue
        move = bot.choose(view, KOENIGRUFEN, rules)
        assert move in view.legal
        if len(view.legal) > 1:
            used.append(bot.samples_used)
    assert used and min(used) >= 1


def test_an_announced_bird_stays_with_its_announcer() -> None:
    rules = KOENIGRUFEN.make_rules(4)
    rng = random.Random(2)
    checked = 0
    for state, view in positions(60, 9):
        birds = [(f.value, f.seat) for f in view.facts if f.kind == "announce" and f.value in BIRDS]
        if not birds or view.seat is None:
            continue
        sample = SAMPLER.sample(view, rules, rng)
        assert sample is not None
        for item, seat in birds:
            card = BIRDS[item]
            assert seat is not None
            played = any(c == card for tr in state.tricks for _, c in tr.plays)
            if not played and all(c != card for _, c in state.trick):
                assert card in sample.hands[seat]
                checked += 1
    assert checked
