"""What each seat sees of a Czech taroky hand."""

from __future__ import annotations

from ...engine.cards import Card
from ...engine.moves import Move, MoveKind
from ...engine.outcome import HandResult
from ...engine.view import PublicCards, View, seat_view
from .state import DECK, Phase, TarokyState


def partner_known(s: TarokyState, seat: int | None) -> bool:
    """Whether `seat` knows the partner: he is the partner, or the partner showed himself by
    discarding the called tarok (face up), playing it or giving a reflek."""
    if s.partner is None:
        return False
    if seat == s.partner:
        return True
    played = any((s.partner, s.called) in t.plays for t in s.tricks)
    played = played or (s.partner, s.called) in s.trick or (s.partner, s.called) in s.discards
    reflek = any(
        f.seat == s.partner and f.kind == MoveKind.KONTRA and f.level % 2 == 0 for f in s.facts
    )
    return played or reflek


def _discards(s: TarokyState, seat: int | None) -> list[PublicCards]:
    """Taroks are discarded face up; a seat sees its own discards, nobody sees the others'."""
    groups = []
    for owner in range(s.players):
        mine = tuple(c for who, c in s.discards if who == owner)
        shown = mine if owner == seat else tuple(c for c in mine if c.is_tarok)
        if shown:
            groups.append(PublicCards("discards", shown, owner))
    return groups


def public_cards(s: TarokyState, seat: int | None) -> list[PublicCards]:
    """The face-up groups `seat` may see."""
    groups = [PublicCards(f"rejected talon {i + 1}", g, s.declarer) for i, g in enumerate(s.shown)]
    if s.phase == Phase.THIRD_TALON and seat is not None and seat == s.declarer:
        start = 3 * s.third_step
        groups.append(PublicCards("talon looked at", s.talon[start : start + 3], seat))
    got = tuple(c for who, c in s.received if who == seat)
    if got:
        groups.append(PublicCards("talon received", got, seat))
    groups += _discards(s, seat)
    if s.gifts:
        groups.append(PublicCards("talon cards given", tuple(c for _, c in s.gifts)))
    return groups


def build_view(
    s: TarokyState, seat: int | None, legal: tuple[Move, ...], result: HandResult | None
) -> View:
    """The view of `seat` (None: a spectator)."""
    partners = (s.partner,) if s.partner is not None and partner_known(s, seat) else ()
    called: Card | None = s.called
    return seat_view(
        s,
        seat,
        public=tuple(public_cards(s, seat)),
        facts=s.facts,
        contract=s.contract,
        declarer=s.declarer,
        partners=partners,
        called=DECK.codes[called] if called is not None else "",
        legal=legal,
        result=result,
    )
