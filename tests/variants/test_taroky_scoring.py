"""Golden scoring tests for Czech taroky (the rules-5.7, the seed's worked example, the zid)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tarok_service.engine.cards import Card
from tarok_service.engine.counting import in_threes
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import SCORED, Trick
from tarok_service.variants.taroky import data as d
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.scoring import shares, varsava_payment
from tarok_service.variants.taroky.state import DECK, TarokyState

from .taroky_helpers import cards, finished, pile_worth, result, table

PAGAT_WINS = [(0, "T1"), (1, "H4"), (2, "H3"), (3, "S7")]
PAGAT_LOSES = [(0, "T1"), (1, "T2"), (2, "H3"), (3, "S7")]


def totals(state: TarokyState) -> tuple[int, ...]:
    return result(state).totals


def items(state: TarokyState) -> dict[str, int]:
    """Score lines by item, as the declarer sees them."""
    return {li.item: li.points for li in result(state).lines if 0 in li.seats}


# --- the seed's example and the game part -------------------------------------------------


def test_seed_example() -> None:
    """Third, second three kept (x2); 52 vs 18 -> 50 vs 20: 30 x 2 = 60; + taroky 20 + honery 10
    - the opponents' barvicka 10 = 80. Declarer +240, each opponent -80."""
    state = finished(
        d.THIRD,
        pile_worth(52, 27),
        multiplier=2,
        declarations=((0, d.TAROKY), (0, d.HONERY), (2, d.BARVICKA)),
    )
    res = result(state)
    assert res.side_points == (52, 18)
    assert res.totals == (240, -80, -80, -80)
    assert items(state) == {"game": 180, d.TAROKY: 60, d.HONERY: 30, d.BARVICKA: -30}
    assert res.won and res.pot == 0


def test_seed_rounding_check() -> None:
    """37 vs 33 -> 35 vs 35 -> game part 0."""
    res = result(finished(d.BASIC, pile_worth(37, 27), partner=2))
    assert res.side_points == (37, 33)
    assert res.totals == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("contract", "multiplier", "partner", "expected"),
    [
        (d.BASIC, 1, 2, (20, -20, 20, -20)),
        (d.BASIC, 1, None, (60, -20, -20, -20)),  # secret solo / called card from the talon
        (d.SECOND, 1, 2, (20, -20, 20, -20)),
        (d.THIRD, 1, None, (60, -20, -20, -20)),
        (d.THIRD, 2, None, (120, -40, -40, -40)),
        (d.THIRD, 4, None, (240, -80, -80, -80)),
        (d.SIXTH, 32, None, (1920, -640, -640, -640)),
    ],
)
def test_obligations_and_talon_multipliers(
    contract: str, multiplier: int, partner: int | None, expected: tuple[int, ...]
) -> None:
    """44 vs 26 -> 45 vs 25: 20 x talon multiplier; 2 v 2 each +-V, 1 v 3 +3V / -V."""
    state = finished(contract, pile_worth(44, 27), partner=partner, multiplier=multiplier)
    assert totals(state) == expected


@pytest.mark.parametrize(("points", "diff"), [(36, 0), (38, 10), (33, 0), (32, -10), (0, -70)])
def test_rounding_each_side_to_five(points: int, diff: int) -> None:
    state = finished(d.BASIC, pile_worth(points, 27) if points else [], partner=1)
    assert totals(state) == (diff, diff, -diff, -diff)


def test_loss_pays_the_opponents() -> None:
    res = result(finished(d.THIRD, pile_worth(20, 27), multiplier=4))
    assert res.totals == (-360, 120, 120, 120) and not res.won  # 20 vs 50: -30 x 4


# --- sixth: the talon goes to the winner -----------------------------------------------------

SIXTH_TALON = cards("HK DK CK SK HQ DQ")


def sixth(points_without: int, **options: OptionValue) -> TarokyState:
    team = pile_worth(points_without, 24, exclude=SIXTH_TALON)
    state = finished(d.SIXTH, team, multiplier=32, talon=SIXTH_TALON)
    return replace(state, rules=TAROKY.make_rules(4, options))  # the table's options


def test_sixth_talon_to_the_side_ahead_without_it() -> None:
    state = sixth(36)  # the opponents have 10 without the talon
    res = result(state)
    assert res.side_points[0] == in_threes([*state.piles[0], *SIXTH_TALON], DECK.points)
    assert sum(res.side_points) == 70


@pytest.mark.parametrize("points", [20, 23])  # behind, and a 23:23 tie
def test_sixth_talon_to_the_opponents_when_behind_or_tied(points: int) -> None:
    state = sixth(points)
    others = [c for c in DECK.cards if c not in state.piles[0] and c not in SIXTH_TALON]
    assert in_threes(others, DECK.points) == 46 - points
    assert result(state).side_points[0] == points


