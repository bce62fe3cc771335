"""The `random` bot: uniform over the legal moves."""

from __future__ import annotations

import random
from typing import Any

from ..engine.moves import Move, MoveKind
from ..engine.options import Rules
from ..engine.variant import Variant
from ..engine.view import View


class RandomBot:
    """Picks uniformly among `view.legal` with its own seeded generator. `pass_bias` (default
    0: truly uniform) is the chance of passing whenever a bid is possible too, for callers who
    want random games that do not end in a valat bid most of the time."""

    name = "random"

    def __init__(self, seed: int | None = None, pass_bias: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.pass_bias = pass_bias

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`, chosen at random."""
        if not view.legal:
            raise ValueError("no legal move: it is not this seat's turn")
        if self.pass_bias and any(mv.kind == MoveKind.BID for mv in view.legal):
            passes = [mv for mv in view.legal if mv.kind == MoveKind.PASS]
            if passes and self.rng.random() < self.pass_bias:
                return passes[0]
        return self.rng.choice(view.legal)
