"""The gRPC PlayerService: thin adapters to the players application layer."""

from __future__ import annotations

from typing import Any

import grpc
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc

from ..transport.grpc_status import unary
from ..transport.principal import caller_of
from .app import PlayersApp

Ctx = grpc.aio.ServicerContext[Any, Any]


class PlayerServicer(ps_grpc.PlayerServiceServicer):
    """Each RPC: request -> application layer -> response; errors mapped in `status`."""

    def __init__(self, app: PlayersApp) -> None:
        self.app = app

    @unary
    async def SignInGuest(
        self, request: ps.SignInGuestRequest, context: Ctx
    ) -> ps.SignInGuestResponse:
        address = caller_of(str(context.peer() or ""))
        return ps.SignInGuestResponse(session=await self.app.sign_in_guest(request, address))

    @unary
    async def RefreshSession(
        self, request: ps.RefreshSessionRequest, context: Ctx
    ) -> ps.RefreshSessionResponse:
        return ps.RefreshSessionResponse(session=await self.app.refresh_session(request))

    @unary
    async def GetMe(self, request: ps.GetMeRequest, context: Ctx) -> ps.GetMeResponse:
        return await self.app.get_me(request)

    @unary
    async def ListMyTables(
        self, request: ps.ListMyTablesRequest, context: Ctx
    ) -> ps.ListMyTablesResponse:
        return await self.app.list_my_tables(request)

    @unary
    async def CreateApiToken(
        self, request: ps.CreateApiTokenRequest, context: Ctx
    ) -> ps.CreateApiTokenResponse:
        return await self.app.create_api_token(request)

    @unary
    async def ListApiTokens(
        self, request: ps.ListApiTokensRequest, context: Ctx
    ) -> ps.ListApiTokensResponse:
        return await self.app.list_api_tokens(request)

    @unary
    async def RevokeApiToken(
        self, request: ps.RevokeApiTokenRequest, context: Ctx
    ) -> ps.RevokeApiTokenResponse:
        return await self.app.revoke_api_token(request)

    @unary
    async def SignIn(self, request: ps.SignInRequest, context: Ctx) -> ps.SignInResponse:
        return ps.SignInResponse(session=await self.app.sign_in(request))

    @unary
    async def LinkIdentity(
        self, request: ps.LinkIdentityRequest, context: Ctx
    ) -> ps.LinkIdentityResponse:
        return await self.app.link_identity(request)

    @unary
    async def SuspendPlayer(
        self, request: ps.SuspendPlayerRequest, context: Ctx
    ) -> ps.SuspendPlayerResponse:
        return await self.app.suspend_player(request)

    @unary
    async def CloseTable(
        self, request: ps.CloseTableRequest, context: Ctx
    ) -> ps.CloseTableResponse:
        return await self.app.close_table(request)

    @unary
    async def ListAuditEvents(
        self, request: ps.ListAuditEventsRequest, context: Ctx
    ) -> ps.ListAuditEventsResponse:
        return await self.app.list_audit_events(request)
