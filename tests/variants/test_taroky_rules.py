"""Czech taroky rule functions: the auction, the call, the talon, declarations, flek, play."""

from __future__ import annotations

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine import tricks as t
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.options import OptionError
from tarok_service.engine.state import TRICKS
from tarok_service.variants.taroky import data as d
from tarok_service.variants.taroky.declarations import declarations
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.state import TarokyState

from .taroky_helpers import DEAL_A, TALON_A, cards, deal, in_tricks, play, swap


def ids(state: TarokyState) -> list[str]:
    return [mv.id for mv in TAROKY.legal_moves(state)]


def rejected(state: TarokyState, move: str) -> str:
    with pytest.raises(IllegalMove) as err:
        TAROKY.apply(state, Move.parse(move))
    return err.value.reason


# --- table -----------------------------------------------------------------------------------


def test_table_facts() -> None:
    assert TAROKY.player_counts == (4,)
    assert len(TAROKY.deck(TAROKY.make_rules(4))) == 54
    assert [c.id for c in TAROKY.contracts(4)] == ["basic", "second", "third", "sixth", "varsava"]
    with pytest.raises(OptionError):
        TAROKY.make_rules(3)
    with pytest.raises(OptionError) as err:
        TAROKY.make_rules(4, {"max_flek": 9})
    assert err.value.field == "max_flek"


def test_deal_talon_first_then_sixes_from_forehand() -> None:
    s = deal(DEAL_A, TALON_A)
    assert s.talon == cards(TALON_A) and s.turn == 1 and s.phase == "bidding"
    assert all(len(h) == 12 for h in s.hands)
    assert set(s.hands[2]) == set(cards(DEAL_A[2]))


# --- auction ---------------------------------------------------------------------------------


def test_forehand_must_name_an_obligation() -> None:
    s = deal(DEAL_A, TALON_A)
    assert ids(s) == ["bid:basic", "bid:second", "bid:third", "bid:sixth"]
    assert rejected(s, "pass") == m.Reason.PASS_NOT_ALLOWED
    assert rejected(s, "bid:varsava") == m.Reason.BID_NOT_ALLOWED


def test_others_accept_or_go_higher() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:second")
    assert ids(s) == ["pass", "bid:third", "bid:sixth"]
    assert rejected(s, "bid:basic") == m.Reason.BID_TOO_LOW


def test_basic_accepted_offers_varsava() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass")
    assert s.phase == "varsava_choice" and s.turn == 1
    assert ids(s) == ["bid:varsava", "pass"]
    basic = play(s, "pass")
    assert (basic.phase, basic.contract, basic.declarer) == ("calling", d.BASIC, 1)
    varsava = play(s, "bid:varsava")
    assert (varsava.phase, varsava.contract, varsava.turn) == (TRICKS, d.VARSAVA, 1)


def test_dobra_is_final_and_forehand_may_go_higher() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic bid:second pass pass")
    assert s.turn == 1 and ids(s) == ["pass", "bid:third", "bid:sixth"]
    s = play(s, "bid:third")
    assert s.turn == 2 and ids(s) == ["pass", "bid:sixth"]  # seats 3 and 0 have accepted
    s = play(s, "pass")
    assert (s.contract, s.declarer, s.phase, s.multiplier) == (d.THIRD, 1, "third_talon", 1)


def test_sixth_goes_straight_to_declarations() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic bid:sixth pass pass pass")
    assert (s.contract, s.declarer, s.phase, s.multiplier) == (d.SIXTH, 2, "declaring", 32)
    assert s.talon == cards(TALON_A) and s.turn == 2


def test_opening_lead_by_the_obligation_holder() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic bid:sixth pass pass pass pass pass pass pass")
    assert s.phase == TRICKS and s.declarer == 2 and s.turn == 1


