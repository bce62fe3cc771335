"""Golden scoring tests for Slovenian tarok: the scoring formula, radelci and worked examples."""

from __future__ import annotations

import pytest

from tarok_service.engine.cards import Card
from tarok_service.engine.options import OptionValue
from tarok_service.variants.slovenian import data as d
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState

from .slovenian_helpers import DECK, cards, finished, match, pile_worth, result_of

TRULA = cards("T1 T21 T22")
KINGS = cards("HK DK CK SK")
HEART_KING = DECK.card("HK")


def scores(state: SlovenianState) -> tuple[int, ...]:
    result = result_of(state)
    assert result is not None
    return result.totals


def points_pile(points: int) -> list[Card]:
    """A 26-card pile of exactly `points`, holding neither the whole trula nor all kings."""
    avoid = (Card("T", 22), Card("H", 8))
    pile = pile_worth(points, 26, exclude=avoid)
    return pile


@pytest.mark.parametrize(
    ("points", "expected"),
    [(44, 30), (36, 20), (35, -20), (70 - 44, -30)],
)
def test_two_difference_rounded(points: int, expected: int) -> None:
    """the rules: Two won with 44 card points: d = 9 -> 10; 20 + 10 = 30 to both partners."""
    state = finished("two", points_pile(points))
    assert scores(state) == (expected, 0, expected, 0)


@pytest.mark.parametrize(
    ("points", "expected"), [(36, 10), (38, 15), (35, -10), (33, -10), (32, -15)]
)
def test_three_rounding_examples(points: int, expected: int) -> None:
    """the rules: rounding of the difference in Three."""
    assert scores(finished("three", points_pile(points)))[0] == expected


def test_unrounded_difference_option() -> None:
    state = finished("three", points_pile(38), options={"round_difference": False})
    assert scores(state)[0] == 13


@pytest.mark.parametrize(
    ("contract", "value"),
    [
        ("three", 10),
        ("two", 20),
        ("one", 30),
        ("solo_three", 40),
        ("solo_two", 50),
        ("solo_one", 60),
    ],
)
def test_every_normal_contract_value(contract: str, value: int) -> None:
    won = finished(contract, points_pile(41), partner=None)
    lost = finished(contract, points_pile(29), partner=None)
    assert scores(won)[0] == value + 5
    assert scores(lost)[0] == -value - 5


def test_silent_trula_and_kings_for_and_against() -> None:
    pile = pile_worth(40 - 13 - 13 + 0, 20, exclude=TRULA + KINGS)
    # team holds trula and kings in its tricks: two silent bonuses of 10
    full = list(TRULA) + list(KINGS[:3]) + [KINGS[3]] + pile
    state = finished("three", full)
    result = result_of(state)
    assert result is not None
    items = {line.item: line.points for line in result.lines}
    assert items["trula (silent)"] == 10
    assert items["kings (silent)"] == 10
    # opponents collect both: -10 each
    against = finished("three", pile_worth(30, 26, exclude=TRULA + KINGS))
    items = {line.item: line.points for line in result_of(against).lines}
    assert items["trula (silent)"] == -10
    assert items["kings (silent)"] == -10


def test_split_trula_scores_nothing() -> None:
    pile = [*pile_worth(30, 25, exclude=TRULA + KINGS), TRULA[0]]
    result = result_of(finished("three", pile))
    assert result is not None
    assert not [line for line in result.lines if "trula" in line.item]


@pytest.mark.parametrize(
    ("made", "level", "expected"),
    [
        (True, 0, 20),
        (False, 0, -20),
        (True, 1, 40),
        (False, 2, -80),
        (True, 3, 160),
    ],
)
def test_announced_trula_with_kontra(made: bool, level: int, expected: int) -> None:
    base = pile_worth(32, 23, exclude=TRULA + KINGS)
    pile = [*base, *TRULA] if made else [*base, *cards("T2 T3 T4")]
    state = finished(
        "three",
        pile,
        announced=((d.TRULA, 0),),
        levels=((d.TRULA, level),) if level else (),
    )
    result = result_of(state)
    assert result is not None
    items = {line.item: line.points for line in result.lines}
    assert items["trula (announced)"] == expected


def test_opponents_announced_kings() -> None:
    pile = pile_worth(40, 26, exclude=KINGS)
    state = finished("two", pile, announced=((d.KINGS, 1),))
    items = {line.item: line.points for line in result_of(state).lines}
    assert items["kings (announced)"] == -20  # opponents made their announced kings


@pytest.mark.parametrize(("level", "factor"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16)])
def test_game_kontra_levels_multiply_contract_and_difference(level: int, factor: int) -> None:
    state = finished("two", points_pile(44), levels=((d.GAME, level),) if level else ())
    assert scores(state)[0] == 30 * factor


def last_trick_state(
    last: list[tuple[int, str]],
    winner: int,
    *,
    called: Card = HEART_KING,
    announced: tuple[tuple[str, int], ...] = (),
    levels: tuple[tuple[str, int], ...] = (),
) -> SlovenianState:
    last_cards = cards(" ".join(c for _, c in last))
    team_side = winner in (0, 2)
    filler = pile_worth(30, 22 if team_side else 26, exclude=last_cards + TRULA + KINGS)
    team = filler + list(last_cards) if team_side else filler
    return finished(
        "three",
        team,
        last=last,
        last_winner=winner,
        called=(called,),
        announced=announced,
        levels=levels,
    )


