"""A `Sampler` for Königrufen: the Slovenian family's sampler over Königrufen's state (the
same state, auction, call and exchange; the trick play is replayed through this rule set).
Beside the family's pins (an announced pagat, king ultimo, a shown partner), an announced
Uhu, Kakadu or Quapil puts its bird in the announcer's hand."""

from __future__ import annotations

from ...engine.cards import Card, Deck
from ...engine.moves import MoveKind
from ...engine.view import View
from ..slovenian.sampler import SlovenianSampler
from . import data as d
from .rules import KOENIGRUFEN, Koenigrufen


class KoenigrufenSampler(SlovenianSampler):
    """Samples Königrufen hands from one seat's view."""

    def __init__(self, variant: Koenigrufen = KOENIGRUFEN) -> None:
        super().__init__(variant)

    def _pins(self, view: View, deck: Deck) -> dict[Card, int]:
        pins = super()._pins(view, deck)
        for f in view.facts:
            if f.kind == MoveKind.ANNOUNCE and f.seat is not None and f.value in d.BIRD_CARDS:
                pins[deck.card(deck.codes[d.BIRD_CARDS[f.value]])] = f.seat
        return pins
