"""The 62-card pack and the Bolognese trick rules (the engine's excuse card, the Moors' tie)."""

from __future__ import annotations

from tarok_service.engine import moves as m
from tarok_service.engine import tricks as t
from tarok_service.engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    MATTO_CARD,
    SPADES,
    TAROK,
    tarocco62,
    tarok54,
)
from tarok_service.engine.counting import in_pairs
from tarok_service.variants.tarocco_bolognese.rules import TRICK_RULES

from .bolognese_helpers import cards


def test_pack_has_62_distinct_cards_worth_118_raw_and_87_in_pairs() -> None:
    deck = tarocco62()
    assert len(deck) == 62 and len(set(deck.cards)) == 62
    assert deck.total_points(deck.cards) == 118
    assert in_pairs(deck.cards, deck.points) == 87
    assert len(set(deck.labels.values())) == 62


def test_suit_letters_do_not_collide_with_the_54_card_pack() -> None:
    suits = {c.suit for c in tarocco62().cards}
    assert suits.isdisjoint({HEARTS, DIAMONDS, CLUBS, SPADES})
    ours, theirs = tarocco62(), tarok54()
    shared = set(ours.by_code) & set(theirs.by_code)
    assert shared == {f"T{n}" for n in range(5, 17)}  # numbered trumps keep their number
    assert all(ours.card(code) == theirs.card(code) for code in shared)


def test_card_values() -> None:
    deck = tarocco62()
    fives = "TAngel TWorld TBegato Matto SwK BaK CuK CoK"
    assert {deck.points[c] for c in cards(fives)} == {5}
    assert [deck.points[c] for c in cards("SwQ CuC CoJ")] == [4, 3, 2]
    ones = "TSun TMoon T16 T5 TMoor1 TMoor4 Sw10 SwA CuA Cu10 Co6"
    assert {deck.points[c] for c in cards(ones)} == {1}


def _ranked(codes: str) -> bool:
    """Whether each card beats every later one when led in its own suit."""
    seq = cards(codes)
    return all(
        t.winning_index([low, high], TRICK_RULES) == 1
        for i, high in enumerate(seq)
        for low in seq[i + 1 :]
    )


def test_suit_orders_long_and_round() -> None:
    assert _ranked("SwK SwQ SwC SwJ Sw10 Sw9 Sw8 Sw7 Sw6 SwA")
    assert _ranked("BaK BaQ BaC BaJ Ba10 Ba9 Ba8 Ba7 Ba6 BaA")
    assert _ranked("CuK CuQ CuC CuJ CuA Cu6 Cu7 Cu8 Cu9 Cu10")
    assert _ranked("CoK CoQ CoC CoJ CoA Co6 Co7 Co8 Co9 Co10")


def test_trump_order() -> None:
    numbered = " ".join(f"T{n}" for n in range(16, 4, -1))
    assert _ranked(f"TAngel TWorld TSun TMoon {numbered} TMoor1 TBegato")


def test_last_moor_played_wins_among_moors() -> None:
    trick = cards("TMoor3 TMoor1 TMoor4 TMoor2")
    assert t.winning_index(trick, TRICK_RULES) == 3
    assert t.winning_index(cards("Sw6 TMoor2 TMoor1 TBegato"), TRICK_RULES) == 2
    assert t.winning_index(cards("TMoor2 T5 TMoor1 Sw9"), TRICK_RULES) == 1


def test_matto_never_wins_and_when_led_the_next_card_sets_the_suit() -> None:
    assert t.winning_index(cards("Matto Cu9 Cu10 CuK"), TRICK_RULES) == 3
    assert t.winning_index(cards("Matto Cu9 Sw10 Co6"), TRICK_RULES) == 1
    assert t.winning_index(cards("SwK Matto Sw6 SwA"), TRICK_RULES) == 0
    assert t.winning_index(cards("Cu10 Sw6 Matto T5"), TRICK_RULES) == 3


def test_follow_suit_else_trump_else_anything_matto_always() -> None:
    hand = cards("Matto SwK Sw6 T5 CuA")
    assert t.legal_plays(hand, cards("Sw9"), TRICK_RULES) == list(cards("SwK Sw6 Matto"))
    assert t.legal_plays(hand, cards("Co9"), TRICK_RULES) == list(cards("T5 Matto"))
    no_trump = cards("Matto SwK CuA")
    assert t.legal_plays(no_trump, cards("Co9"), TRICK_RULES) == list(no_trump[1:] + no_trump[:1])
    assert t.legal_plays(hand, cards("Matto Cu9"), TRICK_RULES) == list(cards("CuA Matto"))
    assert t.legal_plays(hand, cards("Matto"), TRICK_RULES) == list(hand[1:] + hand[:1])
    assert t.legal_plays(cards("Matto"), cards("Sw9 T16"), TRICK_RULES) == [MATTO_CARD]


def test_no_duty_to_overtrump() -> None:
    hand = cards("TAngel T5 Cu6")
    assert t.legal_plays(hand, cards("Sw9 T16"), TRICK_RULES) == list(cards("TAngel T5"))


def test_explain_with_the_matto_in_hand_or_trick() -> None:
    hand = cards("Matto SwK T5")
    assert t.explain(hand, cards("Sw9"), cards("T5")[0], TRICK_RULES) == m.Reason.MUST_FOLLOW_SUIT
    assert (
        t.explain(hand, cards("Matto Co9"), cards("SwK")[0], TRICK_RULES)
        == m.Reason.MUST_PLAY_TAROK
    )
    assert t.explain(hand, (), cards("CuK")[0], TRICK_RULES) == m.Reason.CARD_NOT_IN_HAND


def test_default_trick_rules_have_no_excuse() -> None:
    plain = t.TrickRules()
    assert plain.excuse is None
    led = cards("Sw9")
    hand = cards("Matto SwK T5")
    assert t.legal_plays(hand, led, plain) == list(cards("SwK"))
    assert t.winning_index([MATTO_CARD, *cards("Sw6")], plain) == 0
    assert MATTO_CARD.suit != TAROK
