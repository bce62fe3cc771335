"""The combined auction: games, additions, kontras and every restriction."""

from __future__ import annotations

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import TRICKS
from tarok_service.variants.zwanzigerrufen.auction import called_tarok
from tarok_service.variants.zwanzigerrufen.state import ZwanzigerState

from .zwanzigerrufen_helpers import HANDS, VARIANT, cards, dealt, reason, say

# HANDS: seat 0 (forehand, 4 suit cards) calls XX, held by seat 1; seat 3 holds the pagat.
# Partner on seat 2 instead: seats 1 and 3 are the opponents.
PARTNER_2 = (HANDS[0], HANDS[2], HANDS[1], HANDS[3])
# Seat 2, an opponent of the caller, holds the whole trull (I, XXI, skis).
TRULL_2 = (
    "T19 T18 T17 T12 T4 T9 HK HQ CK CQ",
    "T20 T16 T15 T11 T5 DK DQ DC SK SQ",
    "T22 T21 T1 T14 T13 HC HJ H1 SC SJ",
    "T10 T8 T7 T6 CC CJ C10 DJ D1 S10",
)


def legal_ids(state: ZwanzigerState) -> set[str]:
    return {mv.id for mv in VARIANT.legal_moves(state)}


# --- games ------------------------------------------------------------------------------


def test_forehand_must_announce_a_game_first() -> None:
    s = dealt()
    assert reason(s, "pass") == m.Reason.FOREHAND_MUST_ANNOUNCE
    assert reason(s, "announce:valat") == m.Reason.NO_GAME_ANNOUNCED_YET
    assert reason(s, "kontra:game") == m.Reason.NO_GAME_ANNOUNCED_YET
    assert legal_ids(s) == {"bid:call", "bid:solo"}  # 4 suit cards: no colour solo


def test_illegal_move_raises_with_its_reason() -> None:
    with pytest.raises(IllegalMove) as err:
        VARIANT.apply(dealt(), Move("pass"))
    assert err.value.reason == m.Reason.FOREHAND_MUST_ANNOUNCE


def test_call_names_xx_and_its_holder_is_the_partner() -> None:
    s = say(dealt(), "bid:call")
    assert s.game == "call" and s.declarer == 0
    assert s.called == cards("T20")[0] and s.partner == 1
    assert s.team() == (0, 1)
    assert s.turn == 1


@pytest.mark.parametrize(
    ("hand", "called"),
    [
        ("T4 T5 T22", "T20"),
        ("T20 T19 T4", "T18"),
        ("T20 T18 T4", "T19"),
        ("T20 T19 T18 T17", "T16"),
    ],
)
def test_called_tarok_is_xx_or_highest_not_held(hand: str, called: str) -> None:
    assert called_tarok(cards(hand)) == cards(called)[0]


def test_forehand_holding_xx_calls_the_next_and_its_holder_partners() -> None:
    hands = (HANDS[1], HANDS[0], HANDS[2], HANDS[3])  # forehand holds XX, seat 1 XIX
    s = say(dealt(hands), "bid:call")
    assert s.called == cards("T19")[0] and s.partner == 1
    assert s.facts[-1].kind == "call" and s.facts[-1].value == "T19"


def test_call_impossible_when_holding_xx_to_xvi() -> None:
    hands = (
        "T20 T19 T18 T17 T16 T4 HK HQ CK CQ",
        "T22 T15 T12 T11 T5 DK DQ DC SK SQ",
        "T21 T14 T13 T10 T6 HC HJ H1 SC SJ",
        "T1 T9 T8 T7 CC CJ C10 DJ D1 S10",
    )
    s = dealt(hands)
    assert reason(s, "bid:call") == m.Reason.NO_TAROK_TO_CALL
    assert legal_ids(s) == {"bid:solo"}


def test_call_only_for_forehand() -> None:
    s = say(dealt(), "bid:call")
    assert reason(s, "bid:call") == m.Reason.CALL_FOREHAND_ONLY


def test_colour_solo_needs_five_suit_cards() -> None:
    s = dealt()
    assert reason(s, "bid:colour_solo") == m.Reason.COLOUR_SOLO_NEEDS_SUIT_CARDS
    s = say(s, "bid:call")
    assert reason(s, "bid:colour_solo") is None  # seat 1: five suit cards
    assert reason(dealt(colour_solo_min_suits=6), "bid:colour_solo", seat=1) is not None


