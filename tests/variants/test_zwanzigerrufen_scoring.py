"""Golden scoring: every item silent / announced / won / lost, kontra levels,
valat cancelling, 44:44, colour-solo exceptions, and the 2 v 2 and 1 v 3 payments."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tarok_service.variants.zwanzigerrufen.scoring import Outcome, lines, outcome, units

from .test_zwanzigerrufen_play import play_out
from .zwanzigerrufen_helpers import DECK, rules

CALL, SOLO, COLOUR = "call", "solo", "colour_solo"
MID = 50  # card points of the playing side: game won, no absolut either way


def score(
    game: str = CALL, points: int = MID, opts: dict[str, Any] | None = None, **kw: Any
) -> dict[str, int]:
    """Units per item label, signed for the playing side."""
    return dict(units(Outcome(game, points, **kw), rules(**(opts or {}))))


def net(game: str = CALL, points: int = MID, **kw: Any) -> int:
    return sum(score(game, points, **kw).values())


# --- the game -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "points", "expected"),
    [
        (CALL, 45, 1),
        (CALL, 44, -1),  # 44:44 loses
        (CALL, 0, -1),
        (SOLO, 45, 4),
        (SOLO, 44, -4),
        (COLOUR, 45, 4),
        (COLOUR, 44, -4),
    ],
)
def test_game_value_and_the_45_threshold(game: str, points: int, expected: int) -> None:
    items = score(game, points)
    assert items[f"game ({'won' if expected > 0 else 'lost'})"] == expected


@pytest.mark.parametrize(
    ("level", "label", "factor"),
    [(1, "kontra", 2), (2, "rekontra", 4), (3, "subkontra", 8)],
)
def test_kontra_levels_double_the_game(level: int, label: str, factor: int) -> None:
    assert score(CALL, 45, levels={"game": level}) == {f"game (won, {label})": factor}
    assert score(SOLO, 44, levels={"game": level}) == {f"game (lost, {label})": -4 * factor}


def test_kontra_does_not_lower_the_target() -> None:
    assert score(CALL, 44, levels={"game": 1}) == {"game (lost, kontra)": -2}


def test_kontra_on_the_game_doubles_only_the_game() -> None:
    items = score(CALL, 60, levels={"game": 1}, announced=frozenset({"absolut"}))
    assert items == {"game (won, kontra)": 2, "absolut (announced, made)": 2}


# --- absolut --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "points", "announced", "levels", "expected"),
    [
        (CALL, 56, (), {}, {"absolut (silent)": 1}),
        (CALL, 55, (), {}, {}),
        (CALL, 32, (), {}, {"absolut against (silent)": -1}),  # opponents 56
        (CALL, 56, ("absolut",), {}, {"absolut (announced, made)": 2}),
        (CALL, 55, ("absolut",), {}, {"absolut (announced, lost)": -2}),
        (CALL, 55, ("absolut",), {"absolut": 1}, {"absolut (announced, lost, kontra)": -4}),
        (CALL, 60, ("absolut",), {"absolut": 2}, {"absolut (announced, made, rekontra)": 8}),
        (CALL, 32, ("absolut_against",), {}, {"absolut against (announced, made)": -2}),
        (CALL, 33, ("absolut_against",), {}, {"absolut against (announced, lost)": 2}),
        (
            CALL,
            40,
            ("absolut_against",),
            {"absolut_against": 3},
            {"absolut against (announced, lost, subkontra)": 16},
        ),
        (SOLO, 56, (), {}, {"absolut (silent)": 2}),
        (SOLO, 56, ("absolut",), {}, {"absolut (announced, made)": 4}),
        (COLOUR, 56, (), {}, {"absolut (silent)": 2}),
        (COLOUR, 50, ("absolut",), {}, {"absolut (announced, lost)": -4}),
    ],
)
def test_absolut(
    game: str,
    points: int,
    announced: tuple[str, ...],
    levels: dict[str, int],
    expected: dict[str, int],
) -> None:
    items = score(game, points, announced=frozenset(announced), levels=levels)
    assert {k: v for k, v in items.items() if "absolut" in k} == expected


def test_absolut_is_judged_per_side() -> None:
    """The opponents' announced absolut fails; the playing side's 56 scores silently."""
    items = score(CALL, 60, announced=frozenset({"absolut_against"}))
    assert items["absolut against (announced, lost)"] == 2
    assert items["absolut (silent)"] == 1


# --- pagat ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "pagat", "won", "announced", "levels", "expected"),
    [
        (CALL, 1, True, (), {}, {"pagat (silent, won)": 1}),
        (CALL, 1, False, (), {}, {"pagat (silent, lost)": -1}),
        (CALL, -1, True, (), {}, {"pagat against (silent, won)": -1}),
        (CALL, -1, False, (), {}, {"pagat against (silent, lost)": 1}),
        (CALL, 0, False, (), {}, {}),  # pagat not in the last trick
        (CALL, 1, True, ("pagat",), {}, {"pagat (announced, made)": 2}),
        (CALL, 1, False, ("pagat",), {}, {"pagat (announced, lost)": -2}),
        (CALL, 0, False, ("pagat",), {}, {"pagat (announced, lost)": -2}),  # played early
        (CALL, 1, True, ("pagat",), {"pagat": 1}, {"pagat (announced, made, kontra)": 4}),
        (
            CALL,
            -1,
            True,
            ("pagat_against",),
            {"pagat_against": 2},
            {"pagat against (announced, made, rekontra)": -8},
        ),
        (SOLO, 1, True, (), {}, {"pagat (silent, won)": 2}),
        (SOLO, -1, False, (), {}, {"pagat against (silent, lost)": 2}),
        (SOLO, 1, True, ("pagat",), {}, {"pagat (announced, made)": 4}),
        (SOLO, 1, False, ("pagat",), {}, {"pagat (announced, lost)": -4}),
        (COLOUR, 1, True, (), {}, {}),  # no pagat in colour solo
        (COLOUR, -1, False, (), {}, {}),
    ],
)
def test_pagat(
    game: str,
    pagat: int,
    won: bool,
    announced: tuple[str, ...],
    levels: dict[str, int],
    expected: dict[str, int],
) -> None:
    items = score(game, pagat=pagat, pagat_won=won, announced=frozenset(announced), levels=levels)
    assert {k: v for k, v in items.items() if "pagat" in k} == expected


# --- valat ----------------------------------------------------------------------------

EVERYTHING: dict[str, Any] = {
    "pagat": 1,
    "pagat_won": True,
    "trull": 1,
    "king_trull": 1,
    "mondfang": -1,
}


@pytest.mark.parametrize(
    ("game", "valat", "announced", "levels", "expected"),
    [
        (CALL, 1, (), {}, {"valat (silent)": 6}),
        (CALL, -1, (), {}, {"valat (silent)": -6}),
        (CALL, 1, (), {"game": 2}, {"valat (silent)": 6}),  # not doubled by the game's kontra
        (CALL, 1, ("valat",), {}, {"valat (announced, made)": 12}),
        (CALL, 0, ("valat",), {}, {"valat (announced, lost)": -12}),
        (CALL, -1, ("valat",), {}, {"valat (announced, lost)": -12}),  # scored alone
        (CALL, 1, ("valat",), {"valat": 1}, {"valat (announced, made, kontra)": 24}),
        (
            CALL,
            -1,
            ("valat_against",),
            {"valat_against": 2},
            {"valat against (announced, made, rekontra)": -48},
        ),
        (
            CALL,
            0,
            ("valat_against",),
            {"valat_against": 1},
            {"valat against (announced, lost, kontra)": 24},
        ),
        (SOLO, 1, (), {}, {"valat (silent)": 12}),
        (SOLO, 1, ("valat",), {}, {"valat (announced, made)": 24}),
        (SOLO, 0, ("valat",), {"valat": 3}, {"valat (announced, lost, subkontra)": -192}),
        (COLOUR, 1, (), {}, {"valat (silent)": 12}),
        (COLOUR, -1, ("valat_against",), {}, {"valat against (announced, made)": -24}),
    ],
)
def test_valat_cancels_everything_else(
    game: str,
    valat: int,
    announced: tuple[str, ...],
    levels: dict[str, int],
    expected: dict[str, int],
) -> None:
    points = 88 if valat > 0 else 0 if valat < 0 else MID
    items = score(
        game, points, valat=valat, announced=frozenset(announced), levels=levels, **EVERYTHING
    )
    assert items == expected


def test_silent_valat_game_kontra_option() -> None:
    items = score(CALL, 88, opts={"silent_valat_game_kontra": True}, valat=1, levels={"game": 1})
    assert items == {"valat (silent)": 12}


# --- trull, king trull, mondfang ------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "field", "side", "expected"),
    [
        (CALL, "trull", 1, {"trull": 1}),
        (CALL, "trull", -1, {"trull": -1}),
        (SOLO, "trull", 1, {"trull": 2}),
        (SOLO, "trull", -1, {"trull": -2}),
        (COLOUR, "trull", 1, {}),
        (CALL, "king_trull", 1, {"king trull": 1}),
        (SOLO, "king_trull", -1, {"king trull": -2}),
        (COLOUR, "king_trull", 1, {"king trull": 2}),
        (COLOUR, "king_trull", -1, {"king trull": -2}),
        (CALL, "mondfang", -1, {"mondfang": 1}),  # the opponents' mond was caught
        (CALL, "mondfang", 1, {"mondfang": -1}),  # the playing side pays, even to a partner
        (SOLO, "mondfang", 1, {"mondfang": -2}),
        (SOLO, "mondfang", -1, {"mondfang": 2}),
        (COLOUR, "mondfang", 1, {}),
    ],
)
def test_unannounced_bonuses(game: str, field: str, side: int, expected: dict[str, int]) -> None:
    bonus: dict[str, Any] = {field: side}
    items = score(game, **bonus)
    assert {k: v for k, v in items.items() if not k.startswith("game")} == expected


def test_colour_solo_scores_no_tarok_bonuses() -> None:
    items = score(COLOUR, 60, pagat=1, pagat_won=True, trull=1, mondfang=-1, king_trull=1)
    assert items == {"game (won)": 4, "absolut (silent)": 2, "king trull": 2}


def test_everything_at_once_in_a_call_game() -> None:
    items = score(
        CALL,
        58,
        announced=frozenset({"pagat", "absolut"}),
        levels={"game": 1, "pagat": 2},
        **EVERYTHING,
    )
    assert items == {
        "game (won, kontra)": 2,
        "absolut (announced, made)": 2,
        "pagat (announced, made, rekontra)": 8,
        "trull": 1,
        "king trull": 1,
        "mondfang": 1,
    }
    assert (
        net(
            CALL,
            58,
            announced=frozenset({"pagat", "absolut"}),
            levels={"game": 1, "pagat": 2},
            **EVERYTHING,
        )
        == 15
    )


# --- payments -------------------------------------------------------------------------


def test_call_pays_each_player_the_net_value() -> None:
    o = Outcome(CALL, 50, trull=1)
    result = lines(o, (0, 2), 4, rules())
    per_seat = [sum(line.points for line in result if s in line.seats) for s in range(4)]
    assert per_seat == [2, -2, 2, -2]


def test_solo_is_paid_by_each_opponent() -> None:
    o = Outcome(SOLO, 44)
    result = lines(o, (1,), 4, rules())
    per_seat = [sum(line.points for line in result if s in line.seats) for s in range(4)]
    assert per_seat == [4, -12, 4, 4]
    assert sum(per_seat) == 0


def test_honours_from_tricks_option() -> None:
    s = play_out("bid:call pass pass pass")
    assert outcome(s, DECK).trull == 0  # nobody held the trull
    tricks = replace(s, rules=rules(call_honours_from="tricks"))
    assert outcome(tricks, DECK).trull == 1  # seats 0 + 1 won I, XXI and the skis
    assert outcome(tricks, DECK).king_trull == 0
