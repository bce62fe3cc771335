"""French Tarot: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import FRENCH_TAROT
from .sampler import TarotSampler

register(
    FRENCH_TAROT,
    sampler=TarotSampler(),
    openspiel=OpenSpielGame("python_tarok_french_tarot", 4, utility_bound=10000.0),
)

__all__ = ["FRENCH_TAROT"]
