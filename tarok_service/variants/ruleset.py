"""What one rule set registers: its `Variant`, its PIMC sampler and its OpenSpiel mapping.

A rule set is one subpackage of `tarok_service.variants` whose `__init__` registers a
`RuleSet` (`registry.register`); the registry is the only way the service, the bots and the
OpenSpiel glue reach it. `tests/variants/test_completeness.py` walks the registry and fails when
a rule set lacks a piece (sampler, rules page, labels, perft file, knowledge model, OpenSpiel
mapping).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.sampling import Sampler
from ..engine.variant import Variant


@dataclass(frozen=True)
class OpenSpielGame:
    """How the OpenSpiel glue (clients/openspiel) offers a rule set, as plain data: the game's
    registered name, its default player count and a bound on one hand's score per seat (for
    algorithms that normalise returns)."""

    name: str
    players: int
    utility_bound: float = 100000.0


@dataclass(frozen=True)
class RuleSet:
    """Everything registered for one rule set. Without a `sampler` the `pimc` bot plays the
    rule set as the heuristic bot does (it has no way to deal the cards it cannot see)."""

    variant: Variant[Any]
    sampler: Sampler[Any] | None = None
    openspiel: OpenSpielGame | None = None

    @property
    def id(self) -> str:
        return self.variant.id
