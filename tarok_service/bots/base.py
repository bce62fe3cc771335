"""The bot interface and the registry of built-in bots.

A bot sees only a seat's `View` (and the variant and table rules, which are public): it must
return one of `view.legal`. Bots are pure Python over the engine; the server and the client
wire them to tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.variant import Variant
from ..engine.view import View
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .levels import LEVEL_BOTS, EasyBot
from .pimc import PimcBot
from .random import RandomBot


class Bot(Protocol):
    """A player: `choose` returns one of `view.legal` (it is called only on the bot's turn)."""

    name: str

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move: ...


def _random(seed: int | None, **kw: Any) -> Bot:
    return RandomBot(seed, **kw)


def _heuristic(seed: int | None, **kw: Any) -> Bot:
    return HeuristicBot(**kw)


def _pimc(seed: int | None, **kw: Any) -> Bot:
    return PimcBot(seed, **kw)


def _expert(seed: int | None, **kw: Any) -> Bot:
    return ExpertBot(seed, **kw)


def _easy(seed: int | None, **kw: Any) -> Bot:
    return EasyBot(seed, **kw)


_BRAINS: dict[str, Callable[..., Bot]] = {
    "random": _random,
    "heuristic": _heuristic,
    "pimc": _pimc,
    "expert": _expert,
}
# the levels for people (bots/levels.py): "easy" is a brain of its own, the others are names
# for the brains above
_FACTORIES: dict[str, Callable[..., Bot]] = {
    **_BRAINS,
    "easy": _easy,
    **{level: _BRAINS[brain] for level, brain in LEVEL_BOTS.items()},
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None, **kw: Any) -> Bot:
    """A new built-in bot by name ("random", "heuristic", "pimc", "expert", or a level:
    "easy", "medium", "hard", "expert"); keyword options go to its
    constructor (e.g. `budget=0.05` for pimc, `pass_bias=0.7` for random). KeyError names the
    known bots; TypeError an unknown option."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known: {list(BOT_NAMES)}") from None
    return factory(seed, **kw)
