"""PIMC in a rule set registered without a sampler plays every move as the heuristic bot does
(documented in bots/pimc.py and docs/variants.md; every shipped rule set has a sampler, which
tests/variants/test_completeness.py checks), and with its sampler it samples."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tarok_service.bots.heuristic import HeuristicBot
from tarok_service.bots.pimc import PimcBot
from tarok_service.engine.state import TRICKS
from tarok_service.variants import registry
from tarok_service.variants.registry import find_rule_set, find_variant


@pytest.fixture
def without_sampler() -> Iterator[None]:
    before = dict(registry._REGISTRY)
    registry._REGISTRY["slovenian"] = replace(find_rule_set("slovenian"), sampler=None)
    try:
        yield
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(before)


def play(pimc: PimcBot) -> tuple[int, int]:
    """One seeded Slovenian hand, PIMC at every seat checked against the heuristic bot: (trick
    decisions with a choice, of them decided by sampling)."""
    variant = find_variant("slovenian")
    rules = variant.make_rules(4)
    order = list(variant.deck(rules).cards)
    random.Random(11).shuffle(order)
    state = variant.deal(rules, order, 0)
    heuristic = HeuristicBot()
    choices = sampled = 0
    while not state.finished:
        assert state.turn is not None
        view = variant.view(state, state.turn)
        move = pimc.choose(view, variant, rules)
        if view.phase == TRICKS and len(view.legal) > 1:
            choices += 1
            sampled += pimc.samples_used > 0
        if pimc.samples_used == 0:
            assert move == heuristic.choose(view, variant, rules)
        state = variant.apply(state, move)
    return choices, sampled


def test_without_a_sampler_pimc_plays_as_the_heuristic_bot(without_sampler: None) -> None:
    choices, sampled = play(PimcBot(seed=1, budget=10.0, max_samples=4))
    assert choices > 0 and sampled == 0


def test_with_its_sampler_pimc_samples() -> None:
    choices, sampled = play(PimcBot(seed=1, budget=10.0, max_samples=4))
    assert choices > 0 and sampled == choices