def test_sixth_talon_by_last_trick_option() -> None:
    state = sixth(36, sixth_talon_to="last_trick")  # the first opponent took the last trick
    assert result(state).side_points[0] == 36


# --- declarations, flek ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "value"), [(k, 20 if big else 10) for k, (_, big) in d.DECLARATIONS.items()]
)
def test_every_declaration_counts_for_its_side(item: str, value: int) -> None:
    mine = finished(d.BASIC, pile_worth(35, 27), partner=2, declarations=((2, item),))
    assert totals(mine) == (value, -value, value, -value)
    theirs = finished(d.THIRD, pile_worth(35, 27), declarations=((1, item),))
    assert totals(theirs) == (-3 * value, value, value, value)


def test_declaration_values_are_options() -> None:
    state = finished(
        d.BASIC,
        pile_worth(35, 27),
        partner=2,
        declarations=((0, d.TAROKY), (1, d.TRUL)),
        big_declaration=40,
        small_declaration=15,
    )
    assert totals(state) == (25, -25, 25, -25)


@pytest.mark.parametrize(("flek", "game"), [(0, 20), (1, 40), (2, 80), (3, 160)])
def test_flek_multiplies_the_game_part_only(flek: int, game: int) -> None:
    state = finished(
        d.BASIC, pile_worth(44, 27), partner=2, flek=flek, declarations=((0, d.TAROKY),)
    )
    assert items(state) == {"game": game, d.TAROKY: 20}
    assert totals(state)[0] == game + 20


# --- pagat and valat -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("last", "announced", "expected"),
    [
        (PAGAT_WINS, (), {"pagat (silent)": 50}),
        (PAGAT_LOSES, (), {}),  # a silent pagat lost costs nothing
        (PAGAT_WINS, ((d.PAGAT, 0),), {"pagat (announced)": 100}),
        (PAGAT_LOSES, ((d.PAGAT, 0),), {"pagat (announced)": -100}),
        (
            [(0, "S7"), (1, "H4"), (2, "H3"), (3, "S8")],
            ((d.PAGAT, 0),),
            {"pagat (announced)": -100},
        ),
    ],
)
def test_pagat(
    last: list[tuple[int, str]], announced: tuple[tuple[str, int], ...], expected: dict[str, int]
) -> None:
    winners = [0, 1] * 5 + [1, 0]
    state = finished(
        d.BASIC, pile_worth(35, 27), partner=2, last=last, announced=announced, winners=winners
    )
    assert {k: v for k, v in items(state).items() if k != "game"} == expected


def test_opponents_silent_pagat() -> None:
    last = [(1, "T1"), (2, "H4"), (3, "H3"), (0, "S7")]
    state = finished(d.BASIC, pile_worth(35, 27), partner=2, last=last, winners=[0, 1] * 6)
    assert totals(state) == (-50, 50, -50, 50)


@pytest.mark.parametrize(
    ("winners", "announced", "item", "value"),
    [
        ([0] * 12, (), "valat (silent)", 100),
        ([0, 2] * 6, (), "valat (silent)", 100),  # judged per side
        ([1, 3] * 6, (), "valat (silent)", -100),
        ([0] * 12, ((d.VALAT, 2),), "valat (announced)", 200),
        ([0, 1] * 6, ((d.VALAT, 0),), "valat (announced)", -200),
        ([1] * 12, ((d.VALAT, 3),), "valat (announced)", -200),
    ],
)
def test_valat_adds_to_the_game(
    winners: list[int], announced: tuple[tuple[str, int], ...], item: str, value: int
) -> None:
    state = finished(d.BASIC, pile_worth(44, 27), partner=2, winners=winners, announced=announced)
    assert items(state) == {"game": 20, item: value}


# --- the second obligation -------------------------------------------------------------------


def second(points: int, last: list[tuple[int, str]], **options: OptionValue) -> TarokyState:
    winners = [0, 1] * 5 + [1, last[0][0]]
    state = finished(d.SECOND, pile_worth(points, 27), partner=2, last=last, winners=winners)
    return replace(state, rules=TAROKY.make_rules(4, options))  # the table's options


def test_second_won_with_the_pagat_and_points() -> None:
    res = result(second(44, PAGAT_WINS))
    assert res.won and res.totals == (70, -70, 70, -70)  # 20 + pagat 50, scored normally


def test_second_lost_without_points_or_pagat() -> None:
    assert not result(second(30, PAGAT_WINS)).won
    assert not result(second(44, PAGAT_LOSES)).won
    assert result(second(30, PAGAT_WINS, second_needs_points=False)).won


