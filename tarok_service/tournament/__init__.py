"""Tournaments, pure: the schedule of tables (duplicate seat rotation, preset deals) and the
standings (scores, duplicate-normalised results, OpenSkill ratings). No gRPC, no store."""

from .schedule import Game, deal_orders, schedule
from .standings import GameRecord, Rated, Standing, rate, standings

__all__ = [
    "Game",
    "GameRecord",
    "Rated",
    "Standing",
    "deal_orders",
    "rate",
    "schedule",
    "standings",
]
