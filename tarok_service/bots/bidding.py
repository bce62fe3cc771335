"""Bidding by hand strength, generic over the rule sets (bids come in ascending order)."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import FOOL, MOND, SKIS, TAROK, Card, Deck
from ..engine.moves import Move, MoveKind
from ..engine.view import View
from .situation import NEGATIVE_CONTRACTS

NEVER = 99.0
# The strength (see `strength`, scaled to a 12-card hand; the median 54-card hand scores
# about 6.7, one in ten over 9.5) from which a contract pays on average, calibrated for
# Slovenian tarok by playing each contract from many deals with the heuristic in every seat
# (declarer's mean score > 0 and above the contract below). Ids not listed are never bid
# unless forced; negative contracts are judged by `suits_negative` instead.
NEEDS: dict[str, float] = {
    # Slovenian, 4 players
    "three": 6.0,
    "two": 7.0,
    "one": 9.5,
    "solo_three": 10.0,
    "solo_two": 11.0,
    "solo_one": 12.0,
    "solo_without": 13.0,
    "valat": 21.0,
    # Czech taroky obligations (forehand must name one; "basic" is the least)
    "basic": 0.0,
    "second": 11.0,
    "third": 12.0,
    "sixth": 13.0,
}
DOUBLE_NEEDS: dict[str, float] = {  # two-deck tarok (a guess on the same scale)
    "six": 6.0, "four": 7.0, "three": 8.0, "two": 9.0, "one": 10.0, "solo_six": 10.5,
    "solo_four": 11.0, "solo_three": 11.5, "solo_two": 12.0, "solo_one": 12.5,
    "solo_without": 14.0,
}  # fmt: skip
# Overrides by deck name and player count (three players: the declarer plays alone).
NEEDS_FOR: dict[tuple[str, int], dict[str, float]] = {
    ("tarok54", 3): {"three": 7.5, "two": 8.5, "one": 9.5, "solo_without": 11.0},
    **{("tarok108", n): DOUBLE_NEEDS for n in (4, 6, 8)},
    ("tarock40", 4): {"call": 9.0, "solo": 14.0},  # Zwanzigerrufen: half the pack is taroks
    # French Tarot (a guess on the same scale: a quarter of the pack is trumps)
    **{
        ("tarot78", n): {"prise": 4.5, "garde": 6.0, "garde_sans": 8.0, "garde_contre": 9.5}
        for n in (3, 4, 5)
    },
}
KLOP_BELOW = 6.0  # forehand, left to choose, plays klop rather than a losing three


def strength(hand: Sequence[Card], deck: Deck) -> float:
    """A rough trick-taking strength, scaled to a 12-card hand (see NEEDS for the scale):
    taroks, high taroks, skis and mond, suit kings, and voids when there are taroks to ruff."""
    if not hand:
        return 0.0
    top = max((c.rank for c in deck.cards if c.suit == TAROK), default=0)
    taroks = [c for c in hand if c.suit == TAROK]
    score = float(len(taroks))
    score += 0.5 * sum(1 for c in taroks if c.rank >= top - 5)
    score += sum(1.0 if c.rank == SKIS else 0.5 if c.rank == MOND else 0.0 for c in taroks)
    score += 0.75 * sum(1 for c in hand if is_king(c, deck))
    if len(taroks) * 3 >= len(hand):
        suits = {c.suit for c in deck.cards if c.suit not in (TAROK, FOOL)}
        score += 0.5 * sum(1 for s in suits if not any(c.suit == s for c in hand))
    return score * 12 / len(hand)


def is_king(card: Card, deck: Deck) -> bool:
    if card.suit in (TAROK, FOOL):
        return False
    return card.rank == max(c.rank for c in deck.cards if c.suit == card.suit)


def suits_negative(contract: str, hand: Sequence[Card], deck: Deck, power: float) -> bool:
    """Whether the hand suits a contract where one wants no tricks (or few points)."""
    if contract in ("klop", "varsava"):
        return power < KLOP_BELOW
    if contract == "beggar":
        taroks = [c for c in hand if c.suit == TAROK]
        high_suit = [c for c in hand if c.suit != TAROK and c.rank >= 6]
        return len(taroks) <= 2 and all(c.rank <= 6 for c in taroks) and not high_suit
    return False


def acceptable(move: Move, view: View, deck: Deck, power: float) -> bool:
    """Whether the hand is good enough for the bid `move`."""
    if move.value in NEGATIVE_CONTRACTS:
        return suits_negative(move.value, view.hand, deck, power)
    table = NEEDS_FOR.get((deck.name, len(view.hand_sizes)), {})
    return table.get(move.value, NEEDS.get(move.value, NEVER)) <= power


def choose_bid(view: View, deck: Deck) -> Move:
    """Pass when weak, else the lowest bid the hand is good for; when a pass is not allowed
    (the final word, or an opening bid), the highest contract the hand is good for, else the
    lowest positive one."""
    bids = [mv for mv in view.legal if mv.kind == MoveKind.BID]
    passes = [mv for mv in view.legal if mv.kind == MoveKind.PASS]
    power = strength(view.hand, deck)
    good = [mv for mv in bids if acceptable(mv, view, deck, power)]
    positive = [mv for mv in good if mv.value not in NEGATIVE_CONTRACTS]
    if passes:
        return (positive or good)[0] if good else passes[0]
    if positive:
        return positive[-1]
    if good:
        return good[0]
    plain = [mv for mv in bids if mv.value not in NEGATIVE_CONTRACTS]
    return (plain or bids or list(view.legal))[0]
