"""Tarocco bolognese: the rule set in one place (rules, data, scoring, view, sampler), registered
once with its OpenSpiel mapping."""

from ..registry import register
from ..ruleset import OpenSpielGame
from .rules import TAROCCO_BOLOGNESE
from .sampler import BologneseSampler

register(
    TAROCCO_BOLOGNESE,
    sampler=BologneseSampler(),
    openspiel=OpenSpielGame("python_tarok_bolognese", 4),
)

__all__ = ["TAROCCO_BOLOGNESE"]
