"""The built-in bots as the server seats them, in one place: the registry's names
(`bots.BOT_NAMES`), the name a bot's seat shows, and the bot that takes a seat over (a seat
handed to a bot without naming one, a player who let the clock run out)."""

from __future__ import annotations

from ...bots import BOT_NAMES
from .. import errors as e

TAKEOVER_BOT = "heuristic"
SHOWN = {
    "random": "Random bot", "heuristic": "Heuristic bot", "pimc": "PIMC bot",
    "easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot", "expert": "Expert bot",
}  # fmt: skip


def shown_name(bot: str) -> str:
    """The name a seat played by `bot` shows."""
    return SHOWN.get(bot, bot)


def check_bot(field: str, bot: str) -> str:
    """`bot` when it names a built-in bot, else INVALID_ARGUMENT naming `field`."""
    if bot not in BOT_NAMES:
        raise e.invalid(field, f"bot must be one of {', '.join(BOT_NAMES)}")
    return bot
