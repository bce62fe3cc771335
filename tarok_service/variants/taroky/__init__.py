"""Czech taroky: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import TAROKY
from .sampler import TarokySampler

register(TAROKY, sampler=TarokySampler(), openspiel=OpenSpielGame("python_tarok_taroky", 4))

__all__ = ["TAROKY"]
