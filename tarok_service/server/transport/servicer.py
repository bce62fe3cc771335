"""The gRPC servicer: thin adapters from TarokService RPCs to the application layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..usecases import analysis, identity
from ..usecases.app import TarokApp
from .grpc_status import stream, unary
from .principal import caller_of

Ctx = grpc.aio.ServicerContext[Any, Any]
ACCEPT_LANGUAGE = "accept-language"


def _localised(request: Any, context: Ctx) -> Any:
    """The request with `locale` taken from the accept-language metadata when it names none."""
    if request.locale:
        return request
    for key, value in context.invocation_metadata() or ():
        if key == ACCEPT_LANGUAGE and isinstance(value, str) and value:
            out = type(request)()
            out.CopyFrom(request)
            out.locale = value[:200]
            return out
    return request


class TarokServicer(svc_grpc.TarokServiceServicer):
    """Each RPC: request -> application layer -> response; errors mapped in `status`."""

    def __init__(self, app: TarokApp) -> None:
        self.app = app

    @unary
    async def Ping(self, request: svc.PingRequest, context: Ctx) -> svc.PingResponse:
        return await self.app.ping(request)

    @unary
    async def ListVariants(
        self, request: svc.ListVariantsRequest, context: Ctx
    ) -> svc.ListVariantsResponse:
        return await self.app.list_variants(_localised(request, context))

    @unary
    async def CreateTable(
        self, request: svc.CreateTableRequest, context: Ctx
    ) -> svc.CreateTableResponse:
        return await self.app.create_table(request, peer_address(context))

    @unary
    async def JoinTable(self, request: svc.JoinTableRequest, context: Ctx) -> svc.JoinTableResponse:
        return await self.app.join_table(_localised(request, context))

    @unary
    async def GetTableView(
        self, request: svc.GetTableViewRequest, context: Ctx
    ) -> svc.GetTableViewResponse:
        return await self.app.get_view(_localised(request, context))

    @unary
    async def SubmitMove(
        self, request: svc.SubmitMoveRequest, context: Ctx
    ) -> svc.SubmitMoveResponse:
        return await self.app.submit_move(_localised(request, context))

    @stream
    def WatchTable(
        self, request: svc.WatchTableRequest, context: Ctx
    ) -> AsyncIterator[svc.WatchTableResponse]:
        # The application's stream itself (no generator of its own: one hop less a message).
        return self.app.watch_table(_localised(request, context), peer_address(context))

    @unary
    async def GetTableLog(
        self, request: svc.GetTableLogRequest, context: Ctx
    ) -> svc.GetTableLogResponse:
        return await self.app.get_table_log(request, peer_address(context))

    @unary
    async def ListTables(
        self, request: svc.ListTablesRequest, context: Ctx
    ) -> svc.ListTablesResponse:
        return await self.app.list_tables(request)

    @unary
    async def LeaveTable(
        self, request: svc.LeaveTableRequest, context: Ctx
    ) -> svc.LeaveTableResponse:
        return await self.app.leave_table(request)

    @unary
    async def RejoinTable(
        self, request: svc.RejoinTableRequest, context: Ctx
    ) -> svc.RejoinTableResponse:
        return await self.app.rejoin_table(request)

    @unary
    async def Rematch(self, request: svc.RematchRequest, context: Ctx) -> svc.RematchResponse:
        return await self.app.rematch(request)

    @unary
    async def HandSeatToBot(
        self, request: svc.HandSeatToBotRequest, context: Ctx
    ) -> svc.HandSeatToBotResponse:
        return await self.app.hand_seat_to_bot(request)

    @unary
    async def AnalyseHand(
        self, request: svc.AnalyseHandRequest, context: Ctx
    ) -> svc.AnalyseHandResponse:
        return await analysis.analyse_hand(self.app.ctx, request)


def peer_address(context: Ctx) -> str:
    """The caller: its player when signed in ("player:<id>"), else its address ("ip:10.0.0.7",
    the same on both ports: see `principal.py`), or ""."""
    try:
        peer = str(context.peer() or "")
    except (AttributeError, NotImplementedError):
        peer = ""
    return identity.principal(caller_of(peer) if peer else "")