# --- the call --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("swaps", "options", "callable_"),
    [
        ((), {}, ["T19"]),
        ((("T19", "T15"),), {}, ["T19", "T18"]),
        ((("T19", "T15"), ("T18", "T14")), {}, ["T19", "T18", "T17"]),
        ((("T19", "T15"), ("T18", "T14"), ("T17", "HK")), {}, ["T19", "T18", "T17"]),
        (
            (("T19", "T15"), ("T18", "T14"), ("T17", "HK")),
            {"call_xvi": True},
            ["T19", "T18", "T17", "T16"],
        ),
    ],
)
def test_callable_taroks(
    swaps: tuple[tuple[str, str], ...], options: dict[str, bool], callable_: list[str]
) -> None:
    hands, talon = dict(DEAL_A), TALON_A
    for a, b in swaps:
        hands, talon = swap(hands, talon, a, b)
    s = play(deal(hands, talon, **options), "bid:basic pass pass pass pass")
    assert ids(s) == [f"call:{c}" for c in callable_]
    assert rejected(s, "call:T12") == m.Reason.CALL_NOT_ALLOWED


def test_call_and_talon_split() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass pass call:T19")
    assert s.partner == 2 and s.team() == (1, 2) and s.called == cards("T19")[0]
    assert [len(h) for h in s.hands] == [12, 16, 13, 13]
    assert s.received == tuple(zip((1, 1, 1, 1, 2, 3), cards(TALON_A), strict=True))
    assert s.queue == ((1, 4), (2, 1), (3, 1)) and s.turn == 1 and s.talon == ()


def test_calling_own_tarok_is_a_secret_solo() -> None:
    hands, talon = swap(DEAL_A, TALON_A, "T19", "T15")
    s = play(deal(hands, talon), "bid:basic pass pass pass pass call:T19")
    assert s.partner is None and s.team() == (1,)


@pytest.mark.parametrize(("talon_card", "partner"), [("T3", None), ("S8", 2), ("S7", 3)])
def test_called_card_from_the_talon(talon_card: str, partner: int | None) -> None:
    hands, talon = swap(DEAL_A, TALON_A, "T19", talon_card)
    s = play(deal(hands, talon), "bid:basic pass pass pass pass call:T19")
    assert s.partner == partner


def test_discard_restrictions() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass pass call:T19")
    for card in ("HK", "CK", "T1", "T21", "T22"):
        assert rejected(s, f"discard:{card}") == m.Reason.DISCARD_NOT_ALLOWED
    s = play(s, "discard:T2 discard:T3 discard:C7 discard:S9")
    assert s.turn == 2 and s.piles[1] == cards("T2 T3 C7 S9")
    s = play(s, "discard:S8 discard:S7")
    assert s.phase == "declaring" and s.turn == 1 and [len(h) for h in s.hands] == [12] * 4


def test_taroks_discarded_only_if_forced_by_option() -> None:
    s = play(
        deal(DEAL_A, TALON_A, discard_taroks_only_if_forced=True),
        "bid:basic pass pass pass pass call:T19",
    )
    assert not any(mv.startswith("discard:T") for mv in ids(s))


# --- the third obligation's talon --------------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "mult", "kept", "to_opponents", "shown"),
    [
        ("talon:keep", 1, "T3 T2 C7", "S9 S8 S7", ()),
        ("talon:reject talon:keep", 2, "S9 S8 S7", "T3 T2 C7", ("T3 T2 C7",)),
        ("talon:reject talon:reject", 4, "T3 T2 C7", "S9 S8 S7", ("T3 T2 C7", "S9 S8 S7")),
    ],
)
def test_third_talon(
    choices: str, mult: int, kept: str, to_opponents: str, shown: tuple[str, ...]
) -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:third pass pass pass")
    assert ids(s) == ["talon:keep", "talon:reject"]
    s = play(s, choices)
    assert s.multiplier == mult and s.talon == cards(to_opponents)
    assert set(cards(kept)) <= set(s.hands[1]) and len(s.hands[1]) == 15
    assert s.shown == tuple(cards(g) for g in shown) and s.queue == ((1, 3),)


