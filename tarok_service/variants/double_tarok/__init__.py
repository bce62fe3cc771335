"""Double tarok: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import DOUBLE_TAROK
from .sampler import DoubleTarokSampler

register(
    DOUBLE_TAROK,
    sampler=DoubleTarokSampler(),
    openspiel=OpenSpielGame("python_tarok_double", 4, utility_bound=40000.0),
)

__all__ = ["DOUBLE_TAROK"]
