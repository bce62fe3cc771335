"""Bot levels for people: `easy`, `medium`, `hard` and `expert`, each a built-in bot brain.

- easy: the heuristic bot's bids and calls, but a card at random half of the time;
- medium: the heuristic bot;
- hard: the `pimc` bot (Monte Carlo with heuristic playouts);
- expert: the `expert` bot (Monte Carlo over the C solver).

Their measured strength is in docs/bots.md (bench/ladder.py).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.moves import Move, MoveKind
from ..engine.options import Rules
from ..engine.variant import Variant
from ..engine.view import View
from .heuristic import HeuristicBot

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
LEVEL_BOTS: dict[str, str] = {"medium": "heuristic", "hard": "pimc", "expert": "expert"}


class EasyBot:
    """The heuristic bot that plays a random legal card with probability `slips`."""

    name = "easy"

    def __init__(self, seed: int | None = None, slips: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.slips = slips
        self.brain = HeuristicBot()

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`."""
        cards = [m for m in view.legal if m.kind == MoveKind.PLAY]
        if cards and self.rng.random() < self.slips:
            return self.rng.choice(cards)
        return self.brain.choose(view, variant, rules)
