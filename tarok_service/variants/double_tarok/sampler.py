"""A `Sampler` for double tarok: the Slovenian sampler over two packs and several called cards.

Double tarok is the Slovenian family with two packs (its state's called cards, partners and
captured monds are tuples that may hold several), so the Slovenian sampler does the work,
the state included; this one changes what the facts say about who holds what:
- with two copies of every card, an announced pagat ultimo (or king ultimo) says only that the
  announcer holds one of the two pagats (one of the called kings), and with 6 and 8 players a
  partner who has shown himself holds one of the two called kings: such facts pin one copy,
  chosen at random, to the seat;
- the talon may have been taken card by card (option `talon_exchange=free`).
"""

from __future__ import annotations

from dataclasses import replace

from ...engine.cards import KING, PAGAT, QUEEN, TAROK, Card, Deck
from ...engine.inference import called_cards, completed_tricks, infer_voids
from ...engine.moves import MoveKind
from ...engine.sampling import Allowed, Must, Rng, choose_holders
from ...engine.view import View
from ..slovenian.sampler import Known, SlovenianSampler
from . import data as dd
from .rules import DOUBLE_TAROK, DoubleTarok


class DoubleTarokSampler(SlovenianSampler):
    """Samples double-tarok hands (4, 6 and 8 players)."""

    def __init__(self, variant: DoubleTarok = DOUBLE_TAROK) -> None:
        super().__init__(variant)

    # --- what is known ------------------------------------------------------------------

    def _known(self, view: View, deck: Deck) -> Known:
        known = super()._known(view, deck)
        picks = tuple(
            deck.by_code[f.value]
            for f in view.facts
            if f.kind == MoveKind.TALON and f.value in deck.by_code
        )
        if picks and known.exposed:  # the talon taken card by card
            rest = tuple(c for c in known.exposed if c not in picks)
            known = replace(known, picked=picks, rest=rest)
        return known

    def _pins(self, view: View, deck: Deck) -> dict[Card, int]:
        """No single card is pinned by the facts alone: see `musts`."""
        return {}

    def musts(self, view: View, deck: Deck, known: Known) -> list[Must]:
        """Seats known to hold at least one of some cards: an ultimo's announcer (a pagat, a
        called card), a partner who has shown himself (a called card that was not in the
        talon), and the declarer who called a queen (every king: he held them all)."""
        called = called_cards(view, deck)
        pagats = tuple(c for c in deck.cards if c.suit == TAROK and c.rank == PAGAT)
        musts: list[Must] = []
        for f in view.facts:
            if f.kind != MoveKind.ANNOUNCE or f.seat is None:
                continue
            if f.value in dd.PAGAT_GROUP:
                musts.append((f.seat, pagats))
            elif f.value in dd.KING_ULTIMO_GROUP and called:
                musts.append((f.seat, called))
        outside = tuple(c for c in called if c not in known.exposed)
        for p in view.partners:
            if p != view.declarer and outside:
                musts.append((p, outside))
        if view.declarer is not None and any(c.rank == QUEEN for c in called):
            kings = (c for c in deck.cards if c.rank == KING and not c.is_tarok)
            musts += [(view.declarer, (k,)) for k in kings]
        return musts

    # --- the deal -----------------------------------------------------------------------

    def _deal(self, view: View, deck: Deck, known: Known, rng: Rng) -> dict[int, list[Card]] | None:
        seen = {c for h in known.hands.values() for c in h}
        seen |= {c for cards in known.played.values() for c in cards}
        seen |= set(known.discards) | set(known.gifts) | set(known.rest)
        free = [c for c in deck.cards if c not in seen]
        holding = {
            s: {*known.hands.get(s, ()), *known.played[s]} for s in range(len(view.hand_sizes))
        }
        voids = infer_voids((*completed_tricks(view), view.trick))
        may_hold = self._allowed(view, deck, known, voids)
        pins = choose_holders(self.musts(view, deck, known), holding, free, may_hold, rng)
        return super()._deal(view, deck, replace(known, pins=pins), rng)

    def _allowed(self, view: View, deck: Deck, known: Known, voids: dict[int, set[str]]) -> Allowed:
        """As in Slovenian tarok; besides, a seat that raised any kontra to an even level (or
        announced a king ultimo) would show itself as a partner: if it is not shown as one,
        it holds no called card."""
        base = super()._allowed(view, deck, known, voids)
        called = set(called_cards(view, deck))
        shy = {
            f.seat
            for f in view.facts
            if (f.kind == MoveKind.KONTRA and f.level % 2 == 0)
            or (f.kind == MoveKind.ANNOUNCE and f.value in self.variant.revealing_items)
        } - {view.declarer, *view.partners}

        def allowed(card: Card, slot: int) -> bool:
            return base(card, slot) and not (card in called and slot in shy)

        return allowed
