"""Tournaments in the server: the TournamentService glue over the pure `tarok_service.competition`
(schedule, standings), tournament logs in the event store, and the per-replica workers that
play built-in bots and enforce the time per move."""

from __future__ import annotations

import weakref
from typing import Any

import grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..transport.generic import generic_only
from ..usecases.context import Context
from .app import TournamentApp
from .servicer import TournamentServicer

__all__ = [
    "SERVICE_NAME",
    "TournamentApp",
    "TournamentServicer",
    "add_tournaments",
    "start_tournaments",
    "stop_tournaments",
]

SERVICE_NAME = ts.DESCRIPTOR.services_by_name["TournamentService"].full_name
_APPS: weakref.WeakKeyDictionary[grpc.aio.Server, TournamentApp] = weakref.WeakKeyDictionary()


def add_tournaments(server: grpc.aio.Server, ctx: Context, register: Any = None) -> TournamentApp:
    """Serve TournamentService on `server`, sharing the table service's context (added
    through `register`, a `generic.generic_only(server, ...)`, when given)."""
    app = TournamentApp(ctx)
    add = ts_grpc.add_TournamentServiceServicer_to_server
    add(TournamentServicer(app), register or generic_only(server))
    _APPS[server] = app
    return app


def start_tournaments(server: grpc.aio.Server) -> None:
    """Start this replica's tournament supervisor (call once the server has started)."""
    app = _APPS.get(server)
    if app is not None:
        app.supervisor.start()


async def stop_tournaments(server: grpc.aio.Server) -> None:
    """Stop the supervisor and its workers (before the store closes)."""
    app = _APPS.pop(server, None)
    if app is not None:
        await app.supervisor.stop()
