"""The tournament use cases (transport-neutral): create, get, watch, export, turns, ratings."""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator
from functools import partial

from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...engine import fairness
from .. import errors as e
from ..usecases.context import Context
from ..usecases.limits import MAX_ID, MAX_REASON, check_text
from ..usecases.write import Append, always, save_once
from . import log, organiser, ratings, results, spec, turns
from .log import TournamentLogs, TournamentState
from .worker import Supervisor

ID_BYTES = 8
_ID = re.compile(rf"^T[0-9a-f]{{{2 * ID_BYTES}}}$")
_VARIANT = re.compile(r"[A-Za-z0-9_-]+")


class TournamentApp:
    """Tournaments over the same context (store, cache, tokens) as the table service."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        ctx.tournament_over = partial(log.is_finished, ctx)
        self.logs = TournamentLogs(ctx)
        self.signer = turns.entrant_signer(ctx)
        self.organisers = organiser.organiser_signer(ctx)
        self.supervisor = Supervisor(ctx, self.logs)
        self._standings: dict[str, tuple[int, list[tm.Standing]]] = {}

    async def create_tournament(
        self, request: ts.CreateTournamentRequest
    ) -> ts.CreateTournamentResponse:
        """Record TournamentCreated, list it in the registry; tokens for the organiser and the
        remote entrants. Needs the organiser key; within the server's limits."""
        organiser.check_key(self.ctx, request.organiser_key)
        checked = spec.validated(request.spec, self.ctx.config.max_tournament_tables)
        await self._check_room()
        tournament_id = "T" + secrets.token_hex(ID_BYTES)
        seed = request.seed if request.HasField("seed") else secrets.randbits(62)
        salt = secrets.token_bytes(fairness.SALT_BYTES)
        created = tm.TournamentCreated(spec=checked, seed=seed, seed_salt=salt)
        append = Append(0, log.encode([created]), always(None))
        await save_once(self.ctx, tournament_id, append, _taken)
        await log.list_within(self.ctx, tournament_id, self.ctx.config.max_tournaments)
        self.supervisor.ensure(tournament_id)
        state = await self.logs.load(tournament_id)
        now = self.ctx.clock()
        out = ts.CreateTournamentResponse(
            tournament_id=tournament_id,
            games=len(state.games),
            organiser_token=self.organisers.issue(tournament_id, 0, now)[0],
            seed_commitment=fairness.seed_commitment(salt, seed),
        )
        for i, entrant in enumerate(checked.entrants):
            if not entrant.bot:
                token = self.signer.issue(tournament_id, i, now)[0]
                out.entrant_tokens.add(entrant=i, name=entrant.name, token=token)
        return out

    async def _check_room(self) -> None:
        """RESOURCE_EXHAUSTED when the server runs its limit of tournaments already (a cheap
        early refusal; `log.list_within` decides atomically)."""
        known: set[str] = set()
        await log.running(self.ctx, 0, known)
        log.check_room(known, self.ctx.config.max_tournaments)

    async def get_tournament(self, request: ts.GetTournamentRequest) -> ts.GetTournamentResponse:
        """Progress for anyone; standings and the schedule once it is over, or for the
        organiser (PERMISSION_DENIED for others asking for the schedule while it runs)."""
        state = await self._load(request.tournament_id)
        inside = state.finished or self._organiser(request.organiser_token, state)
        if request.with_games and not inside:
            raise organiser.sealed(state.tournament_id, "the tables")
        rows = self._standings_of(state) if inside else None
        info = results.info(state, rows, request.with_games)
        return ts.GetTournamentResponse(tournament=info)

    async def watch_tournament(
        self, request: ts.WatchTournamentRequest
    ) -> AsyncIterator[ts.WatchTournamentResponse]:
        """Progress after every change (standings once finished), until the end."""
        state = await self._load(request.tournament_id)
        while True:
            rows = self._standings_of(state) if state.finished else None
            yield ts.WatchTournamentResponse(tournament=results.info(state, rows, False))
            if state.finished:
                return
            version = state.version
            await self.ctx.wait_for_change(
                state.tournament_id, version, self.ctx.config.heartbeat_seconds
            )
            if self.ctx.stopping:
                return
            state = await self.logs.load(state.tournament_id)

    async def export_tournament(
        self, request: ts.ExportTournamentRequest
    ) -> ts.ExportTournamentResponse:
        """The results; while the tournament runs, only for its organiser."""
        state = await self._load(request.tournament_id)
        if not state.finished and not self._organiser(request.organiser_token, state):
            raise organiser.sealed(state.tournament_id, "the results and table logs")
        text = results.export(self.ctx, state, self._standings_of(state))
        return ts.ExportTournamentResponse(json=text)

    async def cancel_tournament(
        self, request: ts.CancelTournamentRequest
    ) -> ts.CancelTournamentResponse:
        """End a running tournament: TournamentCancelled and TournamentFinished in its log."""
        state = await self._load(request.tournament_id)
        if not request.organiser_token:
            raise e.invalid("organiser_token", "organiser_token is required")
        self._organiser(request.organiser_token, state)
        reason = check_text(request.reason, "reason", MAX_REASON)
        if state.finished:
            raise e.precondition(e.TOURNAMENT_OVER, "the tournament is over already")

        def cancel(bodies: list[log.Body]) -> list[log.Body]:
            if any(isinstance(b, tm.TournamentFinished) for b in bodies):
                return []
            return [tm.TournamentCancelled(reason=reason), tm.TournamentFinished()]

        if not await log.append_once(self.ctx, state.tournament_id, cancel):
            raise e.precondition(e.TOURNAMENT_OVER, "the tournament is over already")
        state = await self.logs.load(state.tournament_id)
        info = results.info(state, self._standings_of(state), False)
        return ts.CancelTournamentResponse(tournament=info)

    def stream_my_turns(
        self, request: ts.StreamMyTurnsRequest
    ) -> AsyncIterator[ts.StreamMyTurnsResponse]:
        return turns.stream_my_turns(self.ctx, self.logs, self.signer, request)

    async def get_ratings(self, request: ts.GetRatingsRequest) -> ts.GetRatingsResponse:
        if not request.variant:
            raise e.invalid("variant", "variant is required", e.UNKNOWN_VARIANT)
        if len(request.variant) > MAX_ID or not _VARIANT.fullmatch(request.variant):
            raise e.invalid(
                "variant", "variant ids are letters, digits, '_' and '-'", e.UNKNOWN_VARIANT
            )
        return ts.GetRatingsResponse(ratings=await ratings.load(self.ctx, request.variant))

    async def pause_tournament(
        self, request: ts.PauseTournamentRequest
    ) -> ts.PauseTournamentResponse:
        """Pause (no new table starts) or resume a running tournament: TournamentPaused."""
        state = await self._load(request.tournament_id)
        if not request.organiser_token:
            raise e.invalid("organiser_token", "organiser_token is required")
        self._organiser(request.organiser_token, state)
        if state.finished:
            raise e.precondition(e.TOURNAMENT_OVER, "the tournament is over already")

        def pause(bodies: list[log.Body]) -> list[log.Body]:
            now = False
            for body in bodies:
                if isinstance(body, tm.TournamentFinished):
                    return []
                if isinstance(body, tm.TournamentPaused):
                    now = body.paused
            return [] if now == request.paused else [tm.TournamentPaused(paused=request.paused)]

        await log.append_once(self.ctx, state.tournament_id, pause)
        state = await self.logs.load(state.tournament_id)
        rows = self._standings_of(state)
        return ts.PauseTournamentResponse(tournament=results.info(state, rows, False))

    # --- helpers ----------------------------------------------------------------------------

    def _organiser(self, token: str, state: TournamentState) -> bool:
        return organiser.is_organiser(self.ctx, self.organisers, token, state.tournament_id)

    async def _load(self, tournament_id: str) -> TournamentState:
        if not tournament_id:
            raise e.invalid("tournament_id", "tournament_id is required")
        if not _ID.match(tournament_id):
            raise log.not_found(tournament_id)
        return await self.logs.load(tournament_id)

    def _standings_of(self, state: TournamentState) -> list[tm.Standing]:
        """The standings, computed once per tournament version."""
        known = self._standings.get(state.tournament_id)
        if known is not None and known[0] == state.version:
            return known[1]
        rows = results.standing_msgs(state)
        self._standings[state.tournament_id] = (state.version, rows)
        return rows


async def _taken() -> None:
    raise e.ServiceError(e.ABORTED, e.CONTENTION, "the tournament id was taken: try again")
