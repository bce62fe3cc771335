"""Every registered rule set has every piece (`completeness.PIECES`), and a rule set that lacks
one is caught."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from tarok_service.variants import registry
from tarok_service.variants.registry import all_rule_sets, find_rule_set
from tarok_service.variants.ruleset import RuleSet
from tarok_service.variants.slovenian.rules import Slovenian

from .completeness import PIECES, missing
from .example_duel import Duel


@contextmanager
def registered(rule_set: RuleSet) -> Iterator[None]:
    """`rule_set` in the registry for the block only (the registry is restored after)."""
    before = dict(registry._REGISTRY)
    registry.register(rule_set.variant, sampler=rule_set.sampler, openspiel=rule_set.openspiel)
    try:
        yield
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(before)


@pytest.mark.parametrize("rule_set", all_rule_sets(), ids=lambda rs: rs.id)
def test_every_registered_rule_set_is_complete(rule_set: RuleSet) -> None:
    assert missing(rule_set) == []


def test_a_rule_set_registered_without_a_sampler_is_caught() -> None:
    slovenian = find_rule_set("slovenian")
    with registered(replace(slovenian, variant=Slovenian(), sampler=None)):
        found = [(rs.id, missing(rs)) for rs in all_rule_sets()]
    assert ("slovenian", ["sampler"]) in found


def test_a_rule_set_registered_without_an_openspiel_mapping_is_caught() -> None:
    slovenian = find_rule_set("slovenian")
    assert missing(replace(slovenian, openspiel=None)) == ["openspiel mapping"]


def test_a_new_rule_set_with_code_alone_lacks_every_other_piece() -> None:
    with registered(RuleSet(Duel())):
        duel = find_rule_set("example_duel")
        assert missing(duel) == list(PIECES)
