"""A Zwanzigerrufen auction turn may carry a higher game and additions (and kontras): the
player makes his statements one by one and ends the turn with `end`; the three passes that
end the auction are three turns in a row that were passes."""

from __future__ import annotations

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import TRICKS
from tarok_service.variants.zwanzigerrufen import data as d
from tarok_service.variants.zwanzigerrufen.state import ZwanzigerState

from .zwanzigerrufen_helpers import HANDS, VARIANT, dealt, reason

# Forehand (seat 0) holds skis, XIX-XVII, XII and the pagat; XX is with seat 1.
STRONG_0 = (
    "T22 T19 T18 T17 T12 T1 HK HQ CK CQ",
    "T20 T16 T15 T11 T5 DK DQ DC SK SQ",
    "T21 T14 T13 T10 T6 HC HJ H1 SC SJ",
    "T4 T9 T8 T7 CC CJ C10 DJ D1 S10",
)


def step(state: ZwanzigerState, *move_ids: str) -> ZwanzigerState:
    """Apply single moves by id (no implicit end of turn)."""
    for move_id in move_ids:
        nxt = VARIANT.apply(state, Move.parse(move_id))
        assert isinstance(nxt, ZwanzigerState)
        state = nxt
    return state


def legal_ids(state: ZwanzigerState) -> set[str]:
    return {mv.id for mv in VARIANT.legal_moves(state)}


def test_soloist_announces_his_own_absolut_and_pagat_in_the_turn_of_his_game() -> None:
    """Seat 0: solo, absolut, pagat, end; the three others pass; the additions stand."""
    s = step(dealt(STRONG_0), "bid:solo")
    assert s.turn == 0 and s.game == d.SOLO
    legal = legal_ids(s)
    assert {"end", "announce:absolut", "announce:pagat", "announce:valat"} <= legal
    assert "pass" not in legal and not any(mid.startswith("bid:") for mid in legal)
    s = step(s, "announce:absolut", "announce:pagat")
    assert s.turn == 0
    s = step(s, "end")
    assert s.turn == 1 and s.phase != TRICKS
    s = step(s, "pass", "pass", "pass")
    assert s.phase == TRICKS and s.turn == 0
    assert s.announced == ((d.ABSOLUT, 0), (d.PAGAT_ITEM, 0))
    assert [(f.seat, f.kind, f.value) for f in s.facts] == [
        (0, "bid", d.SOLO),
        (0, "announce", d.ABSOLUT),
        (0, "announce", d.PAGAT_ITEM),
    ]


def test_the_caller_adds_at_his_first_turn() -> None:
    s = step(dealt(STRONG_0), "bid:call", "announce:pagat", "end", "pass", "pass", "pass")
    assert s.phase == TRICKS and s.game == d.CALL and s.partner == 1
    assert s.announced == ((d.PAGAT_ITEM, 0),)


def test_three_passes_count_turns_not_statements() -> None:
    """Seat 0 calls (XX: seat 1); seats 1 and 2 pass; seat 3 kontras the game and, now that
    it is kontra'd, announces absolut against it in the same turn. The passes start again:
    the auction ends only after seats 0, 1 and 2 pass."""
    s = step(dealt(HANDS), "bid:call", "end", "pass", "pass")
    assert s.passes == 2 and s.turn == 3
    s = step(s, "kontra:game", "announce:absolut", "end")
    assert s.passes == 0 and s.turn == 0
    s = step(s, "pass", "pass")
    assert s.phase != TRICKS and s.turn == 2
    s = step(s, "pass")
    assert s.phase == TRICKS
    assert s.level(d.GAME) == 1 and s.announced == ((d.item_id(d.ABSOLUT, False), 3),)


@pytest.mark.parametrize(
    ("moves", "move_id", "why"),
    [
        (
            "bid:solo",
            "pass",
            m.Reason.TURN_ALREADY_STARTED,
        ),  # a turn with statements is ended by `end`
        ("bid:call", "bid:solo", m.Reason.TURN_ALREADY_STARTED),  # one game per turn
        ("bid:call announce:pagat", "bid:solo", m.Reason.TURN_ALREADY_STARTED),
        ("", "end", m.Reason.NOTHING_SAID_THIS_TURN),  # nothing said: pass instead
        ("bid:call end", "end", m.Reason.NOTHING_SAID_THIS_TURN),
    ],
)
def test_turn_reasons(moves: str, move_id: str, why: str) -> None:
    s = step(dealt(STRONG_0), *moves.split())
    assert reason(s, move_id) == why
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move.parse(move_id))
    assert err.value.reason == why


def test_trull_holder_must_kontra_before_ending_his_turn() -> None:
    trull_2 = (
        "T19 T18 T17 T12 T4 T9 HK HQ CK CQ",
        "T20 T16 T15 T11 T5 DK DQ DC SK SQ",
        "T22 T21 T1 T14 T13 HC HJ H1 SC SJ",
        "T10 T8 T7 T6 CC CJ C10 DJ D1 S10",
    )
    s = step(dealt(trull_2), "bid:call", "end", "pass")
    assert s.turn == 2
    assert "kontra:game" in legal_ids(s)
    assert not legal_ids(s) & {"pass", "end", "announce:pagat", "announce:valat"}
    s = step(s, "kontra:game")
    assert "end" in legal_ids(s) and "announce:absolut" in legal_ids(s)


def test_end_label() -> None:
    s = step(dealt(STRONG_0), "bid:solo")
    assert VARIANT.label(s, Move("end")) == "End the turn"
    assert VARIANT.legal_moves(s)[0].id == "end"  # the first legal move: the default one
