"""The money layer (not rules): stake x units, the site's commission, the table limit."""

from __future__ import annotations

from decimal import Decimal

from tarok_service.engine.outcome import HandResult
from tarok_service.variants.zwanzigerrufen.payout import game_value, payout


def result(scores: tuple[int, ...], team: tuple[int, ...]) -> HandResult:
    zeros = (0,) * 4
    return HandResult("solo", team[0], team, scores[team[0]] > 0, scores, zeros, (50, 38))


def test_seed_example_one_against_three() -> None:
    """Stake 1 x value 3 from each of three opponents = 9; commission 9 % of 3 x 4 = 1.08."""
    r = result((9, -3, -3, -3), (0,))
    assert game_value(r) == 3
    p = payout(r, Decimal(1))
    assert p.commission == Decimal("1.08")
    assert p.amounts == (Decimal("7.92"), Decimal(-3), Decimal(-3), Decimal(-3))


def test_three_winners_share_equally() -> None:
    p = payout(result((-9, 3, 3, 3), (0,)), Decimal(1))
    assert p.amounts == (Decimal(-9), Decimal("2.64"), Decimal("2.64"), Decimal("2.64"))
    assert sum(p.amounts) + p.commission == 0


def test_two_against_two() -> None:
    p = payout(result((3, -3, 3, -3), (0, 2)), Decimal(1))
    assert p.amounts == (Decimal("2.46"), Decimal(-3), Decimal("2.46"), Decimal(-3))
    assert p.commission == Decimal("1.08")


def test_limit_caps_what_each_loser_pays() -> None:
    p = payout(result((90, -30, -30, -30), (0,)), Decimal(1), limit=Decimal(10))
    assert p.amounts[1:] == (Decimal(-10),) * 3
    assert p.amounts[0] == Decimal("26.40")


def test_rounding_remainder_goes_to_the_commission() -> None:
    p = payout(result((-3, 1, 1, 1), (0,)), Decimal("0.10"), rate=Decimal("0.07"))
    assert sum(p.amounts) + p.commission == 0
    assert all(a == Decimal("0.09") for a in p.amounts[1:])


def test_nothing_to_pay() -> None:
    p = payout(result((0, 0, 0, 0), (0,)), Decimal(1))
    assert p.amounts == (Decimal(0),) * 4 and p.commission == 0
