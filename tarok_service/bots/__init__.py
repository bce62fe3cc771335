"""Built-in bot brains (pure: standard library and engine only): `random`, `heuristic`, `pimc`.

`make_bot(name, seed, **options)` builds one; `bot.choose(view, variant, rules)` returns one of
`view.legal`. `arena.duel` compares two bots duplicate-style through the engine.
"""

from .base import BOT_NAMES, Bot, make_bot

__all__ = ["BOT_NAMES", "Bot", "make_bot"]
