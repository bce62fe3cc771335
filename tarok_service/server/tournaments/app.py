"""The tournament use cases (transport-neutral): create, get, watch, export, turns, ratings."""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator

from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from .. import errors as e
from ..context import Context
from ..limits import MAX_ID
from . import log, ratings, results, spec, turns
from .log import TournamentLogs, TournamentState
from .worker import Supervisor

ID_BYTES = 8
_ID = re.compile(rf"^T[0-9a-f]{{{2 * ID_BYTES}}}$")
_VARIANT = re.compile(r"[A-Za-z0-9_-]+")


class TournamentApp:
    """Tournaments over the same context (store, cache, tokens) as the table service."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.logs = TournamentLogs(ctx)
        self.signer = turns.entrant_signer(ctx)
        self.supervisor = Supervisor(ctx, self.logs)
        self._standings: dict[str, tuple[int, list[tm.Standing]]] = {}

    async def create_tournament(
        self, request: ts.CreateTournamentRequest
    ) -> ts.CreateTournamentResponse:
        """Record TournamentCreated, list it in the registry; tokens for remote entrants."""
        checked = spec.validated(request.spec)
        tournament_id = "T" + secrets.token_hex(ID_BYTES)
        seed = request.seed if request.HasField("seed") else secrets.randbits(62)
        created = tm.TournamentCreated(spec=checked, seed=seed)
        await self.ctx.store.append(tournament_id, 0, log.encode([created]), self.ctx.clock())
        listed = tm.TournamentListed(tournament_id=tournament_id)
        await log.append_once(self.ctx, log.REGISTRY, lambda _: [listed])
        self.supervisor.ensure(tournament_id)
        state = await self.logs.load(tournament_id)
        out = ts.CreateTournamentResponse(tournament_id=tournament_id, games=len(state.games))
        now = self.ctx.clock()
        for i, entrant in enumerate(checked.entrants):
            if not entrant.bot:
                token = self.signer.issue(tournament_id, i, now)[0]
                out.entrant_tokens.add(entrant=i, name=entrant.name, token=token)
        return out

    async def get_tournament(self, request: ts.GetTournamentRequest) -> ts.GetTournamentResponse:
        state = await self._load(request.tournament_id)
        info = results.info(state, self._standings_of(state), request.with_games)
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
        state = await self._load(request.tournament_id)
        text = results.export(self.ctx, state, self._standings_of(state))
        return ts.ExportTournamentResponse(json=text)

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

    # --- helpers ----------------------------------------------------------------------------

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
