"""The heuristic bot's rules of thumb, on positions written out by hand."""

from __future__ import annotations

from dataclasses import replace

from tarok_service.bots.bidding import choose_bid, strength
from tarok_service.bots.exchange import choose_discard
from tarok_service.bots.play import choose_card
from tarok_service.bots.situation import Situation, default_rules
from tarok_service.engine.cards import Card
from tarok_service.engine.inference import infer_voids
from tarok_service.engine.moves import Move
from tarok_service.engine.view import View
from tarok_service.variants.slovenian.rules import SLOVENIAN

RULES = SLOVENIAN.make_rules(4)
DECK = SLOVENIAN.deck(RULES)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(DECK.card(code) for code in text.split())


def situation(
    hand: str,
    trick: list[tuple[int, str]] | None = None,
    legal: str | None = None,
    gone: str = "",
    friends: tuple[int, ...] = (),
    negative: bool = False,
    seat: int = 0,
) -> Situation:
    plays = tuple((s, DECK.card(code)) for s, code in (trick or []))
    held, out = cards(hand), cards(gone)
    seen = set(held) | set(out) | {c for _, c in plays}
    return Situation(
        seat=seat,
        players=4,
        hand=held,
        legal=cards(legal) if legal is not None else held,
        trick=plays,
        gone=frozenset(out),
        unseen=frozenset(c for c in DECK.cards if c not in seen),
        friends=frozenset(friends),
        negative=negative,
        points=DECK.points,
        deck=DECK.cards,
        rules=default_rules(DECK, "three"),
    )


def code(card: Card) -> str:
    return DECK.codes[card]


def test_never_leads_the_pagat_or_an_unsafe_mond() -> None:
    sit = situation("T1 T21 T5")
    assert code(choose_card(sit)) == "T5"


def test_leads_a_safe_mond_when_the_skis_is_gone() -> None:
    sit = situation("T1 T21", gone="T22")
    assert code(choose_card(sit)) == "T21"


def test_follows_low_when_it_cannot_win() -> None:
    sit = situation("HQ H4 H1 T9", trick=[(1, "HK")], legal="HQ H4 H1")
    assert code(choose_card(sit)) in ("H4", "H1")


def test_takes_a_rich_trick_with_the_cheapest_winning_card_when_last() -> None:
    sit = situation("T8 T15 T20 S7", trick=[(1, "HK"), (2, "HQ"), (3, "T5")], legal="T8 T15 T20")
    assert code(choose_card(sit)) == "T8"


def test_smears_points_on_a_partner_who_wins() -> None:
    sit = situation("HK H4 D1", trick=[(1, "S7"), (2, "T22"), (3, "S8")], friends=(2,))
    assert code(choose_card(sit)) == "HK"


def test_does_not_give_a_mond_to_a_skis() -> None:
    trick = [(1, "S7"), (2, "T22"), (3, "S8")]
    sit = situation("T21 T3", trick=trick, friends=(2,))
    assert code(choose_card(sit)) == "T3"


def test_catches_an_opponents_mond_with_the_skis() -> None:
    sit = situation("T22 T10 T2", trick=[(1, "T21")])
    assert code(choose_card(sit)) == "T22"


def test_keeps_the_pagat_when_ducking() -> None:
    sit = situation("T1 T4 T16", trick=[(1, "T20")])
    assert code(choose_card(sit)) == "T4"


def test_klop_stays_under_the_trick_with_the_highest_card() -> None:
    trick = [(1, "H2"), (2, "HJ")]
    sit = situation("HK HC H3 H4", trick=trick, legal="HK HC H3 H4", negative=True)
    assert code(choose_card(sit)) == "H3"


def test_discards_suit_cards_from_the_shortest_suit() -> None:
    hand = cards("T3 T4 T9 T10 T15 HK HQ DQ D4 C7 C8 SJ SK S7 S8 T2 T5 T6")
    legal = tuple(Move("discard", code(c)) for c in hand if c.rank != 8 or c.is_tarok)
    view = blank_view(hand, legal)
    assert choose_discard(view, DECK).value == "DQ"


def test_passes_with_a_weak_hand_and_bids_with_a_strong_one() -> None:
    weak = cards("T2 T3 H4 H3 D4 D3 C7 C8 S7 S8 SC DJ")
    strong = cards("T22 T21 T20 T19 T18 T17 T16 T15 HK DK C7 S7")
    legal = (Move("pass"), Move("bid", "two"), Move("bid", "one"), Move("bid", "solo_three"))
    assert choose_bid(blank_view(weak, legal), DECK) == Move("pass")
    assert strength(weak, DECK) < 4 and strength(strong, DECK) > 13
    assert choose_bid(blank_view(strong, legal), DECK) == Move("bid", "two")
    forced = (Move("bid", "klop"), Move("bid", "three"), Move("bid", "two"), Move("bid", "one"))
    assert choose_bid(blank_view(weak, forced), DECK) == Move("bid", "klop")
    assert choose_bid(blank_view(strong, forced), DECK) == Move("bid", "one")
    final = (*forced, Move("bid", "solo_one"), Move("bid", "valat"))
    assert choose_bid(blank_view(strong, final), DECK) == Move("bid", "solo_one")


def test_voids_from_the_trick_history() -> None:
    trick = tuple((s, DECK.card(c)) for s, c in [(0, "HK"), (1, "T5"), (2, "S7"), (3, "H1")])
    assert infer_voids([trick]) == {1: {"H"}, 2: {"H", "T"}}


def blank_view(hand: tuple[Card, ...], legal: tuple[Move, ...]) -> View:
    view = View(
        seat=0, phase="bidding", turn=0, dealer=3, hand=hand, hand_sizes=(len(hand),) * 4,
        trick=(), last_trick=(), tricks_won=(0,) * 4, public=(), facts=(), contract="",
        declarer=None, partners=(), called="", legal=legal, result=None,
    )  # fmt: skip
    return replace(view)
