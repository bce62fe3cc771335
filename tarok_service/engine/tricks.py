"""Trick mechanics shared by every rule set: what may be played, and who wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import moves as m
from .cards import MOND, PAGAT, SKIS, TAROK, Card

Play = tuple[int, Card]

# How two cards of equal suit and rank compare (two-deck games, Bolognese Moors).
TIE_FIRST = "first"  # the card played first keeps the trick
TIE_LEAD_PACK = "lead_pack"  # the card from the pack of the card led wins
TIE_LAST = "last"  # the card played last wins

EMPEROR_ANY = "any"
EMPEROR_PAGAT_LAST = "pagat_last"
EMPEROR_MOND_SKIS_PAGAT = "mond_skis_pagat"


@dataclass(frozen=True, slots=True)
class TrickRules:
    """The parameters that make one contract's trick play differ from another's."""

    trumps_win: bool = True  # False in colour valat: a tarok never beats a suit card
    must_overtake: bool = False  # negative contracts: beat the best card of the suit played
    pagat_last: bool = False  # the pagat may be played only as the sole legal card
    emperor: bool = True  # skis, mond and pagat in one trick: the pagat wins
    emperor_needs_tarok_lead: bool = False  # colour valat: the emperor's trick needs a tarok led
    emperor_order: str = EMPEROR_ANY
    tie: str = TIE_FIRST
    trump: str = TAROK


def has_suit(hand: Sequence[Card], suit: str) -> bool:
    return any(c.suit == suit for c in hand)


def obliged_suit(hand: Sequence[Card], led: Card, trump: str = TAROK) -> str | None:
    """The suit a follower must play: the led suit, else a trump, else None (anything)."""
    if has_suit(hand, led.suit):
        return led.suit
    if has_suit(hand, trump):
        return trump
    return None


def is_emperor(cards: Sequence[Card], rules: TrickRules) -> bool:
    """Whether skis, mond and pagat are all in these cards in an order the rules accept."""
    ranks = [c.rank for c in cards if c.suit == rules.trump]
    if not (SKIS in ranks and MOND in ranks and PAGAT in ranks):
        return False
    if rules.emperor_needs_tarok_lead and cards[0].suit != rules.trump:
        return False
    if rules.emperor_order == EMPEROR_PAGAT_LAST:
        return ranks.index(PAGAT) > max(ranks.index(SKIS), ranks.index(MOND))
    if rules.emperor_order == EMPEROR_MOND_SKIS_PAGAT:
        return ranks.index(MOND) < ranks.index(SKIS) < ranks.index(PAGAT)
    return True


def beats(card: Card, best: Card, led: Card, rules: TrickRules) -> bool:
    """Whether `card` takes the trick from the current `best` card."""
    if card.suit == best.suit:
        if card.rank != best.rank:
            return card.rank > best.rank
        if rules.tie == TIE_LAST:
            return True
        return rules.tie == TIE_LEAD_PACK and card.pack == led.pack and best.pack != led.pack
    return rules.trumps_win and card.suit == rules.trump


def winning_index(cards: Sequence[Card], rules: TrickRules) -> int:
    """Index of the winning card among the cards of a trick, in playing order."""
    if rules.emperor and is_emperor(cards, rules):
        pagats = [i for i, c in enumerate(cards) if c.suit == rules.trump and c.rank == PAGAT]
        if len(pagats) == 1:
            return pagats[0]
        led = cards[0]
        return next((i for i in pagats if cards[i].pack == led.pack), pagats[0])
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], cards[0], rules):
            best = i
    return best


def winner(plays: Sequence[Play], rules: TrickRules) -> int:
    """Seat that wins a complete trick."""
    return plays[winning_index([c for _, c in plays], rules)][0]


def _card_to_beat(trick: Sequence[Card], suit: str, rules: TrickRules) -> Card | None:
    """The best card of `suit` in the trick that a negative-contract follower must beat."""
    trump_in = any(c.suit == rules.trump for c in trick)
    if suit != rules.trump and trump_in:
        return None
    if suit == rules.trump and not trump_in:
        return None
    best: Card | None = None
    for c in trick:
        if c.suit == suit and (best is None or c.rank > best.rank):
            best = c
    return best


def _is_pagat(card: Card, rules: TrickRules) -> bool:
    return card.suit == rules.trump and card.rank == PAGAT


def _without_pagat(cards: list[Card], rules: TrickRules) -> list[Card]:
    if len(cards) <= 1:
        return cards
    rest = [c for c in cards if not _is_pagat(c, rules)]
    return rest or cards


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules, held: Sequence[Card] = ()
) -> list[Card]:
    """Cards the player may play now. `held` are cards to keep for the last trick if possible."""
    cards = _candidates(hand, trick, rules)
    if held and len(hand) > 1:
        kept = [c for c in cards if c not in held]
        cards = kept or cards
    return cards


def _candidates(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> list[Card]:
    if not trick:
        return _without_pagat(list(hand), rules) if rules.pagat_last else list(hand)
    suit = obliged_suit(hand, trick[0], rules.trump)
    if suit is None:
        return list(hand)
    cards = [c for c in hand if c.suit == suit]
    if not rules.must_overtake:
        return cards
    if suit == rules.trump and rules.emperor and _emperor_completes(hand, trick, rules):
        return [c for c in cards if _is_pagat(c, rules)]
    to_beat = _card_to_beat(trick, suit, rules)
    if to_beat is not None:
        higher = [c for c in cards if c.rank > to_beat.rank]
        cards = higher or cards
    return _without_pagat(cards, rules) if rules.pagat_last else cards


def _emperor_completes(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> bool:
    """Whether the player holds the pagat and the trick already has skis and mond."""
    if not any(_is_pagat(c, rules) for c in hand):
        return False
    ranks = {c.rank for c in trick if c.suit == rules.trump}
    return SKIS in ranks and MOND in ranks


def explain(hand: Sequence[Card], trick: Sequence[Card], card: Card, rules: TrickRules) -> str:
    """The reason code for playing `card` when it is not legal."""
    if card not in hand:
        return m.NOT_IN_HAND
    if trick:
        suit = obliged_suit(hand, trick[0], rules.trump)
        if suit is not None and card.suit != suit:
            return m.MUST_FOLLOW_SUIT if suit == trick[0].suit else m.MUST_PLAY_TAROK
        if _is_pagat(card, rules) and rules.pagat_last:
            return m.PAGAT_HELD_BACK
        if rules.must_overtake:
            return m.MUST_OVERTAKE
    elif _is_pagat(card, rules) and rules.pagat_last:
        return m.PAGAT_HELD_BACK
    return m.ULTIMO_CARD_HELD
