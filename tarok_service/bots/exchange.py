"""The declarer's other decisions: which talon group to take, whom to call, what to lay away."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import FOOL, MOND, PAGAT, SKIS, TAROK, Card, Deck
from ..engine.moves import Move, MoveKind
from ..engine.view import View
from .bidding import is_king


def group_value(cards: Sequence[Card], deck: Deck) -> float:
    """What a talon group is worth to the declarer: card points, taroks, the big taroks."""
    value = float(sum(deck.points[c] for c in cards))
    for c in cards:
        if c.suit == TAROK:
            value += 1.5 + (3.0 if c.rank in (SKIS, MOND) else 0.0)
    return value


def choose_talon(view: View, deck: Deck) -> Move:
    """The richest talon group (`talon:<i>`), or the first legal move when the groups are not
    visible as one face-up talon (other exchange styles)."""
    picks = [mv for mv in view.legal if mv.kind == MoveKind.TALON]
    talon = next((g.cards for g in view.public if g.name == "talon"), ())
    if not picks or not talon or not all(mv.value.isdigit() for mv in picks):
        return view.legal[0]
    size = len(talon) // len(picks)
    if size == 0:
        return picks[0]

    def worth(mv: Move) -> float:
        i = int(mv.value)
        return group_value(talon[i * size : (i + 1) * size], deck)

    return max(picks, key=worth)


def choose_call(view: View, deck: Deck) -> Move:
    """Call a card the bot does not hold, in the suit where it holds most (so that it can lead
    to its partner); the first legal call when the values are not card codes."""
    calls = [mv for mv in view.legal if mv.kind == MoveKind.CALL]
    if not calls or not all(mv.value in deck.by_code for mv in calls):
        return calls[0] if calls else view.legal[0]
    hand = set(view.hand)

    def key(mv: Move) -> tuple[bool, int, int]:
        card = deck.by_code[mv.value]
        mine = [c for c in view.hand if c.suit == card.suit]
        return (card not in hand, len(mine), sum(deck.points[c] for c in mine))

    return max(calls, key=key)


def choose_discard(view: View, deck: Deck) -> Move:
    """Lay away suit cards, never a tarok unless forced: empty the shortest suit that can be
    emptied (no king in it), banking its points (discards count for the declarer)."""
    moves = [mv for mv in view.legal if mv.kind == MoveKind.DISCARD and mv.value in deck.by_code]
    if not moves:
        return view.legal[0]

    def key(mv: Move) -> tuple[bool, bool, int, int, int]:
        card = deck.by_code[mv.value]
        if card.suit in (TAROK, FOOL):
            return (True, card.rank in (PAGAT, MOND, SKIS), card.rank, 0, 0)
        same = [c for c in view.hand if c.suit == card.suit]
        king_held = any(is_king(c, deck) for c in same)
        return (False, king_held, len(same), -deck.points[card], -card.rank)

    return min(moves, key=key)
