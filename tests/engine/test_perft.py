"""Perft golden files: the number of distinct legal move sequences from fixed positions of
every rule set (tests/data/perft); a change to what is legal shows as a changed count."""

from __future__ import annotations

import pytest

from tarok_service.variants.registry import all_variants, find_variant

from .perft import load, perft

VARIANTS = [v.id for v in all_variants()]


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", VARIANTS)
def test_perft_counts_match_the_golden_file(variant_id: str) -> None:
    variant = find_variant(variant_id)
    positions = load(variant_id)
    assert {p.players for p in positions} == set(variant.player_counts)
    for position in positions:
        start = position.state(variant)
        got = [(depth, perft(variant, start, depth)) for depth, _ in position.counts]
        assert got == list(position.counts), (position.players, position.before)


def test_perft_counts_sequences() -> None:
    """Depth 1 is the number of legal moves; deeper counts sum over them."""
    variant = find_variant("slovenian")
    position = load("slovenian")[0]
    start = position.state(variant)
    legal = variant.legal_moves(start)
    assert perft(variant, start, 1) == len(legal)
    assert perft(variant, start, 2) == sum(
        len(variant.legal_moves(variant.apply(start, mv))) or 1 for mv in legal
    )