def test_higher_game_must_be_higher() -> None:
    s = say(dealt(), "bid:call bid:solo")
    assert reason(s, "bid:colour_solo") == m.Reason.BID_TOO_LOW
    assert reason(s, "bid:solo") == m.Reason.BID_TOO_LOW


def test_accepted_player_may_only_add() -> None:
    s = say(dealt(), "bid:call pass announce:valat pass")
    # seat 0 (the caller) has neither passed nor added; seat 1 passed: accepted
    assert s.turn == 0
    s = say(s, "pass")
    assert reason(s, "bid:solo") == m.Reason.ALREADY_ACCEPTED_THE_GAME
    assert reason(s, "kontra:valat_against") is None


def test_addition_counts_as_acceptance() -> None:
    s = say(dealt(), "bid:call announce:absolut pass pass")
    assert s.turn == 0
    s = say(s, "announce:valat")
    assert reason(s, "bid:solo") == m.Reason.ALREADY_ACCEPTED_THE_GAME


def test_higher_game_wipes_out_additions_and_kontras() -> None:
    s = say(dealt(PARTNER_2), "bid:call kontra:game kontra:game")
    assert s.level("game") == 2
    s = say(s, "bid:colour_solo")  # a rekontra'd call can still be overcalled
    assert s.game == "colour_solo" and s.declarer == 3
    assert s.partner is None and s.called is None
    assert s.levels == () and s.announced == () and s.passes == 0
    assert s.team() == (3,)


def test_three_passes_in_a_row_end_the_auction() -> None:
    s = say(dealt(), "bid:call pass pass")
    assert s.passes == 2
    s = say(s, "pass")
    assert s.phase == TRICKS and s.turn == 0  # forehand leads


def test_an_announcement_restarts_the_pass_count() -> None:
    s = say(dealt(), "bid:call pass pass announce:pagat pass pass")
    assert s.phase != TRICKS
    s = say(s, "pass")
    assert s.phase == TRICKS
    assert s.announcer("pagat_against") == 3


# --- additions --------------------------------------------------------------------------


def test_additions_belong_to_the_announcers_side() -> None:
    s = say(dealt(), "bid:call announce:valat")
    assert s.announced == (("valat", 1),)
    s = say(dealt(), "bid:call pass announce:valat")
    assert s.announced == (("valat_against", 2),)
    assert s.facts[-1].value == "valat_against"


def test_opponents_absolut_only_after_kontra() -> None:
    s = say(dealt(), "bid:call pass")
    assert reason(s, "announce:absolut") == m.Reason.ABSOLUT_NEEDS_KONTRA
    s = say(s, "kontra:game pass pass")
    assert reason(s, "announce:absolut", seat=2) is None


def test_playing_side_absolut_needs_no_kontra() -> None:
    assert reason(say(dealt(), "bid:call"), "announce:absolut") is None


def test_opponent_pagat_needs_no_kontra() -> None:
    s = say(dealt(), "bid:call pass pass")
    assert reason(s, "announce:pagat") is None


def test_pagat_only_by_its_holder() -> None:
    s = say(dealt(), "bid:call")
    assert reason(s, "announce:pagat") == m.Reason.PAGAT_NOT_HELD


def test_no_pagat_in_colour_solo() -> None:
    s = say(dealt(), "bid:call pass pass bid:colour_solo")
    assert reason(s, "announce:pagat", seat=3) == m.Reason.NOT_IN_COLOUR_SOLO


def test_an_addition_is_announced_once_per_side() -> None:
    s = say(dealt(), "bid:call announce:absolut pass pass")
    assert reason(s, "announce:absolut") == m.Reason.ALREADY_ANNOUNCED
    assert reason(s, "announce:valat") is None


def test_after_valat_only_kontra_on_valat() -> None:
    s = say(dealt(), "bid:call announce:valat")
    assert reason(s, "announce:pagat", seat=3) == m.Reason.ONLY_KONTRA_ON_VALAT
    assert reason(s, "kontra:game") == m.Reason.ONLY_KONTRA_ON_VALAT
    assert reason(s, "announce:absolut") == m.Reason.ONLY_KONTRA_ON_VALAT
    assert reason(s, "kontra:valat") is None
    s = say(s, "kontra:valat")
    assert reason(s, "kontra:valat") == m.Reason.KONTRA_BY_WRONG_SIDE
    s = say(s, "pass kontra:valat")  # seat 0 (caller) rekontras the valat
    assert s.level("valat") == 2


