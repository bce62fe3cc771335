"""What each seat sees of a Slovenian hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.moves import Move
from ..engine.view import PublicCards, View

if TYPE_CHECKING:
    from .slovenian import Slovenian, SlovenianState


def partner_known(s: SlovenianState, seat: int | None) -> bool:
    """Whether `seat` knows who the partner is: he is the partner, or the partner showed himself
    (played the called card, announced king ultimo, or raised a kontra for the declarer side)."""
    if s.partner is None:
        return False
    if seat == s.partner:
        return True
    played = any(c == s.called for tr in s.tricks for c in tr.cards)
    played = played or any(c == s.called for _, c in s.trick)
    spoke = any(
        f.seat == s.partner
        and (
            (f.kind == "announce" and f.value == "king_ultimo")
            or (f.kind == "kontra" and f.level % 2 == 0)
        )
        for f in s.facts
    )
    return played or spoke


def public_cards(variant: Slovenian, s: SlovenianState, seat: int | None) -> list[PublicCards]:
    groups = []
    if s.exposed_talon:
        groups.append(PublicCards("talon", s.exposed_talon))
    if s.discards:
        shown = tuple(c for c in s.discards if c.is_tarok or seat == s.declarer)
        if shown:
            groups.append(PublicCards("discards", shown, s.declarer))
    if s.gifts:
        groups.append(PublicCards("talon cards given", s.gifts))
    c = variant.contract_table[s.contract] if s.contract >= 0 else None
    if c is not None and c.id == "open_beggar" and s.tricks and s.declarer is not None:
        groups.append(PublicCards("declarer's hand", s.hands[s.declarer], s.declarer))
    return groups


def build_view(
    variant: Slovenian, s: SlovenianState, seat: int | None, legal: tuple[Move, ...]
) -> View:
    partners = (s.partner,) if s.partner is not None and partner_known(s, seat) else ()
    return View(
        seat=seat,
        phase=s.phase,
        turn=s.turn,
        dealer=s.dealer,
        hand=s.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in s.hands),
        trick=s.trick,
        last_trick=s.tricks[-1].plays if s.tricks else (),
        tricks_won=s.tricks_won(),
        public=tuple(public_cards(variant, s, seat)),
        facts=s.facts,
        contract=variant.contract_table[s.contract].id if s.contract >= 0 else "",
        declarer=s.declarer,
        partners=partners,
        called=variant.deck(s.rules).codes[s.called] if s.called is not None else "",
        legal=legal,
        result=variant.result(s) if s.finished else None,
    )
