"""The players' games in the server (docs/players.md): MatchService (matchmaking, history,
profile, leaderboards), the ratings of rated free tables, and what a closed table leaves in
the players' logs. Plugged in by the composition root like the tournaments; the core never
imports it (it installs `Context.table_closed`)."""

from __future__ import annotations

from typing import Any

import grpc
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import match_service_pb2_grpc as ms_grpc

from ..transport.generic import generic_only
from ..usecases.app import TarokApp
from .app import MatchApp, NameOf, no_names
from .servicer import MatchServicer

__all__ = ["SERVICE_NAME", "MatchApp", "MatchServicer", "add_matches"]

SERVICE_NAME = ms.DESCRIPTOR.services_by_name["MatchService"].full_name


def add_matches(
    server: grpc.aio.Server, app: TarokApp, register: Any = None, name_of: NameOf = no_names
) -> MatchApp:
    """Serve MatchService on `server` over the table service's application, and have every
    closed table recorded in its players' history and ratings (`name_of`: a player's display
    name, from the players feature)."""
    matches = MatchApp(app, name_of)
    app.ctx.table_closed = matches.table_closed
    ms_grpc.add_MatchServiceServicer_to_server(
        MatchServicer(matches), register or generic_only(server)
    )
    return matches