def test_silent_king_ultimo_won_and_lost() -> None:
    won = last_trick_state([(0, "HK"), (1, "H1"), (2, "H2"), (3, "H3")], 0, called=DECK.card("HK"))
    items = {line.item: line.points for line in result_of(won).lines}
    assert items["king ultimo (silent)"] == 10
    lost = last_trick_state([(0, "HK"), (1, "T5"), (2, "H2"), (3, "H3")], 1, called=DECK.card("HK"))
    items = {line.item: line.points for line in result_of(lost).lines}
    assert items["king ultimo (silent)"] == -10


def test_announced_king_ultimo_fails_when_king_not_in_last_trick() -> None:
    state = last_trick_state(
        [(0, "T5"), (1, "T6"), (2, "T7"), (3, "T4")],
        2,
        called=DECK.card("HK"),
        announced=((d.KING_ULTIMO, 2),),
    )
    items = {line.item: line.points for line in result_of(state).lines}
    assert items["king ultimo (announced)"] == -20


@pytest.mark.parametrize(
    ("last", "winner", "item", "value"),
    [
        ([(0, "T1"), (1, "H1"), (2, "H2"), (3, "H3")], 0, "pagat ultimo (silent)", 25),
        ([(0, "T1"), (1, "T5"), (2, "H2"), (3, "H3")], 1, "pagat ultimo (silent)", -25),
        ([(1, "T1"), (2, "H1"), (3, "H2"), (0, "H3")], 1, "pagat ultimo (silent)", -25),
        ([(1, "T1"), (2, "T6"), (3, "H2"), (0, "H3")], 2, "pagat ultimo (silent)", 25),
    ],
)
def test_silent_pagat_ultimo_either_side(
    last: list[tuple[int, str]], winner: int, item: str, value: int
) -> None:
    items = {line.item: line.points for line in result_of(last_trick_state(last, winner)).lines}
    assert items[item] == value


def test_announced_pagat_ultimo_with_kontra() -> None:
    last = [(0, "T1"), (1, "H1"), (2, "H2"), (3, "H3")]
    state = last_trick_state(
        last, 0, announced=((d.PAGAT_ULTIMO, 0),), levels=((d.PAGAT_ULTIMO, 1),)
    )
    items = {line.item: line.points for line in result_of(state).lines}
    assert items["pagat ultimo (announced)"] == 100
    failed = last_trick_state(
        [(0, "T1"), (1, "T5"), (2, "H2"), (3, "H3")], 1, announced=((d.PAGAT_ULTIMO, 0),)
    )
    items = {line.item: line.points for line in result_of(failed).lines}
    assert items["pagat ultimo (announced)"] == -50


def test_silent_valat_replaces_everything_and_takes_game_kontra() -> None:
    state = finished("two", list(DECK.cards), levels=((d.GAME, 1),))
    result = result_of(state)
    assert result is not None
    assert [line.item for line in result.lines] == ["valat (silent)"]
    assert result.totals == (500, 0, 500, 0)
    against = finished("two", [])
    assert scores(against) == (-250, 0, -250, 0)


def test_announced_valat_made_failed_and_add_mode() -> None:
    made = finished(
        "three",
        list(DECK.cards),
        announced=((d.VALAT_BONUS, 0),),
        levels=((d.VALAT_BONUS, 1), (d.GAME, 2)),
    )
    assert scores(made)[0] == 1000  # its own kontra level, not the game's
    failed = finished("three", points_pile(44), announced=((d.VALAT_BONUS, 0),))
    assert scores(failed)[0] == -500
    added = finished(
        "three",
        points_pile(44),
        announced=((d.VALAT_BONUS, 0),),
        options={"failed_announced_valat_mode": "add"},
    )
    assert scores(added)[0] == 10 + 10 - 500


@pytest.mark.parametrize(("contract", "value"), [("beggar", 70), ("open_beggar", 90)])
def test_beggars(contract: str, value: int) -> None:
    won = finished(contract, [], partner=None)
    lost = finished(contract, list(cards("HK DK CK SK")), partner=None)
    assert scores(won)[0] == value
    assert scores(lost)[0] == -value


def test_solo_without_fixed_and_colour_valat() -> None:
    assert scores(finished("solo_without", points_pile(36), partner=None))[0] == 80
    assert scores(finished("solo_without", points_pile(35), partner=None))[0] == -80
    assert scores(finished("colour_valat", list(DECK.cards), partner=None))[0] == 125
    assert (
        scores(finished("valat", list(DECK.cards), partner=None, levels=((d.GAME, 1),)))[0] == 1000
    )
    lost = finished("colour_valat", points_pile(50), partner=None)
    assert scores(lost)[0] == -125


