"""Ratings of rated free tables: one OpenSkill rating per player, variant and player count.

A rated table that finishes appends one RatingsUpdated to `freeratings.<variant>.<players>`:
the new rating of each signed-in player at it, rated from the ratings that log held before
through `competition.rate` (the one OpenSkill code path, shared with the tournaments). The
seats are ranked by their final totals; a player whose seat was handed to a bot (they left
the match) ranks last. Built-in bots count with the first rating and are not recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarok_proto.tarok.v1 import matches_pb2 as mt

from ...competition import FIRST_RATING, GameRecord, Rated, rate
from ..model.fold import TableState
from ..usecases.context import Context
from ..usecases.write import Append, Decision, Done, always, save
from . import logs

PROVISIONAL_GAMES = 10  # fewer rated tables than this: the rating is marked provisional
APPEND_RETRIES = 32


def skill(rated: Rated) -> mt.SkillRating:
    return mt.SkillRating(
        mu=rated.mu,
        sigma=rated.sigma,
        ordinal=rated.ordinal,
        games=rated.games,
        provisional=rated.games < PROVISIONAL_GAMES,
    )


@dataclass
class Ratings:
    """A ratings log folded up to `version`: player -> rating and name, the tables rated."""

    version: int = 0
    rated: dict[str, Rated] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    tables: set[str] = field(default_factory=set)
    updated: float = 0.0

    def apply(self, body: mt.RatingsUpdated, at: float) -> None:
        self.tables.add(body.table_id)
        self.updated = at
        for entry in body.ratings:
            r = entry.rating
            self.rated[entry.player_id] = Rated(r.mu, r.sigma, r.games)
            self.names[entry.player_id] = entry.name

    def of(self, player_id: str) -> Rated:
        return self.rated.get(player_id, FIRST_RATING)

    def best_first(self) -> list[str]:
        """The rated players, best ordinal first (ties: player id)."""
        return sorted(self.rated, key=lambda p: (-self.rated[p].ordinal, p))


class RatingBook:
    """The ratings logs this replica has read, refreshed by reading only newer entries (a
    cache of the store: the log is the truth)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._logs: dict[str, Ratings] = {}

    async def load(self, variant: str, players: int) -> Ratings:
        log_id = logs.ratings_log(variant, players)
        known = self._logs.get(log_id) or Ratings()
        stored = await self.ctx.store.read(log_id, known.version)
        if stored:
            fresh = Ratings(known.version, dict(known.rated), dict(known.names), set(known.tables))
            for item in stored:
                body = logs.decode(item)
                if isinstance(body, mt.RatingsUpdated):
                    fresh.apply(body, item.created_at)
                fresh.version = item.seq
            known = fresh
        self._logs[log_id] = known
        return known


def outcome(table: TableState) -> tuple[list[str], GameRecord]:
    """The entrants of a finished rated table (a player id per signed-in seat, one name per
    other seat) and its one-game record: final totals, a seat handed to a bot ranked last."""
    names = [pid or f"seat:{seat}" for seat, pid in enumerate(table.player_ids)]
    scores = list(table.match.totals)
    floor = min(scores) - 1
    for seat, pid in enumerate(table.player_ids):
        if pid and table.bots[seat]:
            scores[seat] = floor  # handed to a bot: the player left the match
    return names, GameRecord(0, 0, tuple(range(len(names))), tuple(scores))


async def rate_table(
    ctx: Context, book: RatingBook, table: TableState
) -> dict[str, tuple[Rated, Rated]]:
    """Record the ratings of a finished rated table (once, however often asked); each of its
    players' ratings before and after it."""
    names, record = outcome(table)
    players = [p for p in table.player_ids if p]
    key = f"rated:{table.table_id}"

    async def decide(attempt: int) -> Decision[dict[str, tuple[Rated, Rated]]]:
        known = await book.load(table.variant.id, table.players)
        if table.table_id in known.tables:
            return Done({})
        priors = {p: known.of(p) for p in players}
        after = dict(zip(names, rate(names, [record], priors), strict=True))
        update = mt.RatingsUpdated(table_id=table.table_id)
        for seat, pid in enumerate(table.player_ids):
            if pid:
                entry = update.ratings.add(player_id=pid, name=table.seats[seat] or "")
                entry.rating.CopyFrom(skill(after[pid]))
        answer = {p: (priors[p], after[p]) for p in players}
        return Append(known.version, logs.encode([update], key), always(answer))

    log_id = logs.ratings_log(table.variant.id, table.players)
    busy = "the ratings are too busy: try again"
    return await save(
        ctx, log_id, decide, retries=APPEND_RETRIES, busy=busy, on_duplicate=always({})
    )
