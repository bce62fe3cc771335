"""Trick play and whole hands played out with the cards written out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import SCORED
from tarok_service.variants.zwanzigerrufen.state import ZwanzigerState

from .zwanzigerrufen_helpers import (
    HANDS,
    VARIANT,
    cards,
    dealt,
    legal_codes,
    play_cards,
    say,
    with_hands,
)

CALL = "bid:call pass pass pass"

# The tricks of a call game on HANDS (seats 0 + 1 against 2 + 3), leader first. Trick 1: the
# skis catches the mond; trick 8: seat 3 must give up the pagat; the opponents win trick 3 only.
TRICKS = (
    "T22 T5 T21 T7",
    "HK T11 HC T8",
    "DK T6 D1 T4",
    "SC S10 T12 SK",
    "CK T15 T10 CC",
    "DQ T13 DJ T17",
    "HQ T16 HJ T9",
    "DC T14 T1 T18",
    "CQ T20 SJ CJ",
    "SQ H1 C10 T19",
)
WINNERS = (0, 1, 2, 0, 1, 0, 1, 0, 1, 0)


def tricks_phase(auction: str = CALL, **options: OptionValue) -> ZwanzigerState:
    return say(dealt(HANDS, 3, **options), auction)


# --- following ---------------------------------------------------------------------------


def test_follow_suit_else_tarok_without_overtaking() -> None:
    s = play_cards(tricks_phase(), ["HK"])
    assert legal_codes(s) == ["T5", "T11", "T15", "T16", "T20"]  # seat 1: void in hearts
    s = play_cards(s, ["T5"])
    assert legal_codes(s) == ["HC", "HJ", "H1"]  # seat 2 follows; any heart
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move("play", "T21"))
    assert err.value.reason == m.Reason.MUST_FOLLOW_SUIT


def test_tarok_led_must_be_answered_with_any_tarok() -> None:
    s = play_cards(tricks_phase(), ["T4"])
    assert legal_codes(s) == ["T5", "T11", "T15", "T16", "T20"]
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move("play", "DK"))
    assert err.value.reason == m.Reason.MUST_FOLLOW_SUIT


def test_void_in_suit_and_taroks_plays_anything() -> None:
    s = with_hands(tricks_phase(), ("HK", "DK SK", "HC", "T1"))
    s = play_cards(s, ["HK"])
    assert legal_codes(s) == ["DK", "SK"]


def test_void_must_play_a_tarok_reason() -> None:
    s = play_cards(tricks_phase(), ["HK"])
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move("play", "DK"))
    assert err.value.reason == m.Reason.MUST_PLAY_TAROK


# --- pagat and trull trick --------------------------------------------------------------


def test_announced_pagat_is_kept_for_the_last_trick() -> None:
    s = tricks_phase("bid:call pass pass announce:pagat pass pass pass")
    s = play_cards(s, ["T4", "T5", "T6"])
    assert legal_codes(s) == ["T7", "T8", "T9"]  # seat 3 keeps the pagat back
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move("play", "T1"))
    assert err.value.reason == m.Reason.ANNOUNCED_CARD_MUST_BE_HELD


def test_silent_pagat_may_be_played_any_time() -> None:
    s = play_cards(tricks_phase(), ["T4", "T5", "T6"])
    assert "T1" in legal_codes(s)


def test_announced_pagat_as_the_only_legal_card_must_be_played() -> None:
    s = tricks_phase("bid:call pass pass announce:pagat pass pass pass")
    s = with_hands(s, ("T4 HK", "T5 DK", "T6 HC", "T1 CC"))
    s = play_cards(s, ["T4", "T5", "T6"])
    assert legal_codes(s) == ["T1"]


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["T22", "T5", "T21", "T1"], 3),  # all three trull cards: the pagat wins
        (["T1", "T22", "T21", "T5"], 0),  # in any order
        (["T22", "T5", "T21", "T6"], 0),  # the skis wins otherwise
    ],
)
def test_trull_trick_is_won_by_the_pagat(plays: list[str], winner: int) -> None:
    hands = tuple(f"{code} HK" if i == 0 else f"{code} DK" for i, code in enumerate(plays))
    s = with_hands(tricks_phase(), hands)
    s = play_cards(s, plays)
    assert s.tricks[-1].winner == winner


# --- mondfang -------------------------------------------------------------------------


def test_skis_catching_the_mond_is_recorded() -> None:
    s = play_cards(tricks_phase(), ["T22", "T5", "T21", "T7"])
    assert s.mond_caught == 2


def test_trull_trick_is_no_mondfang_by_default() -> None:
    s = with_hands(tricks_phase(), ("T22 HK", "T5 DK", "T21 HC", "T1 CC"))
    assert play_cards(s, ["T22", "T5", "T21", "T1"]).mond_caught is None
    s = replace(s, rules=VARIANT.make_rules(4, {"trull_trick_mondfang": True}))
    assert play_cards(s, ["T22", "T5", "T21", "T1"]).mond_caught == 2


def test_mond_winning_is_no_mondfang() -> None:
    s = with_hands(tricks_phase(), ("T20 HK", "T5 DK", "T21 HC", "T1 CC"))
    assert play_cards(s, ["T20", "T5", "T21", "T1"]).mond_caught is None


# --- colour solo ----------------------------------------------------------------------

COLOUR_SOLO = "bid:call bid:colour_solo pass pass pass"  # seat 1 plays colour solo


def colour_solo(hands: tuple[str, str, str, str]) -> ZwanzigerState:
    s = tricks_phase(COLOUR_SOLO)
    assert s.game == "colour_solo" and s.declarer == 1 and s.turn == 0
    return with_hands(s, hands)


def test_colour_solo_no_tarok_lead_while_holding_suit_cards() -> None:
    s = colour_solo(("T22 T4 HK", "T5 DK SK", "T21 HC SC", "T1 CC S10"))
    assert legal_codes(s) == ["HK"]
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(s, Move("play", "T22"))
    assert err.value.reason == m.Reason.TAROK_LEAD_NOT_ALLOWED


def test_colour_solo_tarok_lead_when_only_taroks_are_left() -> None:
    s = colour_solo(("T22 T4", "T5 DK", "T21 HC", "T1 CC"))
    assert legal_codes(s) == ["T4", "T22"]


def test_colour_solo_taroks_do_not_beat_suit_cards() -> None:
    s = colour_solo(("HQ T4", "T5 DK", "T21 HC", "T1 CC"))
    s = play_cards(s, ["HQ"])
    assert legal_codes(s) == ["T5"]  # void in hearts: must still play a tarok
    s = play_cards(s, ["T5", "HC", "T1"])
    assert s.tricks[-1].winner == 0  # the queen of hearts keeps the trick


def test_colour_solo_tarok_lead_won_by_highest_tarok() -> None:
    s = colour_solo(("T4", "T5", "HC", "T9"))
    s = play_cards(s, ["T4", "T5", "HC", "T9"])
    assert s.tricks[-1].winner == 3


def test_colour_solo_has_no_trull_trick_and_no_mondfang() -> None:
    s = colour_solo(("T22", "T5", "T21", "T1"))
    s = play_cards(s, ["T22", "T5", "T21", "T1"])
    assert s.tricks[-1].winner == 0 and s.mond_caught is None


# --- whole hands ----------------------------------------------------------------------


def play_out(auction: str) -> ZwanzigerState:
    s = tricks_phase(auction)
    for codes in TRICKS:
        s = play_cards(s, codes.split())
    assert s.phase == SCORED
    return s


def test_call_game_played_out() -> None:
    s = play_out(CALL)
    assert tuple(tr.winner for tr in s.tricks) == WINNERS
    assert s.mond_caught == 2
    result = VARIANT.result(s)
    assert result is not None
    assert result.side_points == (81, 7)
    assert [(line.item, line.points, line.seats) for line in result.lines] == [
        ("game (won)", 1, (0, 1)),
        ("game (won)", -1, (2, 3)),
        ("absolut (silent)", 1, (0, 1)),
        ("absolut (silent)", -1, (2, 3)),
        ("mondfang", 1, (0, 1)),
        ("mondfang", -1, (2, 3)),
    ]
    assert result.scores == (3, 3, -3, -3) and result.won


def test_call_game_with_a_lost_announced_pagat_and_a_kontra() -> None:
    s = play_out("bid:call pass kontra:game announce:pagat pass pass pass")
    result = VARIANT.result(s)
    assert result is not None
    items = {line.item: line.points for line in result.lines if 0 in line.seats}
    assert items == {
        "game (won, kontra)": 2,
        "absolut (silent)": 1,
        "pagat against (announced, lost)": 2,
        "mondfang": 1,
    }
    assert result.scores == (6, 6, -6, -6)


def test_view_hides_other_hands_and_the_partner() -> None:
    s = tricks_phase()
    for seat in (0, 2, 3):
        assert VARIANT.view(s, seat).partners == ()
    assert VARIANT.view(s, 1).partners == (1,)
    assert VARIANT.view(s, 0).called == "T20"
    assert VARIANT.view(s, None).hand == ()
    s = play_cards(s, ["T4", "T20"])  # the partner plays the called XX
    assert VARIANT.view(s, 3).partners == (1,)


def test_partner_shown_by_his_announcement() -> None:
    s = say(dealt(), "bid:call announce:absolut")
    assert VARIANT.view(s, 2).partners == (1,)
    assert cards("T20")[0] not in VARIANT.view(s, 2).visible_cards()
