"""Slovenian tarok: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import SLOVENIAN
from .sampler import SlovenianSampler

register(
    SLOVENIAN,
    sampler=SlovenianSampler(),
    openspiel=OpenSpielGame("python_tarok_slovenian", 4, utility_bound=20000.0),
)

__all__ = ["SLOVENIAN"]
