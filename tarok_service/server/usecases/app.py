"""The transport-neutral application layer: one method per use case, protobuf in and out.

No gRPC here: errors are `ServiceError`s that each transport maps to its own status, so
another transport (Connect / gRPC-Web over ASGI) can reuse this class unchanged.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...store import EventStore
from ...variants.registry import all_variants
from .. import errors as e
from ..config import ServerConfig
from ..model.fold import TableState
from ..present import codec
from ..present.i18n import Labels, SeatLocales, negotiate
from ..present.views import table_view
from . import create, fanout, join, lobby, moves, quotas, rematch, seats, watch
from .context import Context

__all__ = ["TarokApp"]


class TarokApp:
    """create, join, view, submit, watch, log (and list variants, ping)."""

    def __init__(self, store: EventStore, config: ServerConfig, ctx: Context | None = None) -> None:
        self.ctx = ctx or Context(store, config)
        self.slots = watch.WatcherSlots(config.max_watchers, config.max_watchers_per_principal)
        self.feeds = fanout.Feeds(self.ctx)
        self.ctx.metrics.watch_streams.set_function(lambda: self.slots.open)
        self._variants: dict[str | None, svc.ListVariantsResponse] = {}
        self.locales = SeatLocales()
        self.bot_tables = quotas.BotTables(self.ctx)

    async def ping(self, request: svc.PingRequest) -> svc.PingResponse:
        return svc.PingResponse(payload=request.payload)

    async def list_variants(self, request: svc.ListVariantsRequest) -> svc.ListVariantsResponse:
        locale = negotiate(request.locale)
        found = self._variants.get(locale)
        if found is None:
            found = self._variants[locale] = svc.ListVariantsResponse(
                variants=[codec.variant_msg(v, locale) for v in all_variants()]
            )
        return found

    def labels(self, table: TableState, seat: int | None, requested: str) -> Labels | None:
        """The labels for a viewer's call: its requested locale (remembered for the seat),
        else the seat's last one, else None (the rule set's English labels)."""
        locale = self.locales.choose(table.table_id, seat, requested)
        if locale is None:
            return None
        return Labels(locale, table.variant.id, self.ctx.metrics.translation_missing)

    async def create_table(
        self, request: svc.CreateTableRequest, caller: str = ""
    ) -> svc.CreateTableResponse:
        """`caller`: the client's address (quotas, request ids), empty when unknown."""
        return await create.create_table(self.ctx, request, caller, self.bot_tables)

    async def list_tables(self, request: svc.ListTablesRequest) -> svc.ListTablesResponse:
        return await lobby.list_tables(self.ctx, request)

    async def leave_table(self, request: svc.LeaveTableRequest) -> svc.LeaveTableResponse:
        return await seats.leave(self.ctx, request)

    async def rematch(self, request: svc.RematchRequest) -> svc.RematchResponse:
        table_id, seat, name, rid = await rematch.rematch(self.ctx, request)
        again = svc.JoinTableRequest(table_id=table_id, seat=seat, name=name, request_id=rid)
        try:
            joined = await join.join_table(self.ctx, again, self.locales, rematch.REMATCH_SCOPE)
        except e.ServiceError as err:
            # Asking again: the caller holds the old seat's current token, which proves it is
            # the player this seat was taken for (unless the seat changed hands since).
            table = await self.ctx.cache.load(table_id)
            if err.reason != e.ALREADY_JOINED or table.generations[seat] != 1:
                raise
            joined = join.joined(self.ctx, table, seat)
        return svc.RematchResponse(
            token=joined.token,
            seat=seat,
            table_id=table_id,
            version=joined.version,
            expires=joined.expires,
        )

    async def hand_seat_to_bot(
        self, request: svc.HandSeatToBotRequest
    ) -> svc.HandSeatToBotResponse:
        return await seats.hand_to_bot(self.ctx, request)

    async def rejoin_table(self, request: svc.RejoinTableRequest) -> svc.RejoinTableResponse:
        table, seat = await seats.rejoin(self.ctx, request)
        joined = join.joined(self.ctx, table, seat)
        return svc.RejoinTableResponse(
            token=joined.token,
            seat=seat,
            table_id=joined.table_id,
            version=joined.version,
            expires=joined.expires,
        )

    async def join_table(self, request: svc.JoinTableRequest) -> svc.JoinTableResponse:
        return await join.join_table(self.ctx, request, self.locales)

    async def get_view(self, request: svc.GetTableViewRequest) -> svc.GetTableViewResponse:
        claim = self.ctx.claim(request.token)
        table = await self.ctx.cache.load(claim.table_id)
        seats.check_holder(claim, table)
        words = self.labels(table, claim.seat, request.locale)
        return svc.GetTableViewResponse(view=table_view(table, claim.seat, words, self.ctx.clock()))

    async def submit_move(self, request: svc.SubmitMoveRequest) -> svc.SubmitMoveResponse:
        if request.locale:
            claim = self.ctx.claim(request.token)
            if claim.seat is not None:
                self.locales.choose(claim.table_id, claim.seat, request.locale)
        try:
            return await moves.submit_move(self.ctx, request)
        except e.ServiceError as err:
            self.ctx.metrics.move_rejected(err.reason)
            raise

    def watch_table(
        self, request: svc.WatchTableRequest, peer: str = ""
    ) -> AsyncIterator[svc.WatchTableResponse]:
        """`peer`: the client's address (limits per caller), empty when unknown."""
        return watch.watch(self.ctx, self.slots, request, self.feeds, self.labels, peer)

    async def get_table_log(
        self, request: svc.GetTableLogRequest, peer: str = ""
    ) -> svc.GetTableLogResponse:
        return await watch.get_log(self.ctx, request, peer)
