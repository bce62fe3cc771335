"""Königrufen: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import KOENIGRUFEN
from .sampler import KoenigrufenSampler

register(
    KOENIGRUFEN,
    sampler=KoenigrufenSampler(),
    openspiel=OpenSpielGame("python_tarok_koenigrufen", 4, utility_bound=1000.0),
)

__all__ = ["KOENIGRUFEN"]
