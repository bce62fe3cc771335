"""Settled results: what each hand credited, line by line, adds up for every variant.

For thousands of random hands: the lines of a seat add up to its settled amount, the
previous running totals plus the settled amounts are the new totals (and the pot moves by
the settled pot), and the end-of-match adjustments explain the final totals the same way.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarok_service.engine.match import MatchState, Settlement
from tarok_service.engine.outcome import HandResult
from tarok_service.selfplay import choose
from tarok_service.variants.registry import find_variant

COMBOS = [
    ("slovenian", 3, {}),
    ("slovenian", 4, {}),
    ("slovenian", 4, {"radelc_mode": "own"}),
    ("double_tarok", 4, {}),
    ("double_tarok", 6, {}),
    ("double_tarok", 8, {}),
    ("tarocco_bolognese", 4, {}),
    ("taroky", 4, {}),
    ("taroky", 4, {"zid_lost_payer": "declarer"}),
    ("zwanzigerrufen", 4, {}),
]
HANDS_PER_MATCH = 8
MATCHES = 32  # per combination: 32 x 8 = 256 hands, about 2,500 hands in all


def explained(settled: Settlement | None, players: int) -> list[int]:
    """The settled amounts, after checking that every seat's lines add up to its amount."""
    assert settled is not None
    assert len(settled.amounts) == players
    for seat in range(players):
        lines = sum(line.amount for line in settled.lines if line.seat == seat)
        assert lines == settled.amounts[seat], (seat, settled)
    assert all(line.amount != 0 and line.id for line in settled.lines)
    return list(settled.amounts)


@pytest.mark.parametrize(("variant_id", "players", "options"), COMBOS)
@settings(
    max_examples=MATCHES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32), pass_rate=st.sampled_from([0.3, 0.9]))
def test_settled_lines_add_up_and_explain_the_totals(
    variant_id: str, players: int, options: dict[str, str], seed: int, pass_rate: float
) -> None:
    variant = find_variant(variant_id)
    rules = variant.make_rules(players, options)
    rng = random.Random(seed)
    match = MatchState.start(players, HANDS_PER_MATCH, rng.randrange(players), rules)
    deals = 0
    while not match.over and deals < 4 * HANDS_PER_MATCH:
        deals += 1
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, match.dealer)
        while not state.finished:
            state = variant.apply(state, choose(variant.legal_moves(state), rng, pass_rate))
        result = variant.result(state)
        assert result is not None
        after = variant.settle(match, result)
        amounts = explained(after.settled, players)
        assert [t + a for t, a in zip(match.totals, amounts, strict=True)] == list(after.totals)
        assert after.settled is not None
        assert match.pot + after.settled.pot == after.pot
        match = after
    closed = variant.close(match)
    amounts = explained(closed.settled, players)
    assert [t + a for t, a in zip(match.totals, amounts, strict=True)] == list(closed.totals)


def test_a_radelc_doubling_and_the_end_penalty_are_lines_of_their_own() -> None:
    variant = find_variant("slovenian")
    rules = variant.make_rules(4)
    match = replace(MatchState.start(4, 1, 0, rules), radelci=(1, 0, 0, 1))
    result = HandResult(
        "three", 0, (0, 2), True, (70, -70, 70, -70), (0, 0, 0, -50), (40, 30)
    )
    after = variant.settle(match, result)
    assert after.settled is not None
    lines = {(line.id, line.seat): line.amount for line in after.settled.lines}
    assert lines[("hand_score", 0)] == 70
    assert lines[("hand_score", 3)] == -120
    assert lines[("radelc_double", 0)] == 70
    assert lines[("radelc_double", 3)] == -70
    assert after.settled.amounts == (140, -140, 140, -190)
    assert after.radelci == (0, 0, 0, 1)
    closed = variant.close(after)
    assert closed.settled is not None
    assert [(x.id, x.seat, x.amount) for x in closed.settled.lines] == [
        ("radelc_end_penalty", 3, -rules.num("radelc_end_penalty"))
    ]


@pytest.mark.parametrize(("won", "line_id"), [(True, "zid_taken"), (False, "zid_payment")])
def test_the_zid_is_a_line_and_moves_the_pot(won: bool, line_id: str) -> None:
    variant = find_variant("taroky")
    match = replace(MatchState.start(4, 4, 0, variant.make_rules(4)), pot=300)
    sign = 1 if won else -1
    result = HandResult(
        "second", 1, (1, 3), won, (sign * 30, -sign * 30, sign * 30, -sign * 30), (0,) * 4, (40, 30)
    )
    after = variant.settle(match, result)
    assert after.settled is not None
    zid = {line.seat: line.amount for line in after.settled.lines if line.id == line_id}
    assert zid == {1: sign * 150, 3: sign * 150}
    assert after.settled.pot == -sign * 300
    assert after.pot == (0 if won else 600)
    credited = zip(match.totals, after.settled.amounts, strict=True)
    assert list(after.totals) == [t + a for t, a in credited]
