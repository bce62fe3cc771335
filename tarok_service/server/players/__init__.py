"""Players in the server: PlayerService (sign-in, the caller's player, API tokens, its
tables, operators), the players' logs in the event store, and the authenticator that
verifies every call's bearer token (installed on the shared Context: the core never imports
this package). See docs/identity.md."""

from __future__ import annotations

from typing import Any

import grpc
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc

from ..transport.generic import generic_only
from ..usecases.context import Context
from .app import PlayersApp
from .servicer import PlayerServicer

__all__ = ["SERVICE_NAME", "PlayerServicer", "PlayersApp", "add_players"]

SERVICE_NAME = ps.DESCRIPTOR.services_by_name["PlayerService"].full_name


def add_players(server: grpc.aio.Server, ctx: Context, register: Any = None) -> PlayersApp:
    """Serve PlayerService on `server` and make its authenticator the context's (every call's
    bearer token, on every service and both ports, is verified by it)."""
    app = PlayersApp(ctx)
    ctx.authenticate = app.authenticate
    ps_grpc.add_PlayerServiceServicer_to_server(
        PlayerServicer(app), register or generic_only(server)
    )
    return app
