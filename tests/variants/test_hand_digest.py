"""Behaviour is unchanged: `HANDS` seeded hands per configuration, traced through the public
engine API, hash to the digests in tests/data/digest/hands.txt (see `hand_digest`)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tarok_service.engine.options import OptionValue

from .hand_digest import CONFIGS, HANDS, config_name, digest, load


def test_every_configuration_has_a_golden_digest() -> None:
    assert sorted(load()) == sorted(config_name(*c) for c in CONFIGS)


def test_the_trace_depends_on_the_hands_played() -> None:
    # a digest that ignored the play would pass every comparison below
    assert digest("slovenian", 4, {}, 2) != digest("slovenian", 4, {}, 3)
    assert digest("slovenian", 4, {}, 2) != digest("slovenian", 4, {"radelc_mode": "own"}, 2)


@pytest.mark.slow
@pytest.mark.parametrize(("variant_id", "players", "options"), CONFIGS, ids=lambda x: str(x))
def test_seeded_hands_hash_to_the_golden_digest(
    variant_id: str, players: int, options: Mapping[str, OptionValue]
) -> None:
    name = config_name(variant_id, players, options)
    assert digest(variant_id, players, options, HANDS) == load()[name], name