# --- declarations and flek ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("HK HQ", [d.VELKA_BARVA]),
        ("T5 HK", [d.BARVICKA]),
        ("T5 T6 T7 HK", []),
        ("T2 T3 T4 T5 T6 T7 T8 T9", [d.TAROCKY]),
        ("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11", [d.TAROKY]),
        ("T1 T21 T22 T5 T6", [d.TRUL]),
        ("T1 T21 T22 T5 T6 DK", [d.TRULHONERY]),
        ("T5 T6 T7 HK DK CK SK", [d.KRALOVSKE_HONERY]),
        ("T1 T21 T22 HK DK CK SK", [d.KRALOVSKE_HONERY, d.TRUL]),
        ("T1 T21 T6 HK DK", [d.HONERY]),
        ("T5 T6 T7 HK DK CK", []),
        ("T1 T3 T4 T5 T6 T7 T8 T9 T10 T21 T22 CK", [d.TAROKY, d.TRULHONERY]),
    ],
)
def test_revealing_declarations(hand: str, expected: list[str]) -> None:
    assert declarations(cards(hand)) == expected


def declaring() -> TarokyState:
    return play(
        deal(DEAL_A, TALON_A),
        "bid:basic pass pass pass pass call:T19 discard:T2 discard:T3 discard:C7 discard:S9 "
        "discard:S8 discard:S7",
    )


def test_declarations_are_automatic_and_public() -> None:
    """Seat 1 keeps I, XXI, the skyz and two kings after the exchange: trulhonery."""
    s = declaring()
    assert s.declarations == ((1, d.TRULHONERY),)
    assert [(f.seat, f.value) for f in s.facts if f.kind == "declaration"] == [(1, d.TRULHONERY)]
    for seat in (None, 0, 1, 2, 3):
        assert TAROKY.view(s, seat).facts == s.facts


def test_binding_declarations_and_flek() -> None:
    s = declaring()
    assert ids(s) == ["pass", "announce:pagat", "announce:valat"]  # the declarer holds the pagat
    assert rejected(s, "kontra:game") == m.Reason.KONTRA_NOT_ALLOWED
    s = play(s, "announce:valat")
    assert ids(s) == ["pass", "announce:pagat"]
    s = play(s, "pass")  # seat 2, the partner: no flek on his own side
    assert ids(s) == ["pass"]
    s = play(s, "pass")
    assert ids(s) == ["pass", "kontra:game"] and TAROKY.label(s, Move("kontra", "game")) == "Flek"
    s = play(s, "kontra:game")
    assert s.flek == 1 and s.turn == 3 and ids(s) == ["pass"]  # he speaks on until he passes
    s = play(s, "pass pass")
    assert s.turn == 1 and ids(s)[-1] == "kontra:game"
    assert TAROKY.label(s, Move("kontra", "game")) == "Reflek"
    s = play(s, "kontra:game")
    assert s.flek == 2 and "kontra:game" not in ids(s)  # max_flek 2 by default
    s = play(s, "pass pass pass pass")
    assert s.phase == TRICKS and s.turn == 1 and s.announced == ((d.VALAT, 1),)


def test_announcing_a_pagat_one_does_not_hold() -> None:
    s = play(declaring(), "pass")
    assert rejected(s, "announce:pagat") == m.Reason.ANNOUNCEMENT_NOT_ALLOWED


# --- trick play --------------------------------------------------------------------------------


def legal_cards(state: TarokyState) -> set[str]:
    return {mv.value for mv in TAROKY.legal_moves(state)}


def test_no_duty_to_overtake_and_no_emperor() -> None:
    s = in_tricks(d.BASIC, {1: "T21 T2 HK"}, [(0, "T10")], turn=1)
    assert legal_cards(s) == {"T21", "T2"}
    assert rejected(s, "play:HK") == m.Reason.MUST_FOLLOW_SUIT
    s = in_tricks(d.BASIC, {1: "T2 HK H4"}, [(0, "H1")], turn=1)
    assert legal_cards(s) == {"HK", "H4"}
    assert rejected(s, "play:T2") == m.Reason.MUST_FOLLOW_SUIT
    s = in_tricks(d.BASIC, {1: "T2 T21 SK"}, [(0, "H1")], turn=1)
    assert legal_cards(s) == {"T2", "T21"}
    assert rejected(s, "play:SK") == m.Reason.MUST_PLAY_TAROK
    trick = cards("T22 T21 T1 HK")
    assert t.winning_index(trick, TAROKY.trick_rules(s)) == 0  # the skyz wins: no emperor's trick


