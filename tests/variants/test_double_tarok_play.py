"""Double tarok deck, deal, auction, king call, announcements and trick play,
on seeded scenarios with the hands written out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.cards import KING, Card
from tarok_service.engine.counting import in_threes
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import REDEAL, TRICKS
from tarok_service.variants.registry import find_variant
from tarok_service.variants.slovenian.state import SlovenianState

from .double_tarok_helpers import (
    DECK,
    DT,
    cards,
    do,
    ids,
    legal_cards,
    order_for,
    play,
    playing,
    rules,
)

# An 8-player deal written out (dealer 7, forehand 0). Seat 1 holds HK.1, seat 3 HK.2; the
# declarer (seat 0) holds DK.1, CK.1 and SK.1; the talon holds the red škis, mond and pagat.
HANDS_8 = [
    "T22.1 T21.1 T20.1 T20.2 T19.1 T19.2 T18.1 T18.2 DK.1 CK.1 SK.1 S10.1",
    "T17.1 T17.2 T2.1 HK.1 H1.1 H2.1 D1.1 D2.1 C10.1 C9.1 S9.1 S8.1",
    "T16.1 T16.2 T3.1 H3.1 H4.1 D3.1 D4.1 C8.1 C7.1 S7.1 HQ.1 DQ.1",
    "T15.1 T15.2 T1.1 HK.2 H1.2 H2.2 D1.2 C10.2 S10.2 CQ.1 SQ.1 HC.1",
    "T14.1 T14.2 T4.1 DK.2 D2.2 D3.2 C9.2 S9.2 DC.1 CC.1 SC.1 HJ.1",
    "T13.1 T13.2 T5.1 CK.2 C8.2 C7.2 S8.2 H3.2 DJ.1 CJ.1 SJ.1 HQ.2",
    "T12.1 T12.2 T6.1 SK.2 S7.2 H4.2 D4.2 DQ.2 CQ.2 SQ.2 HC.2 DC.2",
    "T11.1 T11.2 T7.1 T8.1 T9.1 T10.1 CC.2 SC.2 HJ.2 DJ.2 CJ.2 SJ.2",
]
TALON_8 = "T22.2 T21.2 T1.2 T2.2 T3.2 T4.2 T5.2 T6.2 T7.2 T8.2 T9.2 T10.2"
PASSES_8 = ["pass"] * 7  # seats 1..7; forehand then chooses


# 4 players (dealer 3): seat 1 holds HK.1, seat 2 HK.2 and the blue pagat. Same talon.
HANDS_4 = [
    "T7.1 T13.1 T14.1 T19.1 T20.1 T21.1 T22.1 HC.1 H4.1 DK.1 C8.1 T13.2 T20.2 HC.2 HJ.2 DK.2 "
    "DJ.2 D3.2 CC.2 C9.2 SK.2 SJ.2 S10.2 S7.2",
    "T2.1 T3.1 T6.1 T9.1 T10.1 T16.1 T17.1 HK.1 H1.1 D1.1 D2.1 D4.1 CQ.1 C9.1 SK.1 T12.2 T19.2 "
    "H2.2 DQ.2 DC.2 CK.2 CQ.2 CJ.2 SC.2",
    "T1.1 T5.1 T11.1 T18.1 HQ.1 DC.1 DJ.1 CK.1 CJ.1 SQ.1 SC.1 S10.1 T11.2 T14.2 T15.2 T17.2 "
    "T18.2 HK.2 HQ.2 H1.2 H3.2 D1.2 D2.2 SQ.2",
    "T4.1 T8.1 T12.1 T15.1 HJ.1 H2.1 H3.1 DQ.1 D3.1 CC.1 C10.1 C7.1 SJ.1 S9.1 S8.1 S7.1 T16.2 "
    "H4.2 D4.2 C10.2 C8.2 C7.2 S9.2 S8.2",
]
# 6 players (dealer 5): seat 3 holds both hearts kings. Same talon.
HANDS_6 = [
    "T2.1 T8.1 T13.1 T18.1 T20.1 T21.1 T22.1 H1.1 H3.1 D2.1 T18.2 T20.2 HJ.2 H3.2 D1.2 C8.2",
    "T1.1 T3.1 T15.1 T17.1 H2.1 DK.1 DQ.1 CK.1 C10.1 S7.1 T11.2 T14.2 DK.2 D3.2 CQ.2 S9.2",
    "T5.1 T6.1 T10.1 T14.1 T19.1 HJ.1 DC.1 CJ.1 C9.1 HQ.2 H2.2 DJ.2 D2.2 CK.2 CC.2 CJ.2",
    "T9.1 T12.1 T16.1 HK.1 DJ.1 D1.1 C8.1 C7.1 S10.1 T12.2 T16.2 HK.2 HC.2 DQ.2 C10.2 C9.2",
    "T7.1 HQ.1 HC.1 CC.1 SK.1 SC.1 SJ.1 S9.1 S8.1 H1.2 H4.2 DC.2 SQ.2 SJ.2 S8.2 S7.2",
    "T4.1 T11.1 H4.1 D3.1 D4.1 CQ.1 SQ.1 T13.2 T15.2 T17.2 T19.2 D4.2 C7.2 SK.2 SC.2 S10.2",
]
HANDS = {4: HANDS_4, 6: HANDS_6, 8: HANDS_8}


def dealt(players: int, **options: object) -> SlovenianState:
    """The written-out deal for this player count (the dealer is the last seat)."""
    state = DT.deal(
        rules(players, **options), order_for(HANDS[players], TALON_8, players - 1), players - 1
    )
    assert isinstance(state, SlovenianState)
    return state


def deal8(**options: object) -> SlovenianState:
    return dealt(8, **options)


# --- deck, deal, variant table ------------------------------------------------------------


def test_deck_two_packs_told_apart_by_their_backs() -> None:
    assert len(DECK) == 108 and Counter(c.pack for c in DECK.cards) == {0: 54, 1: 54}
    assert DECK.codes[Card("H", KING, 0)] == "HK.1" and DECK.codes[Card("H", KING, 1)] == "HK.2"
    assert DECK.labels[DECK.card("HK.1")] == "♥K (blue back)"
    assert DECK.labels[DECK.card("T21.2")] == "XXI (red back)"
    assert sum(DECK.points.values()) == 212 and in_threes(DECK.cards, DECK.points) == 140


@pytest.mark.parametrize("players", [4, 6, 8])
def test_the_written_deals_are_the_whole_deck(players: int) -> None:
    every = [c for h in HANDS[players] for c in cards(h)] + list(cards(TALON_8))
    assert Counter(every) == Counter(DECK.cards)
    assert [len(h) for h in dealt(players).hands] == [96 // players] * players


def test_list_variants_offers_double_tarok_for_4_6_8() -> None:
    from tarok_service.server.present import codec

    variant = find_variant("double_tarok")
    msg = codec.variant_msg(variant)
    assert list(msg.player_counts) == [4, 6, 8]
    for table in msg.rules:
        assert len(table.deck) == 108 and {c.pack for c in table.deck} == {0, 1}
        assert [c.id for c in table.contracts][:6] == ["klop", "six", "four", "three", "two", "one"]
        bonuses = {b.id: (b.silent, b.announced) for b in table.bonuses}
        assert bonuses["colour_trula"] == (15, 30) and bonuses["double_pagat_ultimo"] == (50, 100)
        assert ("double_king_ultimo" in bonuses) == (table.players > 4)
    options = {o.name: o.default_value for o in msg.options}
    assert options["klop_value"] == "70" and options["double_king_ultimo_value"] == "20"
    assert "colour_valat_3p" not in options


@pytest.mark.parametrize(("players", "size"), [(4, 24), (6, 16), (8, 12)])
def test_deal_twelve_card_talon_and_two_rounds(players: int, size: int) -> None:
    order = list(DECK.cards)
    state = DT.deal(rules(players), order, dealer=players - 1)
    assert state.talon == tuple(order[:12])
    assert [len(h) for h in state.hands] == [size] * players
    packet = size // 2  # the first packet of seat 0 is the 12 cards after the talon
    assert set(order[12 : 12 + packet]) <= set(state.hands[0])


def test_other_player_counts_are_refused() -> None:
    from tarok_service.engine.options import OptionError

    for players in (3, 5, 7):
        with pytest.raises(OptionError):
            DT.make_rules(players)


def test_hand_without_taroks_is_redealt() -> None:
    hands = list(HANDS_8)
    hands[2], hands[7] = (  # seat 2 takes seat 7's suit cards for its taroks
        "HJ.2 DJ.2 CJ.2 SJ.2 CC.2 SC.2 H3.1 H4.1 D3.1 D4.1 C8.1 C7.1",
        "T11.1 T11.2 T7.1 T8.1 T9.1 T10.1 T16.1 T16.2 T3.1 S7.1 HQ.1 DQ.1",
    )
    state = DT.deal(rules(8), order_for(hands, TALON_8, 7), 7)
    assert state.phase == REDEAL
    result = DT.result(state)
    assert result is not None and result.redeal


# --- auction and king call --------------------------------------------------------------


def test_six_and_klop_are_forehand_only() -> None:
    state = deal8()
    assert state.turn == 1
    assert ids(state)[:3] == ["pass", "bid:four", "bid:three"]
    state = do(state, *PASSES_8)
    assert state.turn == 0 and ids(state)[:3] == ["bid:klop", "bid:six", "bid:four"]
    open_six = deal8(six_forehand_only=False)
    assert "bid:six" in ids(open_six) and "bid:klop" not in ids(open_six)


def test_eight_players_call_a_suit_both_holders_are_partners() -> None:
    state = do(deal8(), *PASSES_8, "bid:three")
    assert ids(state) == ["call:HK", "call:DK", "call:CK", "call:SK"]
    assert DT.label(state, Move("call", "HK")) == "Call ♥K (blue back) and ♥K (red back)"
    state = do(state, "call:HK")
    assert state.team() == (0, 1, 3) and state.called == cards("HK.1 HK.2")
    assert DT.view(state, 1).partners == (1,)  # seat 1 knows only himself
    assert DT.view(state, 0).partners == () and DT.view(state, None).called == "HK.1,HK.2"


@pytest.mark.parametrize(("call", "team"), [("call:SK", (0, 6)), ("call:DK", (0, 4))])
def test_declarer_holding_one_called_king_has_one_partner(call: str, team: tuple[int, ...]) -> None:
    state = do(deal8(), *PASSES_8, "bid:two", call)
    assert state.team() == team


def test_one_player_holding_both_kings_is_the_only_partner() -> None:
    state = do(dealt(6), *["pass"] * 5, "bid:three", "call:HK")
    assert state.team() == (0, 3) and state.partners == (3,)


def test_six_players_two_partners() -> None:
    state = do(dealt(6), *["pass"] * 5, "bid:three", "call:DK")
    assert state.team() == (0, 1)  # seat 1 holds both diamond kings too
    state = do(dealt(6), *["pass"] * 5, "bid:three", "call:CK")
    assert state.team() == (0, 1, 2) and DT.view(state, 2).partners == (2,)


def test_four_players_call_a_king_by_its_back() -> None:
    state = do(dealt(4), "pass", "pass", "pass", "bid:six")
    assert ids(state) == [f"call:{s}K.{p}" for p in (1, 2) for s in "HDCS"]
    assert DT.label(state, Move("call", "HK.2")) == "Call ♥K (red back)"
    called = do(state, "call:HK.2")
    assert called.team() == (0, 2) and called.partners == (2,)
    assert do(state, "call:HK.1").team() == (0, 1)
    assert DT.view(called, None).called == "HK.2"


def test_called_king_in_the_talon_is_a_zaruf() -> None:
    hands = [h.replace("HK.1", "T2.2") for h in HANDS_8]
    talon = TALON_8.replace("T2.2", "HK.1")
    state = DT.deal(rules(8), order_for(hands, talon, 7), 7)
    assert isinstance(state, SlovenianState)
    state = do(state, *PASSES_8, "bid:three", "call:HK")
    assert state.team() == (0, 3) and state.talon_kings == cards("HK.1")
    # take the group holding HK.1 (12 cards in groups of 3: the group of index 0 ... 3)
    group = next(i for i in range(4) if "HK.1" in talon.split()[3 * i : 3 * i + 3])
    state = do(state, f"talon:{group}")
    assert DECK.card("HK.1") in state.hands[0]
    # later the HK.1 wins a trick for the declarer: he also receives the talon rest
    rest = state.talon
    trick = playing("three", ["HK.1 T20.1", "H1.1 T17.1", "H3.1 T16.1", "H1.2 T15.1", "H2.2 T14.1",
                              "H3.2 T13.1", "H4.2 T12.1", "HJ.2 T11.1"], partners=(3,),
                    called="HK.1 HK.2")
    trick = replace(trick, talon=rest, talon_kings=cards("HK.1"), group=group)
    after = play(trick, "HK.1", "H1.1", "H3.1", "H1.2", "H2.2", "H3.2", "H4.2", "HJ.2")
    assert after.tricks[-1].winner == 0 and after.talon == () and set(rest) <= set(after.piles[0])


def test_holding_all_eight_kings_allows_a_queen_call() -> None:
    kings = [DECK.codes[c] for c in DECK.cards if c.rank == KING and not c.is_tarok]
    hands, talon = HANDS_4, TALON_8
    seat0 = hands[0].split()
    swaps = [k for k in kings if k not in seat0]
    spare = [c for c in seat0 if c not in kings and not c.startswith("T")][: len(swaps)]
    new = [h.split() for h in hands]
    for k, s in zip(swaps, spare, strict=True):
        owner = next(i for i, h in enumerate(new) if k in h)
        new[owner][new[owner].index(k)] = s
        new[0][new[0].index(s)] = k
    state = DT.deal(rules(4), order_for([" ".join(h) for h in new], talon, 3), 3)
    assert isinstance(state, SlovenianState)
    state = do(state, "pass", "pass", "pass", "bid:four")
    assert "call:HQ.2" in ids(state) and len(ids(state)) == 16


@pytest.mark.parametrize(("contract", "groups"), [
    ("six", 2), ("four", 3), ("three", 4), ("two", 6), ("one", 12),
    ("solo_six", 2), ("solo_four", 3), ("solo_three", 4), ("solo_two", 6), ("solo_one", 12),
])
def test_talon_split_into_equal_groups(contract: str, groups: int) -> None:
    state = do(deal8(), *PASSES_8, f"bid:{contract}")
    if state.phase == "calling":
        state = do(state, "call:SK")
    assert ids(state) == [f"talon:{i}" for i in range(groups)]
    state = do(state, "talon:0")
    assert state.to_discard == 12 // groups
    assert not any(v in ("DK.1", "CK.1", "SK.1", "T22.1", "T21.1") for v in legal_cards(state))


def test_free_talon_exchange_option() -> None:
    state = do(deal8(talon_exchange="free"), *PASSES_8, "bid:three", "call:HK")
    assert ids(state) == [f"talon:{c}" for c in TALON_8.split()]
    assert DT.label(state, Move("talon", "T21.2")) == "Take XXI (red back) from the talon"
    state = do(state, "talon:T21.2", "talon:T10.2")
    assert state.phase == "talon" and state.group is None and len(state.talon) == 10
    state = do(state, "talon:T1.2")
    assert state.to_discard == 3 and set(cards("T21.2 T10.2 T1.2")) <= set(state.hands[0])
    assert all(i.startswith("discard:") for i in ids(state))
    assert DT.monds_left(state) == 0


def test_solo_without_keeps_the_talon_closed() -> None:
    state = do(deal8(), *PASSES_8, "bid:solo_without")
    assert state.phase == "announce" and state.exposed_talon == ()
    assert DT.view(state, 1).public == ()


# --- announcements ----------------------------------------------------------------------


def announcing(players: int = 8) -> SlovenianState:
    state = do(deal8(), *PASSES_8, "bid:three", "call:HK", "talon:0")
    for code in ("S10.1", "T20.2", "T19.2"):
        state = do(state, f"discard:{code}")
    assert state.phase == "announce" and state.turn == 0
    return state


def test_announcement_items_by_group_and_holder() -> None:
    state = announcing()
    said = [mv.value for mv in DT.legal_moves(state) if mv.kind == "announce"]
    assert said == ["kings", "colour_kings", "double_kings", "trula", "colour_trula",
                    "double_trula", "pagat_ultimo", "double_pagat_ultimo", "valat"]
    # the declarer has no called king: no king ultimo for him; seat 1 (HK.1) may announce both
    state = do(state, "announce:trula", "pass")
    seat1 = [mv.value for mv in DT.legal_moves(state) if mv.kind == "announce"]
    assert "king_ultimo" in seat1 and "double_king_ultimo" in seat1
    assert "trula" not in seat1 and {"colour_trula", "double_trula"} <= set(seat1)
    assert "pagat_ultimo" not in seat1  # no pagat in hand


def test_a_higher_item_over_a_lower_one_but_not_twice_by_one_player() -> None:
    state = do(announcing(), "announce:trula")
    assert "announce:double_trula" not in ids(state)  # seat 0 has spoken in the trula group
    state = do(state, "pass", "announce:double_trula")
    assert state.announced == (("trula", 0), ("double_trula", 1))
    state = do(state, *["pass"] * 7)
    assert state.turn == 0 and state.phase == "announce"
    assert not any(i.startswith("announce:") and "trula" in i for i in ids(state))
    assert DT.label(state, Move("kontra", "double_trula")) == "Kontra on double trula"


def test_four_players_have_no_double_king_ultimo() -> None:
    state = do(dealt(4), "pass", "pass", "pass", "bid:three", "call:HK.1", "talon:0")
    while state.phase == "talon":
        state = do(state, ids(state)[0])
    state = do(state, "pass")  # the declarer; then seat 1, who holds HK.1
    items = {mv.value for mv in DT.legal_moves(state) if mv.kind == "announce"}
    assert "king_ultimo" in items and "double_king_ultimo" not in items


def test_announced_pagat_is_kept_back_unless_both_are_held() -> None:
    others = ["T6.1 T7.1 H2.1", "T8.1 T9.1 H3.1", "T10.1 T11.1 H4.1"]
    one = playing("three", ["T1.1 T5.1 H1.1", *others], announced=(("pagat_ultimo", 0),))
    assert legal_cards(one) == {"T5.1", "H1.1"}
    both = playing("three", ["T1.1 T1.2 H1.1", *others], announced=(("pagat_ultimo", 0),))
    assert legal_cards(both) == {"T1.1", "T1.2", "H1.1"}


# --- trick play -------------------------------------------------------------------------


def test_identical_cards_the_back_of_the_led_card_wins() -> None:
    hands = ["H4.2 T3.1", "HK.1 T4.1", "HK.2 T5.1", "H1.1 T6.1", "H2.1 T7.1", "H3.1 T8.1",
             "HQ.1 T9.1", "HC.1 T10.1"]
    state = play(playing("three", hands), "H4.2", "HK.1", "HK.2", "H1.1", "H2.1", "H3.1",
                 "HQ.1", "HC.1")
    assert state.tricks[-1].winner == 2  # HK.2 was played later but has the red back led
    led_king = play(playing("three", ["HK.1 T3.1", "HK.2 T4.1", "H1.1 T5.1", "H2.1 T6.1"]),
                    "HK.1", "HK.2", "H1.1", "H2.1")
    assert led_king.tricks[-1].winner == 0


def test_identical_taroks_on_a_suit_lead() -> None:
    state = playing("three", ["C7.1 T3.1", "T21.2 H1.1", "T21.1 H2.1", "T5.1 H3.1"])
    state = play(state, "C7.1", "T21.2", "T21.1", "T5.1")
    assert state.tricks[-1].winner == 2  # the blue mond: blue card led


@pytest.mark.parametrize(("plays", "winner"), [
    (("T22.2", "T21.1", "T1.1", "T1.2"), 3),  # both pagats: the one with the led back
    (("T22.1", "T21.2", "T1.2", "T1.1"), 3),
    (("T22.1", "T21.2", "T1.1", "T5.1"), 2),  # one of each: the pagat
])
def test_emperors_trick_with_duplicates(plays: tuple[str, ...], winner: int) -> None:
    state = playing("three", [f"{c} H{i + 1}.1" for i, c in enumerate(plays)])
    state = play(state, *plays)
    assert state.tricks[-1].winner == winner
    mond_owner = next(i for i, c in enumerate(plays) if c.startswith("T21"))
    assert state.mondfangs == (mond_owner,)


def test_both_monds_captured_by_skis_cost_two_mondfangs() -> None:
    state = playing("three", ["T22.1 H1.1", "T21.1 H2.1", "T21.2 H3.1", "T5.1 H4.1"])
    state = play(state, "T22.1", "T21.1", "T21.2", "T5.1")
    assert state.mondfangs == (1, 2)


def test_negative_contract_must_beat_with_the_identical_card_of_the_led_back() -> None:
    state = playing("klop", ["H1.1 T3.1", "HQ.2 T4.1", "HQ.1 H2.1 T5.1", "H3.1 T6.1"],
                    declarer=None)
    state = play(state, "H1.1", "HQ.2")
    assert legal_cards(state) == {"HQ.1"}  # the blue queen beats the red one: blue led
    state = playing("klop", ["HQ.2 T3.1", "HQ.1 H2.1 T4.1", "H1.1 T5.1", "H3.1 T6.1"],
                    declarer=None)
    state = play(state, "HQ.2")
    assert legal_cards(state) == {"HQ.1", "H2.1"}  # nothing beats the led red queen
    with pytest.raises(IllegalMove) as err:
        play(state, "T4.1")
    assert err.value.reason == m.Reason.MUST_FOLLOW_SUIT


def test_klop_gives_one_talon_card_to_each_of_the_first_twelve_tricks() -> None:
    import random

    state = do(dealt(6), *["pass"] * 5, "bid:klop")
    assert state.phase == TRICKS
    rng = random.Random(4)
    while not state.finished:
        state = do(state, rng.choice(ids(state)))
    assert state.gifts == cards(TALON_8) and state.talon == ()
    for trick, gift in zip(state.tricks, state.gifts, strict=False):
        assert gift in state.piles[trick.winner]
    res = DT.result(state)
    assert res is not None and res.contract == "klop" and len(state.tricks) == 16
    assert abs(sum(res.side_points) - 140) <= 2


def test_views_and_labels_show_the_back() -> None:
    state = deal8()
    view = DT.view(state, 1)
    assert {c.pack for c in view.hand} == {0, 1}
    state = do(state, *PASSES_8, "bid:three", "call:HK", "talon:0")
    assert DT.label(state, Move("discard", "S10.1")) == "Discard ♠10 (blue back)"
    assert DT.view(state, 5).public[0].cards == cards(TALON_8)


def _copies(state: SlovenianState) -> SlovenianState:
    """The same state with every card in the hands and the talon an equal new object."""

    def fresh(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(Card(c.suit, c.rank, c.pack) for c in cards)

    return replace(state, hands=tuple(fresh(h) for h in state.hands), talon=fresh(state.talon))


@pytest.mark.parametrize(
    ("players", "moves"),
    [
        (8, [*PASSES_8, "bid:three", "call:HK"]),
        (8, [*PASSES_8, "bid:two", "call:SK"]),
        (6, [*["pass"] * 5, "bid:three", "call:CK"]),
        (4, ["pass", "pass", "pass", "bid:six", "call:HK.2"]),
    ],
)
def test_call_with_equal_copies_of_the_cards_finds_the_same_partners(
    players: int, moves: list[str]
) -> None:
    """The holders of the called cards are found by identity first: hands holding equal cards
    that are not the deck's own objects give the same team (the equality fallback)."""
    start = deal8() if players == 8 else dealt(players)
    before = do(start, *moves[:-1])
    ours, copied = do(before, moves[-1]), do(_copies(before), moves[-1])
    assert copied.partners == ours.partners and copied.talon_kings == ours.talon_kings
    assert copied.called == ours.called
