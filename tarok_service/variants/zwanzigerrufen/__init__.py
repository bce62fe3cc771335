"""Zwanzigerrufen: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import ZWANZIGERRUFEN
from .sampler import ZwanzigerSampler

register(
    ZWANZIGERRUFEN,
    sampler=ZwanzigerSampler(),
    openspiel=OpenSpielGame("python_tarok_zwanzigerrufen", 4, utility_bound=2000.0),
)

__all__ = ["ZWANZIGERRUFEN"]