@pytest.mark.parametrize(
    ("hand", "trick", "legal", "move", "reason"),
    [
        ("HK H4 T5", [(0, "HQ")], {"HK"}, "H4", m.Reason.MUST_OVERTAKE),
        ("H3 H4 T5", [(0, "HQ")], {"H3", "H4"}, "T5", m.Reason.MUST_FOLLOW_SUIT),
        ("T21 T5 HK", [(0, "T10")], {"T21"}, "T5", m.Reason.MUST_OVERTAKE),
        ("T5 T1 S7", [(0, "H4")], {"T5"}, "T1", m.Reason.PAGAT_ONLY_AS_LAST_TAROK),
        ("T5 T1 S7", [(0, "H4")], {"T5"}, "S7", m.Reason.MUST_PLAY_TAROK),
        ("T21 T3", [(0, "T22")], {"T3"}, "T21", m.Reason.MOND_UNDER_SKIS),
        ("T21 T12", [(0, "T10"), (2, "T22")], {"T12"}, "T21", m.Reason.MOND_UNDER_SKIS),
        ("T1 T5", [(0, "T22")], {"T5"}, "T1", m.Reason.PAGAT_ONLY_AS_LAST_TAROK),
        ("T1 T5 H4", [], {"T5", "H4"}, "T1", m.Reason.PAGAT_ONLY_AS_LAST_TAROK),
    ],
)
def test_varsava_play_rules_rejected_with_a_reason(
    hand: str, trick: list[tuple[int, str]], legal: set[str], move: str, reason: str
) -> None:
    s = in_tricks(d.VARSAVA, {1: hand}, trick, turn=1)
    assert legal_cards(s) == legal
    assert rejected(s, f"play:{move}") == reason
    with pytest.raises(IllegalMove, match="not allowed"):
        TAROKY.apply(s, Move("play", move))


@pytest.mark.parametrize(
    ("hand", "trick", "legal"),
    [
        ("T1 H4", [], {"T1", "H4"}),  # the pagat as one's last tarok may be led
        ("T21 H4", [(0, "T22")], {"T21"}),  # a ban gives way when nothing else is legal
        ("T1 S7", [(0, "H4")], {"T1"}),
        ("T21 T1", [(0, "T22")], {"T21", "T1"}),
        ("H3 H4", [(0, "T22"), (2, "H1")], {"H3", "H4"}),
    ],
)
def test_varsava_bans_give_way(hand: str, trick: list[tuple[int, str]], legal: set[str]) -> None:
    assert legal_cards(in_tricks(d.VARSAVA, {1: hand}, trick, turn=1)) == legal


def test_bonus_table_and_labels() -> None:
    rows = {b.id: (b.silent, b.announced) for b in TAROKY.bonuses(4)}
    assert rows[d.TAROKY] == (20, 0) and rows[d.BARVICKA] == (10, 0)
    assert rows[d.PAGAT] == (50, 100) and rows[d.VALAT] == (100, 200) and len(rows) == 10
    s = deal(DEAL_A, TALON_A)
    assert TAROKY.label(s, Move("bid", "third")).startswith("Bid Třetí povinnost")
    s = play(s, "bid:third")
    assert TAROKY.label(s, Move("pass")) == "Dobrá (accept)"
    s = play(s, "pass pass pass")
    # a made move's label goes to every seat: it must not name the cards looked at
    assert TAROKY.label(s, Move("talon", "keep")) == "Keep the three talon cards looked at"
    assert TAROKY.label(s, Move("talon", "reject")).startswith("Reject")
