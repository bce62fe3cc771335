"""The pure standings: duplicate normalisation, confidence intervals, OpenSkill ratings."""

from __future__ import annotations

import pytest

from tarok_service.competition import GameRecord, Rated, rate, standings
from tarok_service.competition.standings import ci95, sides

_game = GameRecord  # game, deal, seating, scores, then team, declarer, won, timeouts


def test_duplicate_normalisation_cancels_the_cards() -> None:
    # Deal 0 is a great deal for seat 0 whoever holds it; entrant 0 still does better with it.
    records = [
        _game(0, 0, (0, 1), (100, 0)),
        _game(1, 0, (1, 0), (60, 0)),
    ]
    rows = {r.name: r for r in standings(["a", "b"], records, duplicate=True)}
    assert rows["a"].score == 100 and rows["b"].score == 60
    assert rows["a"].per_deal == pytest.approx(10.0)  # (100 - 80 + 0 - 0) / 2
    assert rows["b"].per_deal == pytest.approx(-10.0)
    assert rows["a"].rank == 1 and rows["b"].rank == 2
    assert rows["a"].games == rows["b"].games == 2


def test_plain_standings_are_raw_means_and_timeouts_add_up() -> None:
    records = [
        _game(0, 0, (0, 1), (30, -10), timeouts=(0, 2)),
        _game(1, 1, (1, 0), (0, 10), timeouts=(1, 0)),
    ]
    rows = {r.name: r for r in standings(["a", "b"], records, duplicate=False)}
    assert rows["a"].per_deal == pytest.approx(20.0)
    assert rows["b"].per_deal == pytest.approx(-5.0)
    assert (rows["a"].timeouts, rows["b"].timeouts) == (0, 3)


def test_ci95_half_width() -> None:
    assert ci95([1.0]) == 0.0
    assert ci95([0.0, 2.0]) == pytest.approx(1.959964 * 2**0.5 / 2**0.5, rel=1e-6)


def test_declarer_side_against_the_rest_teams_of_unequal_size() -> None:
    solo = _game(0, 0, (0, 1, 2, 3), (50, 0, 0, 0), team=(0,), declarer=0, won=True)
    assert sides(solo) == ([[0], [1, 2, 3]], [1.0, 2.0])
    pair = _game(1, 0, (0, 1, 2, 3), (0, -30, 0, -30), team=(1, 3), declarer=1, won=False)
    assert sides(pair) == ([[1, 3], [0, 2]], [2.0, 1.0])
    # An entrant on both sides counts with the declarer side.
    mixed = _game(2, 0, (0, 1, 0, 1), (20, 0, 0, 0), team=(0,), declarer=0, won=True)
    assert sides(mixed) == ([[0], [1]], [1.0, 2.0])
    assert sides(_game(3, 0, (0, 1, 0, 1), (9, 9, 0, 0), team=(0, 1), won=True)) is None
    klop = _game(4, 0, (0, 1, 2), (-10, 0, -30))
    assert sides(klop) == ([[0], [1], [2]], [2.0, 1.0, 3.0])


def test_winners_rise_and_priors_carry_over() -> None:
    records = [
        _game(i, i, (0, 1, 2, 3), (50, 0, 0, 0), team=(0,), declarer=0, won=True) for i in range(5)
    ]
    after = rate(["w", "x", "y", "z"], records)
    assert after[0].mu > 25 > after[1].mu
    assert after[0].games == 5 and after[0].sigma < 25 / 3
    again = rate(["w", "x", "y", "z"], records, {"w": after[0]})
    assert again[0].mu > after[0].mu and again[0].games == 10
    assert Rated(30.0, 2.0).ordinal == pytest.approx(24.0)
