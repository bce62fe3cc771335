"""The gRPC TournamentService: thin adapters to the tournament application layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..transport.grpc_status import stream, unary
from .app import TournamentApp

Ctx = grpc.aio.ServicerContext[Any, Any]


class TournamentServicer(ts_grpc.TournamentServiceServicer):
    """Each RPC: request -> application layer -> response; errors mapped in `status`."""

    def __init__(self, app: TournamentApp) -> None:
        self.app = app

    @unary
    async def CreateTournament(
        self, request: ts.CreateTournamentRequest, context: Ctx
    ) -> ts.CreateTournamentResponse:
        return await self.app.create_tournament(request)

    @unary
    async def GetTournament(
        self, request: ts.GetTournamentRequest, context: Ctx
    ) -> ts.GetTournamentResponse:
        return await self.app.get_tournament(request)

    @stream
    async def WatchTournament(
        self, request: ts.WatchTournamentRequest, context: Ctx
    ) -> AsyncIterator[ts.WatchTournamentResponse]:
        async for item in self.app.watch_tournament(request):
            yield item

    @unary
    async def ExportTournament(
        self, request: ts.ExportTournamentRequest, context: Ctx
    ) -> ts.ExportTournamentResponse:
        return await self.app.export_tournament(request)

    @stream
    async def StreamMyTurns(
        self, request: ts.StreamMyTurnsRequest, context: Ctx
    ) -> AsyncIterator[ts.StreamMyTurnsResponse]:
        async for item in self.app.stream_my_turns(request):
            yield item

    @unary
    async def GetRatings(
        self, request: ts.GetRatingsRequest, context: Ctx
    ) -> ts.GetRatingsResponse:
        return await self.app.get_ratings(request)

    @unary
    async def CancelTournament(
        self, request: ts.CancelTournamentRequest, context: Ctx
    ) -> ts.CancelTournamentResponse:
        return await self.app.cancel_tournament(request)

    @unary
    async def PauseTournament(
        self, request: ts.PauseTournamentRequest, context: Ctx
    ) -> ts.PauseTournamentResponse:
        return await self.app.pause_tournament(request)
