"""Built-in bots for tournament entrants: a bot name plus options given as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Bot, make_bot


def option_value(text: str) -> int | float | bool | str:
    """An option's text as the value a bot constructor takes ("3", "0.05", "true", "x")."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def entrant_bot(name: str, options: Mapping[str, str], seed: int | None = None) -> Bot:
    """A built-in bot with its options; KeyError (unknown bot), TypeError or ValueError (bad
    option) otherwise."""
    kwargs: dict[str, Any] = {k: option_value(v) for k, v in options.items()}
    return make_bot(name, seed, **kwargs)
