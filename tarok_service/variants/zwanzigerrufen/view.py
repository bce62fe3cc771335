"""What each seat sees of a Zwanzigerrufen hand: own hand, the table and public facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.moves import Move, MoveKind
from ...engine.view import Fact, View, seat_view
from . import data as d
from .state import ZwanzigerState

if TYPE_CHECKING:
    from .rules import Zwanzigerrufen


def shows_playing_side(f: Fact) -> bool | None:
    """The side an announcement or kontra shows its maker on (True: the caller's); None when
    the fact shows no side."""
    if f.kind not in (MoveKind.ANNOUNCE, MoveKind.KONTRA):
        return None
    owner = d.owned_by_playing_side(f.value)
    return owner if f.kind == MoveKind.ANNOUNCE else owner == (f.level % 2 == 0)


def _sides_shown(s: ZwanzigerState) -> bool:
    """Whether the facts show the partner: he spoke for the caller's side, or both other
    players spoke against it."""
    against = set()
    for f in s.facts:
        side = shows_playing_side(f)
        if side and f.seat == s.partner:
            return True
        if side is False and f.seat is not None:
            against.add(f.seat)
    return len(against) == 2


def partner_known(s: ZwanzigerState, seat: int | None) -> bool:
    """Whether `seat` knows the called tarok's holder: it is his card, the card has been played,
    the partner's own announcements showed him, or the hand is over."""
    if s.partner is None:
        return False
    if seat == s.partner or s.finished:
        return True
    played = any(c == s.called for tr in s.tricks for c in tr.cards)
    played = played or any(c == s.called for _, c in s.trick)
    return played or _sides_shown(s)


def build_view(
    variant: Zwanzigerrufen, s: ZwanzigerState, seat: int | None, legal: tuple[Move, ...]
) -> View:
    partners = (s.partner,) if s.partner is not None and partner_known(s, seat) else ()
    return seat_view(
        s,
        seat,
        public=(),
        facts=s.facts,
        contract=s.game,
        declarer=s.declarer,
        partners=partners,
        called=variant.deck(s.rules).codes[s.called] if s.called is not None else "",
        legal=legal,
        result=variant.result(s) if s.finished else None,
    )
