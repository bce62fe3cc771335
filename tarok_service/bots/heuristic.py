"""The `heuristic` bot: bids by hand strength and plays sensibly, from its view alone."""

from __future__ import annotations

from typing import Any

from ..engine.moves import Move, MoveKind
from ..engine.options import Rules
from ..engine.variant import Variant
from ..engine.view import View
from .bidding import choose_bid
from .exchange import choose_call, choose_discard, choose_talon
from .play import choose_card
from .situation import situation_from_view


class HeuristicBot:
    """Rules of thumb for every rule set; variant-specific moves it does not know (declare,
    the Matto exchange, third-talon choices) fall back to a pass or the first legal move."""

    name = "heuristic"

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`."""
        if not view.legal:
            raise ValueError("no legal move: it is not this seat's turn")
        deck = variant.deck(rules)
        kinds = {mv.kind for mv in view.legal}
        if MoveKind.PLAY in kinds:
            card = choose_card(situation_from_view(view, deck))
            return Move(MoveKind.PLAY, deck.codes[card])
        if MoveKind.BID in kinds:
            return choose_bid(view, deck)
        if MoveKind.DISCARD in kinds:
            return choose_discard(view, deck)
        if MoveKind.TALON in kinds:
            return choose_talon(view, deck)
        if MoveKind.CALL in kinds:
            return choose_call(view, deck)
        if MoveKind.PASS in kinds and kinds & {MoveKind.ANNOUNCE, MoveKind.KONTRA}:
            return Move(MoveKind.PASS)
        return view.legal[0]
