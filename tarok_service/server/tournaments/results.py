"""What the tournament service shows: progress, standings, the schedule and the JSON export."""

from __future__ import annotations

import json
from typing import Any

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...competition import standings
from ...engine import fairness
from ..usecases.context import Context
from .log import TournamentState

RUNNING = tm.TOURNAMENT_STATUS_RUNNING
FINISHED = tm.TOURNAMENT_STATUS_FINISHED
CANCELLED = tm.TOURNAMENT_STATUS_CANCELLED


def status_of(state: TournamentState) -> tm.TournamentStatus.ValueType:
    if state.cancelled:
        return CANCELLED
    return FINISHED if state.finished else RUNNING


def standing_msgs(state: TournamentState) -> list[tm.Standing]:
    """The standings, best first."""
    rows = standings(state.names, state.records(), state.spec.duplicate)
    entrants = state.spec.entrants
    return [
        tm.Standing(
            entrant=row.entrant,
            name=row.name,
            bot=entrants[row.entrant].bot,
            score=row.score,
            per_deal=row.per_deal,
            ci95=row.ci95,
            games=row.games,
            timeouts=row.timeouts,
            rating=row.rating.ordinal,
            mu=row.rating.mu,
            sigma=row.rating.sigma,
            forfeited=row.entrant in state.forfeited,
            rank=row.rank,
        )
        for row in rows
    ]


def info(
    state: TournamentState, standings_: list[tm.Standing] | None, with_games: bool
) -> tm.TournamentInfo:
    """The tournament's progress, with standings and the schedule when given / asked for."""
    out = tm.TournamentInfo(
        tournament_id=state.tournament_id,
        version=state.version,
        spec=state.spec,
        status=status_of(state),
        games=len(state.games),
        games_started=len(state.started),
        games_finished=len(state.results),
        standings=standings_ or [],
        seed_commitment=fairness.seed_commitment(state.seed_salt, state.seed),
        checked_in=sorted(state.checked_in),
        cancel_reason=state.cancel_reason,
        paused=state.paused,
    )
    if state.finished:
        out.seed = state.seed
        out.seed_salt = state.seed_salt
    if with_games:
        out.game_list.extend(game_msg(state, g.index) for g in state.games)
    return out


def game_msg(state: TournamentState, game: int) -> tm.GameInfo:
    scheduled = state.games[game]
    out = tm.GameInfo(
        game=game,
        deal=scheduled.deal,
        seating=scheduled.seating,
        table_id=state.started.get(game, ""),
        started=game in state.started,
        finished=game in state.results,
    )
    if game in state.results:
        out.result.CopyFrom(state.results[game])
    return out


def export(ctx: Context, state: TournamentState, rows: list[tm.Standing]) -> str:
    """The results as one JSON document; each table comes with a spectator token for its log
    (complete once the tournament has finished)."""
    spec = state.spec
    now = ctx.clock()
    doc: dict[str, Any] = {
        "tournament_id": state.tournament_id,
        "variant": spec.variant,
        "players": spec.players,
        "options": dict(spec.options),
        "deals": spec.deals,
        "duplicate": spec.duplicate,
        "time_per_move": spec.time_per_move.ToNanoseconds() / 1e9,
        "status": _STATUS_TEXT[status_of(state)],
        "cancel_reason": state.cancel_reason or None,
        "full_rotation": spec.full_rotation,
        "seed_commitment": fairness.seed_commitment(state.seed_salt, state.seed).hex(),
        "seed": state.seed if state.finished else None,
        "seed_salt": state.seed_salt.hex() if state.finished else None,
        "entrants": [entrant_row(r) for r in rows],
        "games": [],
    }
    for game in state.games:
        row = _game_row(state, game.index)
        if row["table_id"]:
            row["log_token"] = ctx.tokens.issue(row["table_id"], None, now)[0]
        doc["games"].append(row)
    return json.dumps(doc, ensure_ascii=False)


_STATUS_TEXT = {RUNNING: "running", FINISHED: "finished", CANCELLED: "cancelled"}


def entrant_row(row: tm.Standing) -> dict[str, Any]:
    """One standings line as JSON (the keys `tarok tournament run --json` prints)."""
    return {
        "name": row.name,
        "bot": row.bot or "remote",
        "rank": row.rank,
        "score": row.score,
        "per_deal": round(row.per_deal, 3),
        "ci95": round(row.ci95, 3),
        "games": row.games,
        "timeouts": row.timeouts,
        "forfeited": row.forfeited,
        "rating": round(row.rating, 3),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
    }


def _game_row(state: TournamentState, game: int) -> dict[str, Any]:
    scheduled = state.games[game]
    result = state.results.get(game)
    return {
        "game": game,
        "deal": scheduled.deal,
        "seats": [state.names[e] for e in scheduled.seating],
        "table_id": state.started.get(game, ""),
        "finished": result is not None,
        "scores": list(result.scores) if result is not None else None,
        "contract": result.contract if result is not None else None,
        "timeouts": list(result.timeouts) if result is not None else None,
    }