def test_mondfang_individual_and_option_and_talon() -> None:
    state = finished("three", points_pile(44), mondfangs=(1,))
    assert scores(state) == (20, -21, 20, 0)
    assert result_of(state).penalties == (0, -21, 0, 0)
    state = finished("three", points_pile(44), mondfangs=(2,), options={"mondfang_penalty": 20})
    assert scores(state) == (20, 0, 0, 0)
    left = finished("three", points_pile(44), talon=cards("T21"), group=0)  # mond left lying
    assert scores(left) == (-1, 0, 20, 0)


def klop_state(own: list[int], **options: OptionValue) -> SlovenianState:
    """Klop piles with the given per-player points; a 0 means that player took no trick."""
    from dataclasses import replace

    from tarok_service.engine.state import Trick

    takers = [seat for seat, p in enumerate(own) if p]
    sizes = {4: [13, 14, 13, 14], 3: [18, 18, 18]}[len(takers)]
    used: list[Card] = []
    piles: list[tuple[Card, ...]] = [() for _ in own]
    for seat, size in zip(takers[:-1], sizes, strict=False):
        piles[seat] = tuple(pile_worth(own[seat], size, exclude=used))
        used += piles[seat]
    piles[takers[-1]] = tuple(c for c in DECK.cards if c not in set(used))
    tricks = [
        Trick(tuple((j, c) for j, c in enumerate(piles[seat][i : i + 4])), seat)
        for seat in takers
        for i in range(0, len(piles[seat]), 4)
    ]
    state = finished("klop", [], partner=None, options=options)
    return replace(state, piles=tuple(piles), tricks=tuple(tricks), declarer=None)


def test_klop_worked_example() -> None:
    """the rules: 24 / 12 / 20 / 14 -> -25 / -10 / -20 / -15 (rounded default)."""
    state = klop_state([24, 12, 20, 14])
    result = result_of(state)
    assert result is not None
    assert result.side_points == (24, 12, 20, 14)
    assert result.totals == (-25, -10, -20, -15)
    unrounded = klop_state([24, 12, 20, 14], klop_round5=False)
    assert result_of(unrounded).totals == (-24, -12, -20, -14)


def test_klop_full_and_empty() -> None:
    full = klop_state([38, 12, 10, 10])
    assert result_of(full).totals == (-70, 0, 0, 0)
    empty = klop_state([0, 30, 20, 20])
    assert result_of(empty).totals == (70, 0, 0, 0)
    both = klop_state([0, 38, 16, 16])
    assert result_of(both).totals == (70, -70, 0, 0)
    only_full = klop_state([0, 38, 16, 16], klop_empty_with_full=False)
    assert result_of(only_full).totals == (0, -70, 0, 0)


def test_radelci_awarded_doubled_crossed_and_charged() -> None:
    m = match()
    beggar_won = result_of(finished("beggar", [], partner=None))
    assert beggar_won is not None and beggar_won.radelci
    m = SLOVENIAN.settle(m, beggar_won)
    assert m.radelci == (1, 1, 1, 1) and m.totals == (70, 0, 0, 0)
    two = result_of(finished("two", points_pile(44), declarer=1, partner=3))
    assert two is not None and not two.radelci
    m = SLOVENIAN.settle(m, two)  # declarer 1 has a radelc: doubled, crossed out (won)
    assert m.totals == (70, 60, 0, 60) and m.radelci == (1, 0, 1, 1)
    lost = result_of(finished("two", points_pile(30), declarer=0, partner=2))
    m = SLOVENIAN.settle(m, lost)  # lost (-20 - 5): doubled, not crossed out
    assert m.totals == (70 - 50, 60, -50, 60) and m.radelci == (1, 0, 1, 1)
    closed = SLOVENIAN.close(m)
    assert closed.totals == (20 - 40, 60, -50 - 40, 60 - 40)


def test_radelc_doubling_leaves_mondfang_alone() -> None:
    m = match()
    m = SLOVENIAN.settle(m, result_of(finished("beggar", [], partner=None)))
    result = result_of(finished("three", points_pile(44), mondfangs=(0,)))
    assert result is not None
    m2 = SLOVENIAN.settle(m, result)
    assert m2.totals[0] - m.totals[0] == 2 * 20 - 21


def test_klop_and_radelc_mode_own_and_end_penalty_option() -> None:
    m = match(radelc_end_penalty=100)
    m = SLOVENIAN.settle(m, result_of(klop_state([24, 12, 20, 14])))
    assert m.radelci == (1, 1, 1, 1)
    m = SLOVENIAN.settle(m, result_of(klop_state([24, 12, 20, 14])))
    assert m.totals == (-50, -20, -40, -30)  # klop is never doubled
    assert SLOVENIAN.close(m).totals == (-250, -220, -240, -230)


def test_opponents_failed_announced_valat_scores_for_the_declarer_but_is_no_win() -> None:
    """The failed valat pays the declarer, yet with 30 card points he lost his contract."""
    state = finished(
        "three", points_pile(30), announced=((d.VALAT_BONUS, 1),), levels=((d.VALAT_BONUS, 2),)
    )
    result = result_of(state)
    assert result is not None
    assert result.totals[0] == 2000 and result.won is False
