"""What a seat observes, as text and as tensors, built from the seat's `View` only: the engine's
view is the one door to hidden information, so no card a seat may not see can reach them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tarok_service.engine.cards import Card, Deck
from tarok_service.engine.view import View


def view_string(view: View, deck: Deck) -> str:
    """One canonical line per view: equal views give equal strings and vice versa."""

    def codes(cards: Sequence[Card]) -> str:
        return ",".join(deck.code(c) for c in cards)

    parts = [
        f"seat={view.seat}",
        f"phase={view.phase}",
        f"turn={view.turn}",
        f"dealer={view.dealer}",
        f"hand={codes(deck.sort(view.hand))}",
        f"sizes={','.join(map(str, view.hand_sizes))}",
        f"trick={';'.join(f'{s}:{deck.code(c)}' for s, c in view.trick)}",
        f"tricks={len(view.tricks)}",
        f"won={','.join(map(str, view.tricks_won))}",
        "public=" + ";".join(f"{g.name}@{g.seat}:{codes(g.cards)}" for g in view.public),
        "facts=" + ";".join(f"{f.seat}:{f.kind}:{f.value}:{f.level}" for f in view.facts),
        f"contract={view.contract}",
        f"declarer={view.declarer}",
        f"partners={','.join(map(str, view.partners))}",
        f"called={view.called}",
    ]
    if view.tricks:
        last = view.tricks[-1]
        parts.append("last=" + ";".join(f"{s}:{deck.code(c)}" for s, c in last.plays))
    if view.result is not None:
        parts.append("result=" + ",".join(map(str, view.result.totals)))
    return " ".join(parts)


class Tensors:
    """Layout of the observation tensor of one rule set: card planes and small one-hots."""

    def __init__(self, deck: Deck, players: int, phases: Sequence[str]) -> None:
        self.deck = deck
        self.players = players
        self.phases = tuple(phases)
        self.index = {c: i for i, c in enumerate(deck.cards)}
        n = len(deck.cards)
        self.pieces = (
            ("seat", players),
            ("phase", len(self.phases) + 1),
            ("turn", players),
            ("declarer", players),
            ("partners", players),
            ("hand", n),
            ("trick", n),
            ("played", players * n),
            ("public", n),
            ("tricks_won", players),
        )
        self.size = sum(size for _, size in self.pieces)

    def fill(self, out: np.ndarray, view: View) -> None:
        """Write `view` into `out` (a float32 vector of `size`)."""
        out.fill(0)
        at = {}
        offset = 0
        for name, size in self.pieces:
            at[name] = offset
            offset += size
        n = len(self.deck.cards)
        if view.seat is not None:
            out[at["seat"] + view.seat] = 1
        phase = self.phases.index(view.phase) if view.phase in self.phases else len(self.phases)
        out[at["phase"] + phase] = 1
        if view.turn is not None:
            out[at["turn"] + view.turn] = 1
        if view.declarer is not None:
            out[at["declarer"] + view.declarer] = 1
        for seat in view.partners:
            out[at["partners"] + seat] = 1
        for card in view.hand:
            out[at["hand"] + self.index[card]] += 1
        for _, card in view.trick:
            out[at["trick"] + self.index[card]] += 1
        for trick in view.tricks:
            for seat, card in trick.plays:
                out[at["played"] + seat * n + self.index[card]] += 1
        for group in view.public:
            for card in group.cards:
                out[at["public"] + self.index[card]] += 1
        for seat, won in enumerate(view.tricks_won):
            out[at["tricks_won"] + seat] = won
