"""Tournaments, pure: the schedule of tables (duplicate seat rotation, preset deals) and the
standings (scores, duplicate-normalised results, OpenSkill ratings). No gRPC, no store."""

from ..engine.fairness import deal_orders
from .schedule import Game, schedule
from .standings import FIRST_RATING, GameRecord, Rated, Standing, rate, standings

__all__ = [
    "FIRST_RATING",
    "Game",
    "GameRecord",
    "Rated",
    "Standing",
    "deal_orders",
    "rate",
    "schedule",
    "standings",
]
