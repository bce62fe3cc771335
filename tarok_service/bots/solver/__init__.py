"""The perfect-information trick-play solver: C (`_dds.c`, a CPython extension built by
`pip install -e .`) behind `solve_state`, with the rule set's trick rules as tables."""

from typing import Any

from ...engine.playout import plain_trick_play
from ...engine.trickplay import TrickPlay
from ...engine.variant import Variant
from ._dds import Game
from .position import Objective, card_values, for_seat, models, objective, solve_state
from .tables import game_for

__all__ = [
    "Game", "Objective", "card_values", "for_seat", "game_for", "models", "objective", "solvable",
    "solve_state",
]  # fmt: skip


def solvable(variant: Variant[Any]) -> bool:
    """Whether the solver's tables describe the rule set's card play: trick play through
    `TrickPlay`'s own duties (follow, trump, overtrump as `TrickRules` flags). A rule set with
    card duties of its own (French Tarot's overtrumping and excuse) is not solved; the expert
    bot plays it as PIMC does and `AnalyseHand` refuses it."""
    return isinstance(variant, TrickPlay) and plain_trick_play(variant)

