"""Which cards may be played: follow suit; on trumps (led, or trumping a suit one is out of)
play higher than every trump in the trick when one can; the excuse may always be played and
a trick it leads takes its suit from the second card."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import moves as m
from ...engine.cards import TAROK, Card
from .data import EXCUSE


def led(trick: Sequence[Card]) -> Card | None:
    """The card that sets the suit to follow: the first one that is not the excuse."""
    return next((c for c in trick if c != EXCUSE), None)


def _required(hand: Sequence[Card], trick: Sequence[Card]) -> tuple[list[Card], str]:
    """The cards other than the excuse that may be played, and the duty that limits them."""
    rest = [c for c in hand if c != EXCUSE]
    first = led(trick)
    if first is None or not rest:
        return rest, ""
    if first.suit != TAROK:
        suit = [c for c in rest if c.suit == first.suit]
        if suit:
            return suit, m.Reason.MUST_FOLLOW_SUIT
    trumps = [c for c in rest if c.suit == TAROK]
    if not trumps:
        return rest, ""
    best = max((c.rank for c in trick if c.suit == TAROK), default=0)
    higher = [c for c in trumps if c.rank > best]
    if higher:
        return higher, m.Reason.MUST_OVERTAKE
    return trumps, m.Reason.MUST_PLAY_TAROK


def first_lead(hand: Sequence[Card], called: Card) -> list[Card]:
    """5 players, first trick: no card of the called suit but the called card itself is led
    (the ban lapses when nothing else is left)."""
    cards = [c for c in hand if c.suit != called.suit or c == called]
    return cards or list(hand)


def playable(hand: Sequence[Card], trick: Sequence[Card], called: Card | None = None) -> list[Card]:
    """The legal cards in hand order; `called` names the called card when the first lead is
    restricted."""
    if not trick and called is not None:
        return first_lead(hand, called)
    cards, _ = _required(hand, trick)
    return [c for c in hand if c == EXCUSE or c in cards]


def refusal(
    hand: Sequence[Card], trick: Sequence[Card], card: Card, called: Card | None = None
) -> str:
    """The reason code for playing `card` when it is not legal."""
    if card not in hand:
        return m.Reason.CARD_NOT_IN_HAND
    if not trick and called is not None:
        return m.Reason.CALL_NOT_ALLOWED
    _, duty = _required(hand, trick)
    if duty == m.Reason.MUST_OVERTAKE and card.suit != TAROK:
        return m.Reason.MUST_PLAY_TAROK
    return duty or m.Reason.ILLEGAL_MOVE