# --- varsava ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "pays"), [(0, 0), (14, 0), (15, 100), (29, 100), (30, 200), (50, 200)]
)
def test_varsava_bands(points: int, pays: int) -> None:
    assert varsava_payment(points, False) == pays
    assert varsava_payment(points, True) == 2 * pays


def varsava_hand(worth: list[int], winners: list[int]) -> TarokyState:
    """A finished varsava: the first three piles are worth `worth`, the fourth holds the rest."""
    piles: list[tuple[Card, ...]] = []
    used: list[Card] = []
    for points in worth:
        pile = pile_worth(points, 12, exclude=used) if points else []
        piles.append(tuple(pile))
        used += pile
    piles.append(tuple(c for c in DECK.cards if c not in used))
    tricks = tuple(Trick(((w, DECK.cards[-1]),), w) for w in winners)
    base = finished(d.BASIC, [])
    return replace(base, contract=d.VARSAVA, piles=tuple(piles), tricks=tricks, partner=None)


def test_varsava_payments_into_the_zid() -> None:
    state = varsava_hand([5, 15, 30], [0, 1, 2, 3] * 3)
    res = result(state)
    fourth = in_threes(state.piles[3], DECK.points)
    assert res.side_points[:3] == (5, 15, 30) and 69 <= sum(res.side_points) <= 71
    assert res.scores == (0, -100, -200, -varsava_payment(fourth, False))
    assert res.pot == -sum(res.scores) and res.lines[0].seats == (1,)


def test_varsava_doubled_when_a_player_is_empty() -> None:
    state = varsava_hand([14, 29, 0], [0, 1, 3] * 4)
    res = result(state)
    fourth = in_threes(state.piles[3], DECK.points)
    assert res.scores == (0, -200, 0, -varsava_payment(fourth, True))
    assert res.pot == -sum(res.scores)


# --- the zid over several hands -----------------------------------------------------------------


def test_zid_over_several_hands() -> None:
    match = table()
    varsava = result(varsava_hand([5, 15, 30], [0, 1, 2, 3] * 3))
    match = TAROKY.settle(match, varsava)
    assert match.pot == varsava.pot > 0 and match.dealer == 1
    pot = match.pot
    assert match.rules is not None
    match = TAROKY.settle(match, result(TAROKY.misdeal(TAROKY.deal(match.rules, DECK.cards, 1))))
    assert (
        match.pot == pot + 100 and match.dealer == 1 and match.totals[1] == varsava.totals[1] - 100
    )
    pot = match.pot
    lost = result(second(44, PAGAT_LOSES))  # declarer 0 and partner 2: 20 each for the game
    before = match.totals
    match = TAROKY.settle(match, lost)
    assert match.pot == 2 * pot
    assert match.totals[0] - before[0] == 20 - (pot - pot // 2)
    assert match.totals[2] - before[2] == 20 - pot // 2
    pot = match.pot
    won = result(second(44, PAGAT_WINS))
    before = match.totals
    match = TAROKY.settle(match, won)
    assert match.pot == 0
    assert match.totals[0] - before[0] == 70 + pot - pot // 2
    assert match.totals[2] - before[2] == 70 + pot // 2
    assert sum(match.totals) + match.pot == 0


def test_zid_result_lines_and_balance() -> None:
    match = table(pot=300)
    won = TAROKY.zid_result(match, result(second(44, PAGAT_WINS)))
    assert won.pot == -300 and sum(won.totals) + won.pot == 0
    assert [(li.item, li.points, li.seats) for li in won.lines[-2:]] == [
        ("zid taken", 150, (0,)),
        ("zid taken", 150, (2,)),
    ]
    assert TAROKY.invariants(finished(d.SECOND, []), won)[:1] == []


def test_zid_lost_paid_by_the_declarer_alone_by_option() -> None:
    match = table(pot=200, zid_lost_payer="declarer")
    after = TAROKY.settle(match, result(second(44, PAGAT_LOSES)))
    assert after.pot == 400 and after.totals == (20 - 200, -20, 20, -20)


def test_zid_untouched_by_other_games() -> None:
    match = table(pot=500)
    after = TAROKY.settle(match, result(finished(d.THIRD, pile_worth(44, 27))))
    assert after.pot == 500 and after.totals == (60, -20, -20, -20)


def test_odd_unit_to_the_declarer() -> None:
    assert shares(101, (2, 0), False) == [(2, 51), (0, 50)]
    assert shares(101, (2, 0), True) == [(2, 101)]
    assert shares(100, (3,), False) == [(3, 100)]


def test_unbalanced_result_is_reported() -> None:
    res = result(finished(d.BASIC, pile_worth(44, 27), partner=2))
    bad = replace(res, pot=10)
    assert TAROKY.invariants(replace(finished(d.BASIC, []), phase=SCORED), bad)
