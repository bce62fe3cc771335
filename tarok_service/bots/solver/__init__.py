"""The perfect-information trick-play solver: C (`_dds.c`, a CPython extension built by
`pip install -e .`) behind `solve_state`, with the rule set's trick rules as tables."""

from ._dds import Game
from .position import Objective, card_values, for_seat, objective, solve_state
from .tables import game_for

__all__ = ["Game", "Objective", "card_values", "for_seat", "game_for", "objective", "solve_state"]
