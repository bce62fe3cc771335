"""Unit tests of the shared engine parts: cards, counting, auction, kontra, tricks, moves."""

from __future__ import annotations

import random

import pytest

from tarok_service.engine import kontra, tricks
from tarok_service.engine.auction import PASSED, Auction
from tarok_service.engine.cards import TAROK, Card, deal_packets, tarok54
from tarok_service.engine.counting import in_pairs, in_threes, plain, round5
from tarok_service.engine.moves import IllegalMove, Move

DECK = tarok54()


def c(codes: str) -> list[Card]:
    return [DECK.card(x) for x in codes.split()]


def test_deck_sizes_points_and_codes() -> None:
    assert len(DECK) == 54 and sum(DECK.points.values()) == 106
    assert in_threes(DECK.cards, DECK.points) == 70
    double = tarok54(packs=2)
    assert len(double) == 108 and in_threes(double.cards, double.points) == 140
    assert double.codes[Card("H", 8, 1)] == "HK.2" and "red back" in double.labels[Card("H", 8, 1)]
    assert DECK.codes[Card("H", 4)] == "H1" and DECK.codes[Card("S", 4)] == "S10"
    assert DECK.labels[Card(TAROK, 22)] == "Škis" and DECK.labels[Card(TAROK, 21)] == "XXI"


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        ("HK DK CK", 13),
        ("HK DK", 9),
        ("HK", 4),
        ("T2 T3 T4", 1),
        ("T2 T3 T4 T5", 1),
        ("HK DK CK SK", 17),
        ("", 0),
    ],
)
def test_counting_in_threes(pile: str, points: int) -> None:
    assert in_threes(c(pile), DECK.points) == points


def test_plain_and_pairs_counting() -> None:
    assert plain(c("HK T1 H1"), DECK.points) == 11
    assert in_pairs(c("HK T1 H1 H2"), DECK.points) == 12 - 2


@pytest.mark.parametrize(
    ("x", "r"),
    [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 5),
        (4, 5),
        (9, 10),
        (-1, 0),
        (-2, 0),
        (-3, -5),
        (-12, -10),
        (-13, -15),
    ],
)
def test_round5(x: int, r: int) -> None:
    assert round5(x) == r


def test_deal_packets_from_forehand() -> None:
    order = list(DECK.cards)
    hands, talon = deal_packets(order, 4, 1, 6, 6)
    assert talon == tuple(order[:6])
    assert hands[1][:6] == tuple(order[6:12]) and hands[2][:6] == tuple(order[12:18])
    assert all(len(h) == 12 for h in hands)


def test_auction_priorities_hold_and_final_choice() -> None:
    a = Auction(0, (None,) * 4)
    assert a.legal(1, list(range(12)), frozenset({0, 1})) == [PASSED, *range(2, 12)]
    a = a.bid(1, 2)
    assert a.legal(2, list(range(12)), frozenset({0, 1}))[:2] == [PASSED, 3]  # must go higher
    a = a.bid(2, PASSED).bid(3, PASSED)
    assert 2 in a.legal(0, list(range(12)), frozenset({0, 1}))  # forehand holds
    a = a.bid(0, PASSED)
    assert a.others_passed(1) and a.legal(1, list(range(12)), frozenset({0, 1}))[0] == 2
    assert a.next_bidder(0) == 1


def test_kontra_levels() -> None:
    assert [kontra.multiplier(level) for level in range(5)] == [1, 2, 4, 8, 16]
    assert kontra.can_raise(0, is_owner_side=False) and not kontra.can_raise(0, True)
    assert kontra.can_raise(1, True) and kontra.can_raise(2, False) and kontra.can_raise(3, True)
    assert not kontra.can_raise(4, False) and kontra.name(3) == "sub"


def test_trick_winner_basics_and_colour_valat() -> None:
    plain_rules = tricks.TrickRules()
    assert tricks.winning_index(c("HQ HK T2 H1"), plain_rules) == 2
    assert tricks.winning_index(c("HQ HK D1 H1"), plain_rules) == 1
    assert tricks.winning_index(c("T1 T22 T21 T5"), plain_rules) == 0  # emperor's trick
    no_trumps = tricks.TrickRules(trumps_win=False, emperor_needs_tarok_lead=True)
    assert tricks.winning_index(c("HQ T22 T21 T1"), no_trumps) == 0
    assert tricks.winning_index(c("T5 T22 T21 T1"), no_trumps) == 3


def _winning_index_by_definition(cards: list[Card], rules: tricks.TrickRules) -> int:
    """The emperor's pagat if the trick is one, else the card `beats` leaves best."""
    if rules.emperor and tricks.is_emperor(cards, rules):
        return tricks._emperor_pagat(cards, rules.trump)
    index = 0
    for i in range(1, len(cards)):
        if tricks.beats(cards[i], cards[index], cards[0], rules):
            index = i
    return index


@pytest.mark.parametrize("trumps_win", [True, False])
@pytest.mark.parametrize("order", [tricks.EMPEROR_ANY, tricks.EMPEROR_PAGAT_LAST,
                                   tricks.EMPEROR_MOND_SKIS_PAGAT])
@pytest.mark.parametrize("tie", [tricks.TIE_FIRST, tricks.TIE_LEAD_PACK, tricks.TIE_LAST])
def test_winning_index_equals_its_definition(trumps_win: bool, order: str, tie: str) -> None:
    """The inlined winner (the emperor checked only when the skis would win, when trumps
    win) equals the emperor rule then `beats`, on random tricks rich in trulas."""
    deck = tarok54(packs=2)
    trulas = [x for x in deck.cards if x.suit == TAROK and x.rank in (1, 21, 22)]
    rng = random.Random(f"{trumps_win}{order}{tie}")
    for lead in (False, True):
        rules = tricks.TrickRules(trumps_win=trumps_win, emperor_order=order, tie=tie,
                                  emperor_needs_tarok_lead=lead)
        for _ in range(400):
            pool = [*trulas, *rng.sample(deck.cards, 6)]
            cards = rng.sample(pool, rng.randint(2, 5))
            expected = _winning_index_by_definition(cards, rules)
            assert tricks.winning_index(cards, rules) == expected, cards


def test_identical_cards_back_tie_break() -> None:
    d = tarok54(packs=2)
    lead_pack = tricks.TrickRules(tie=tricks.TIE_LEAD_PACK)
    cards = [d.card("HQ.2"), d.card("HK.1"), d.card("HK.2")]
    assert tricks.winning_index(cards, lead_pack) == 2
    cards = [d.card("HK.1"), d.card("HK.2")]
    assert tricks.winning_index(cards, lead_pack) == 0


def test_move_ids_round_trip_and_errors() -> None:
    assert Move.parse("bid:two") == Move("bid", "two") and Move("pass").id == "pass"
    with pytest.raises(IllegalMove):
        Move.parse(":x")