# --- kontra chains ----------------------------------------------------------------------


def test_kontra_rekontra_subkontra_on_the_game() -> None:
    s = say(dealt(PARTNER_2), "bid:call")
    assert reason(s, "kontra:game") is None  # seat 1: opponent
    s = say(s, "kontra:game")
    assert s.level("game") == 1
    assert reason(s, "kontra:game") is None  # seat 2: partner rekontras
    s = say(s, "kontra:game")
    assert reason(s, "kontra:game") is None  # seat 3: opponent subkontras
    s = say(s, "kontra:game")
    assert s.level("game") == 3
    assert reason(s, "kontra:game") == m.Reason.KONTRA_LIMIT_REACHED


def test_kontra_by_the_wrong_side() -> None:
    s = say(dealt(), "bid:call")
    assert reason(s, "kontra:game") == m.Reason.KONTRA_BY_WRONG_SIDE  # seat 1 is the partner
    s = say(dealt(PARTNER_2), "bid:call kontra:game")
    assert reason(s, "kontra:game", seat=3) == m.Reason.KONTRA_BY_WRONG_SIDE  # opponent re


def test_kontra_on_an_addition_needs_the_addition() -> None:
    s = say(dealt(), "bid:call")
    assert reason(s, "kontra:absolut_against") == m.Reason.NOT_ANNOUNCED
    s = say(s, "announce:absolut")
    assert reason(s, "kontra:absolut") is None  # seat 2, opponent
    s = say(s, "kontra:absolut")
    assert s.level("absolut") == 1
    assert reason(s, "kontra:absolut") == m.Reason.KONTRA_BY_WRONG_SIDE  # seat 3, opponent again


def test_max_kontra_option_limits_the_chain() -> None:
    s = say(dealt(PARTNER_2, max_kontra=1), "bid:call kontra:game")
    assert reason(s, "kontra:game") == m.Reason.KONTRA_LIMIT_REACHED


# --- the trull holder's duty ------------------------------------------------------------


def test_opponent_holding_the_trull_must_kontra() -> None:
    s = say(dealt(TRULL_2), "bid:call pass")
    assert s.turn == 2
    assert reason(s, "pass") == m.Reason.TRULL_HOLDER_MUST_KONTRA
    assert reason(s, "announce:pagat") == m.Reason.TRULL_HOLDER_MUST_KONTRA
    assert reason(s, "kontra:game") is None
    assert legal_ids(s) == {"kontra:game", "bid:solo", "bid:colour_solo"}
    s = say(s, "kontra:game pass kontra:game pass")
    assert s.turn == 2 and reason(s, "pass") is None  # duty done


def test_no_trull_duty_once_kontrad_or_after_valat() -> None:
    hands = (TRULL_2[0], TRULL_2[3], TRULL_2[2], TRULL_2[1])  # seat 3 partner, seat 1 opp.
    s = say(dealt(hands), "bid:call kontra:game")
    assert reason(s, "pass") is None
    s = say(dealt(TRULL_2), "bid:call announce:valat")
    assert reason(s, "pass") is None


def test_no_trull_duty_for_the_partner_or_in_solo() -> None:
    partner = (
        TRULL_2[0],
        "T22 T21 T1 T20 T13 HC HJ H1 SC SJ",  # the trull and the called XX
        "T14 T16 T15 T11 T5 DK DQ DC SK SQ",
        TRULL_2[3],
    )
    s = say(dealt(partner), "bid:call")
    assert s.partner == 1 and reason(s, "pass") is None
    s = say(dealt(TRULL_2), "bid:solo pass")
    assert reason(s, "pass") is None


def test_no_trull_duty_without_kontras() -> None:
    s = say(dealt(TRULL_2, max_kontra=0), "bid:call pass")
    assert reason(s, "pass") is None
    assert reason(s, "kontra:game") == m.Reason.KONTRA_LIMIT_REACHED
