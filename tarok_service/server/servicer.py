"""The gRPC servicer: thin adapters from TarokService RPCs to the application layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from .app import TarokApp
from .status import stream, unary

Ctx = grpc.aio.ServicerContext[Any, Any]


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
        return await self.app.list_variants(request)

    @unary
    async def CreateTable(
        self, request: svc.CreateTableRequest, context: Ctx
    ) -> svc.CreateTableResponse:
        return await self.app.create_table(request)

    @unary
    async def JoinTable(self, request: svc.JoinTableRequest, context: Ctx) -> svc.JoinTableResponse:
        return await self.app.join_table(request)

    @unary
    async def GetTableView(
        self, request: svc.GetTableViewRequest, context: Ctx
    ) -> svc.GetTableViewResponse:
        return await self.app.get_view(request)

    @unary
    async def SubmitMove(
        self, request: svc.SubmitMoveRequest, context: Ctx
    ) -> svc.SubmitMoveResponse:
        return await self.app.submit_move(request)

    @stream
    async def WatchTable(
        self, request: svc.WatchTableRequest, context: Ctx
    ) -> AsyncIterator[svc.WatchTableResponse]:
        async for item in self.app.watch_table(request):
            yield item

    @unary
    async def GetTableLog(
        self, request: svc.GetTableLogRequest, context: Ctx
    ) -> svc.GetTableLogResponse:
        return await self.app.get_table_log(request)

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
