"""Seeded scenarios with the hands written out: each phase and each special Slovenian rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.moves import EngineBug, IllegalMove, Move
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import REDEAL, SCORED, TRICKS
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState

from .slovenian_helpers import DECK, cards, legal_cards, order_for, play, playing, rules

# A full 4-player deal (dealer 3, so seat 0 is forehand). Talon: T2 T3 | HK T8 | S7 S8.
HANDS = (
    "T22 T21 T20 T19 T18 T17 CK CQ CC DK DQ DC",
    "T1 T16 T15 T14 T13 T12 H1 H2 H3 H4 HQ HC",
    "T11 T10 T9 T7 T6 T5 D1 D2 D3 D4 DJ HJ",
    "T4 SK SQ SC SJ S10 S9 CJ C10 C9 C8 C7",
)
TALON = "T2 T3 HK T8 S7 S8"


def dealt(players: int = 4, **options: OptionValue) -> SlovenianState:
    return SLOVENIAN.deal(rules(players, **options), order_for(HANDS, TALON), dealer=3)


def do(state: SlovenianState, *ids: str) -> SlovenianState:
    out = state
    for move_id in ids:
        nxt = SLOVENIAN.apply(out, Move.parse(move_id))
        assert isinstance(nxt, SlovenianState)
        out = nxt
    return out


def ids(state: SlovenianState) -> list[str]:
    return [mv.id for mv in SLOVENIAN.legal_moves(state)]


def test_deal_follows_the_written_hands() -> None:
    state = dealt()
    assert state.hands[0] == DECK.sort(cards(HANDS[0]))
    assert state.talon == cards(TALON)
    assert state.turn == 1  # the player after forehand opens the auction


def test_hand_without_tarok_is_thrown_in() -> None:
    hands = list(HANDS)
    hands[3], hands[2] = (
        "SK SQ SC SJ S10 S9 CJ C10 C9 C8 C7 DJ",
        "T11 T10 T9 T7 T6 T5 D1 D2 D3 D4 T4 HJ",
    )
    state = SLOVENIAN.deal(rules(), order_for(hands, TALON), dealer=3)
    assert state.phase == REDEAL
    result = SLOVENIAN.result(state)
    assert result is not None and result.redeal


def test_forehand_privileges_three_and_klop_after_three_passes() -> None:
    state = dealt()
    assert "bid:three" not in ids(state) and "bid:klop" not in ids(state)
    assert ids(state)[:2] == ["pass", "bid:two"]
    state = do(state, "pass", "pass", "pass")
    assert state.turn == 0
    legal = ids(state)
    assert "pass" not in legal and legal[:3] == ["bid:klop", "bid:three", "bid:two"]
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("pass"))
    assert err.value.reason == m.Reason.PASS_NOT_ALLOWED


def test_non_forehand_cannot_bid_three_and_bids_must_rise() -> None:
    state = do(dealt(), "bid:one")
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("bid", "two"))
    assert err.value.reason == m.Reason.BID_TOO_LOW
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("bid", "three"))
    assert err.value.reason == m.Reason.BID_NOT_ALLOWED


def test_forehand_may_hold_and_winner_may_raise_his_own_contract() -> None:
    state = do(dealt(), "bid:two", "pass", "pass")
    assert "bid:two" in ids(state)  # forehand holds
    state = do(state, "bid:two")
    assert "bid:two" not in ids(state) and "bid:one" in ids(state)
    state = do(state, "pass")
    assert state.turn == 0 and "pass" not in ids(state) and "bid:two" in ids(state)
    state = do(state, "bid:solo_one")  # raises his own contract
    assert state.contract == 6 and state.declarer == 0 and state.phase == "talon"


def test_king_call_partner_and_queen_when_holding_four_kings() -> None:
    state = do(dealt(), "pass", "pass", "pass", "bid:three")
    assert state.phase == "calling" and ids(state) == ["call:HK", "call:DK", "call:CK", "call:SK"]
    called = do(state, "call:SK")
    assert called.partners == (3,) and called.talon_kings == ()
    own = do(state, "call:CK")
    assert own.partners == () and own.team() == (0,)
    four = replace(
        state,
        hands=(DECK.sort(cards("HK DK CK SK T22 T21 T20 T19 T18 T17 CQ CC")), *state.hands[1:]),
    )
    assert "call:HQ" in ids(four) and len(ids(four)) == 8


def test_zaruf_king_in_talon_wins_the_talon_rest() -> None:
    state = do(dealt(), "pass", "pass", "pass", "bid:two", "call:HK")
    assert state.talon_kings == cards("HK") and state.partners == ()
    assert ids(state) == ["talon:0", "talon:1", "talon:2"]
    state = do(state, "talon:1")  # takes HK T8
    assert state.talon == cards("T2 T3 S7 S8")
    discards = ids(state)
    assert "discard:CK" not in discards and "discard:T22" not in discards
    assert "discard:T17" in discards  # taroks may be discarded, face up
    state = do(state, "discard:CC", "discard:DC")
    assert state.phase == "announce" and state.turn == 0
    state = do(state, "pass", "pass", "pass", "pass")
    assert state.phase == TRICKS and state.turn == 0
    # the declarer leads the HK: seat 1 follows, seat 2 is void in hearts? (HJ) follows too
    state = play(state, "HK", "H4", "HJ", "T4")
    assert state.tricks[-1].winner == 3  # trumped: the king did not win, nothing gained
    assert not state.talon_won


def test_zaruf_talon_rest_goes_to_declarer_when_king_wins() -> None:
    state = do(
        dealt(),
        "pass",
        "pass",
        "pass",
        "bid:two",
        "call:HK",
        "talon:1",
        "discard:CC",
        "discard:DC",
        "pass",
        "pass",
        "pass",
        "pass",
    )
    state = replace(
        state,
        hands=(
            state.hands[0],
            state.hands[1],
            state.hands[2],
            DECK.sort(cards("SK SQ SC SJ S10 S9 CJ C10 C9 C8 C7 H1")),
        ),
    )
    state = replace(
        state,
        hands=(
            state.hands[0],
            DECK.sort(cards("T1 T16 T15 T14 T13 T12 T4 H2 H3 H4 HQ HC")),
            state.hands[2],
            state.hands[3],
        ),
    )
    state = play(state, "HK", "H4", "HJ", "H1")
    assert state.tricks[-1].winner == 0 and state.talon_won
    assert set(cards("T2 T3 S7 S8")) <= set(state.piles[0])


def test_discard_taroks_only_if_forced_option() -> None:
    state = do(
        dealt(discard_taroks_only_if_forced=True),
        "pass",
        "pass",
        "pass",
        "bid:two",
        "call:SK",
        "talon:1",
    )
    assert all(not mv.startswith("discard:T") for mv in ids(state))


def test_mond_left_in_talon_is_charged() -> None:
    hands = list(HANDS)
    hands[0] = "T22 T2 T20 T19 T18 T17 CK CQ CC DK DQ DC"
    state = SLOVENIAN.deal(rules(), order_for(hands, "T21 T3 HK T8 S7 S8"), dealer=3)
    assert isinstance(state, SlovenianState)
    state = do(state, "pass", "pass", "pass", "bid:two", "call:SK", "talon:2")
    assert SLOVENIAN.monds_left(state) == 1


def test_announcements_kontra_chain_and_who_may_say_what() -> None:
    state = do(
        dealt(),
        "pass",
        "pass",
        "pass",
        "bid:three",
        "call:SK",
        "talon:0",
        "discard:CC",
        "discard:DC",
        "discard:DQ",
    )
    assert state.phase == "announce" and state.turn == 0
    assert "announce:pagat_ultimo" not in ids(state)  # seat 0 has no pagat
    state = do(state, "announce:trula", "pass")
    assert state.turn == 1
    assert "announce:pagat_ultimo" in ids(state) and "kontra:trula" in ids(state)
    assert "kontra:game" in ids(state)
    state = do(state, "kontra:game", "pass")
    assert state.turn == 2 and "kontra:game" not in ids(state)  # opponent cannot re
    state = do(state, "pass")
    assert "announce:king_ultimo" in ids(state)  # seat 3 holds the called king
    assert "kontra:game" in ids(state)  # the partner may say re
    state = do(state, "kontra:game", "pass", "pass", "pass", "pass")
    assert state.level("game") == 2 and state.phase == TRICKS
    with pytest.raises(IllegalMove):
        SLOVENIAN.apply(state, Move("announce", "kings"))


def test_klop_has_no_announcements_and_gives_talon_cards() -> None:
    state = do(dealt(), "pass", "pass", "pass", "bid:klop")
    assert state.phase == TRICKS and state.turn == 0 and state.declarer is None
    assert legal_cards(state) == {c for c in HANDS[0].split()}
    state = play(state, "CK")
    assert legal_cards(state) == {"T16", "T15", "T14", "T13", "T12"}  # a tarok, not the pagat
    state = play(state, "T12")
    assert legal_cards(state) == {"T11", "T10", "T9", "T7", "T6", "T5"}  # cannot beat: any
    state = play(state, "T5")
    assert legal_cards(state) == {"CJ", "C10", "C9", "C8", "C7"}  # suit after a tarok: any
    state = play(state, "C7")
    assert state.tricks[-1].winner == 1 and state.piles[1][-1] == DECK.card("T2")
    assert state.talon == cards("T3 HK T8 S7 S8")


def test_negative_contract_must_overtake_and_hold_back_pagat() -> None:
    state = playing("beggar", ["T5 T9 T1 HK", "T7 T3 H1 DK", "T20 T2 H2 DQ", "T4 HQ H3 DJ"])
    assert legal_cards(state) == {"T5", "T9", "HK"}  # no pagat lead
    state = play(state, "T5")
    assert legal_cards(state) == {"T7"}  # must beat T5
    state = play(state, "T7")
    assert legal_cards(state) == {"T20"}
    state = play(state, "T20")
    assert legal_cards(state) == {"T4"}  # cannot beat: any tarok
    state = play(state, "T4")
    assert state.phase == TRICKS and state.turn == 2
    state = play(state, "H2")
    assert legal_cards(state) == {"HQ"}  # must beat the H2
    state = play(state, "HQ", "HK")
    assert legal_cards(state) == {"H1"}
    state = play(state, "H1")
    assert state.phase == SCORED  # the declarer took a trick: beggar ends at once
    result = SLOVENIAN.result(state)
    assert result is not None and result.totals[0] == -70


def test_negative_following_suit_after_a_tarok_needs_no_overtake() -> None:
    state = playing("klop", ["HK H4", "T5 DK", "HQ H1", "D1 D2"], declarer=None)
    state = play(state, "H4", "T5")
    assert legal_cards(state) == {"HQ", "H1"}


def test_pagat_forced_into_the_emperors_trick_in_klop() -> None:
    state = playing("klop", ["T22 HK", "T21 DK", "T1 T10", "T4 HQ"], declarer=None)
    state = play(state, "T22", "T21")
    assert legal_cards(state) == {"T1"}
    state = play(state, "T1", "T4")
    assert state.tricks[-1].winner == 2


def test_emperors_trick_in_positive_contract_and_order_option() -> None:
    state = playing("three", ["T1 HK", "T22 DK", "T21 DQ", "T4 HQ"], partner=2)
    state = play(state, "T1", "T22", "T21", "T4")
    assert state.tricks[-1].winner == 0
    assert state.mondfangs == (2,)  # the pagat captured the mond
    ordered = playing(
        "three", ["T1 HK", "T22 DK", "T21 DQ", "T4 HQ"], partner=2, emperor_order="pagat_last"
    )
    ordered = play(ordered, "T1", "T22", "T21", "T4")
    assert ordered.tricks[-1].winner == 1


def test_colour_valat_taroks_do_not_win_but_must_be_played() -> None:
    state = playing("colour_valat", ["HK HQ", "T5 DK", "H1 D1", "H2 D2"], declarer=0)
    state = play(state, "HK")
    assert legal_cards(state) == {"T5"}  # void in hearts: must play a tarok
    state = play(state, "T5", "H1", "H2")
    assert state.tricks[-1].winner == 0


def test_valat_contract_ends_when_declarer_loses_a_trick() -> None:
    state = playing("valat", ["HQ HK", "HC DK", "H1 D1", "H2 D2"], declarer=0)
    state = play(state, "HQ", "HC", "H1", "H2")
    assert state.phase == TRICKS  # won the first
    state = playing("valat", ["H3 HK", "HC DK", "H1 D1", "H2 D2"], declarer=0)
    state = play(state, "H3", "HC", "H1", "H2")
    assert state.phase == SCORED
    result = SLOVENIAN.result(state)
    assert result is not None and result.totals[0] == -500


def test_announced_pagat_must_be_kept_for_the_last_trick() -> None:
    state = playing("three", ["T1 T5 HK", "T7 T3 DK", "T20 T2 DQ", "T4 HQ D1"], partner=2)
    state = replace(state, announced=(("pagat_ultimo", 0),))
    assert legal_cards(state) == {"T5", "HK"}
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("play", "T1"))
    assert err.value.reason == m.Reason.ANNOUNCED_CARD_MUST_BE_HELD


def test_follow_suit_and_play_tarok_reasons() -> None:
    state = play(playing("three", ["HK T5", "H1 T7", "DK T2", "D1 D2"], partner=2), "HK")
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("play", "T7"))
    assert err.value.reason == m.Reason.MUST_FOLLOW_SUIT
    state = play(state, "H1")
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("play", "DK"))
    assert err.value.reason == m.Reason.MUST_PLAY_TAROK
    with pytest.raises(IllegalMove) as err:
        SLOVENIAN.apply(state, Move("play", "SK"))
    assert err.value.reason == m.Reason.CARD_NOT_IN_HAND


def test_open_beggar_hand_is_shown_after_the_first_trick() -> None:
    state = playing("open_beggar", ["H4 H3 H2", "HK DK D2", "HQ D1 D3", "HC CK C7"], declarer=0)
    assert not [g for g in SLOVENIAN.view(state, 1).public if g.name == "declarer's hand"]
    state = play(state, "H4", "HK", "HQ", "HC")
    shown = [g for g in SLOVENIAN.view(state, 1).public if g.name == "declarer's hand"]
    assert shown and set(shown[0].cards) == set(cards("H3 H2"))


def test_three_player_game_has_no_king_call_and_no_solos() -> None:
    hands3 = (
        "T22 T21 T20 T19 T18 T17 CK CQ CC DK DQ DC T2 T3 HK T8",
        "T1 T16 T15 T14 T13 T12 H1 H2 H3 H4 HQ HC S7 S8 SK SQ",
        "T11 T10 T9 T7 T6 T5 D1 D2 D3 D4 DJ HJ T4 SC SJ S10",
    )
    state = SLOVENIAN.deal(rules(3), order_for(hands3, "S9 CJ C10 C9 C8 C7", dealer=2), dealer=2)
    assert isinstance(state, SlovenianState)
    assert not any("solo_t" in i for i in ids(state))
    state = do(state, "pass", "pass", "bid:three")
    assert state.phase == "talon" and state.partners == ()
    no_cv = SLOVENIAN.deal(
        rules(3, colour_valat_3p=False), order_for(hands3, "S9 CJ C10 C9 C8 C7", 2), 2
    )
    assert isinstance(no_cv, SlovenianState)
    assert "bid:colour_valat" not in ids(no_cv)


def test_view_hides_other_hands_and_non_tarok_discards() -> None:
    state = do(
        dealt(),
        "pass",
        "pass",
        "pass",
        "bid:three",
        "call:SK",
        "talon:0",
        "discard:CC",
        "discard:DC",
        "discard:T17",
    )
    seen_by_1 = SLOVENIAN.view(state, 1).visible_cards()
    assert DECK.card("T17") in seen_by_1 and DECK.card("CC") not in seen_by_1
    assert DECK.card("CC") in SLOVENIAN.view(state, 0).visible_cards()
    spectator = SLOVENIAN.view(state, None)
    assert spectator.hand == () and spectator.legal == ()
    assert SLOVENIAN.view(state, 1).partners == ()
    assert SLOVENIAN.view(state, 3).partners == (3,)


def test_unknown_option_and_bad_value_are_errors() -> None:
    from tarok_service.engine.options import OptionError

    with pytest.raises(OptionError) as err:
        SLOVENIAN.make_rules(4, {"no_such_thing": 1})
    assert err.value.field == "no_such_thing"
    with pytest.raises(OptionError):
        SLOVENIAN.make_rules(4, {"mondfang_penalty": 1000})
    with pytest.raises(OptionError):
        SLOVENIAN.make_rules(4, {"emperor_order": "sideways"})
    with pytest.raises(OptionError) as err:
        SLOVENIAN.make_rules(5)
    assert err.value.field == "players"


def test_a_pick_of_a_talon_group_that_does_not_exist() -> None:
    """A client's pick is refused with its own reason; the same pick reaching the rules
    unchecked is a programming error, never a rule reason."""
    state = do(dealt(), "pass", "pass", "pass", "bid:two", "call:HK")
    assert ids(state) == ["talon:0", "talon:1", "talon:2"]
    for value in ("3", "-1", "x"):
        with pytest.raises(IllegalMove) as err:
            SLOVENIAN.apply(state, Move("talon", value))
        assert err.value.reason == m.Reason.NO_SUCH_TALON_GROUP
    with pytest.raises(EngineBug):
        SLOVENIAN.apply(state, Move("talon", "3"), check=False)
