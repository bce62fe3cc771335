"""What each seat sees of a Slovenian hand."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ...engine.moves import Move, MoveKind
from ...engine.view import PublicCards, View, seat_view
from .state import SlovenianState

if TYPE_CHECKING:
    from .rules import SlovenianFamily as Slovenian


def partner_known(
    s: SlovenianState, seat: int | None, partner: int, revealing: Collection[str]
) -> bool:
    """Whether `seat` knows that `partner` is a partner: he is that partner, or the partner
    showed himself (played a called card, announced a `revealing` item such as king ultimo,
    or raised a kontra for the declarer side)."""
    if seat == partner:
        return True
    called = s.called
    plays = [p for tr in s.tricks for p in tr.plays] + [*s.trick]
    played = any(who == partner and c in called for who, c in plays)
    spoke = any(
        f.seat == partner
        and (
            (f.kind == MoveKind.ANNOUNCE and f.value in revealing)
            or (f.kind == MoveKind.KONTRA and f.level % 2 == 0)
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
    if (
        c is not None
        and c.id in variant.open_hand_contracts
        and s.tricks
        and s.declarer is not None
    ):
        groups.append(PublicCards("declarer's hand", s.hands[s.declarer], s.declarer))
    return groups


def build_view(
    variant: Slovenian, s: SlovenianState, seat: int | None, legal: tuple[Move, ...]
) -> View:
    reveal = variant.revealing_items
    partners = tuple(p for p in s.partners if partner_known(s, seat, p, reveal))
    codes = variant.deck(s.rules).codes
    return seat_view(
        s,
        seat,
        public=tuple(public_cards(variant, s, seat)),
        facts=s.facts,
        contract=variant.contract_table[s.contract].id if s.contract >= 0 else "",
        declarer=s.declarer,
        partners=partners,
        called=",".join(codes[c] for c in s.called),
        legal=legal,
        result=variant.result(s) if s.finished else None,
    )
