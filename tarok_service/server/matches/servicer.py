"""The gRPC MatchService: thin adapters to the players' games application layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import match_service_pb2_grpc as ms_grpc

from ..transport.grpc_status import stream, unary
from .app import MatchApp

Ctx = grpc.aio.ServicerContext[Any, Any]


class MatchServicer(ms_grpc.MatchServiceServicer):
    """Each RPC: request -> application layer -> response; errors mapped in `status`."""

    def __init__(self, app: MatchApp) -> None:
        self.app = app

    @stream
    async def FindMatch(
        self, request: ms.FindMatchRequest, context: Ctx
    ) -> AsyncIterator[ms.FindMatchResponse]:
        async for item in self.app.find_match(request):
            yield item

    @unary
    async def ListHistory(
        self, request: ms.ListHistoryRequest, context: Ctx
    ) -> ms.ListHistoryResponse:
        return await self.app.list_history(request)

    @unary
    async def GetProfile(
        self, request: ms.GetProfileRequest, context: Ctx
    ) -> ms.GetProfileResponse:
        return await self.app.get_profile(request)

    @unary
    async def ListLeaderboard(
        self, request: ms.ListLeaderboardRequest, context: Ctx
    ) -> ms.ListLeaderboardResponse:
        return await self.app.list_leaderboard(request)

    @unary
    async def OpenPlayedTable(
        self, request: ms.OpenPlayedTableRequest, context: Ctx
    ) -> ms.OpenPlayedTableResponse:
        return await self.app.open_played_table(request)
