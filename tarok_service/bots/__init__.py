"""Built-in bot brains (standard library, engine and the C solver): `random`, `heuristic`, `pimc`,
`expert`, and the levels for people `easy`, `medium`, `hard`, `expert` (bots/levels.py).

`make_bot(name, seed, **options)` builds one; `bot.choose(view, variant, rules)` returns one of
`view.legal`. `arena.duel` compares two bots duplicate-style through the engine.
"""

from .base import BOT_NAMES, Bot, make_bot

__all__ = ["BOT_NAMES", "Bot", "make_bot"]
