"""Ratings kept per variant across tournaments, and the end of a tournament.

Each variant has a ratings log; a finished tournament appends one RatingsRecorded with the
new rating of each of its entrants (by name), rated from the ratings the log held before.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...competition import Rated, rate
from ..usecases.context import Context
from . import log
from .log import Body, TournamentState


def current(bodies: list[Body]) -> dict[str, tm.Rating]:
    """Name -> latest rating in a ratings log."""
    out: dict[str, tm.Rating] = {}
    for body in bodies:
        if isinstance(body, tm.RatingsRecorded):
            out.update({r.name: r for r in body.ratings})
    return out


def rating_msg(name: str, rated: Rated) -> tm.Rating:
    return tm.Rating(
        name=name, mu=rated.mu, sigma=rated.sigma, ordinal=rated.ordinal, games=rated.games
    )


async def load(ctx: Context, variant: str) -> list[tm.Rating]:
    """A variant's ratings, best ordinal first."""
    stored = await ctx.store.read(log.ratings_log(variant), 0)
    known = current([log.decode(s) for s in stored])
    return sorted(known.values(), key=lambda r: (-r.ordinal, r.name))


async def wrap_up(ctx: Context, state: TournamentState) -> None:
    """Record the ratings and take the tournament off the registry (each exactly once)."""
    tid = state.tournament_id

    def new_ratings(bodies: list[Body]) -> list[Body]:
        if any(isinstance(b, tm.RatingsRecorded) and b.tournament_id == tid for b in bodies):
            return []
        priors = {name: Rated(r.mu, r.sigma, r.games) for name, r in current(bodies).items()}
        rated = rate(state.names, state.records(), priors)
        entries = [rating_msg(n, r) for n, r in zip(state.names, rated, strict=True)]
        return [tm.RatingsRecorded(tournament_id=tid, ratings=entries)]

    def ended(bodies: list[Body]) -> list[Body]:
        if any(isinstance(b, tm.TournamentEnded) and b.tournament_id == tid for b in bodies):
            return []
        return [tm.TournamentEnded(tournament_id=tid)]

    if not state.cancelled:  # a cancelled tournament's games are not rated
        await log.append_once(ctx, log.ratings_log(state.spec.variant), new_ratings)
    await log.append_once(ctx, log.REGISTRY, ended)
