"""Services registered as generic handlers only: a cheaper call loop in grpc.aio.

The generated `add_*Servicer_to_server` functions register a service twice: as a generic
handler and as "registered methods". grpc.aio's serving loop keeps one pending request per
registered method (and one for all generic ones) and, for every call it accepts, runs
`asyncio.wait` over all of them - adding and removing a done-callback on each, so every call
costs the event loop time in proportion to the number of registered methods (about 25 here:
TarokService, TournamentService, health). Registering through `generic_only(server)` keeps the
generic handler alone: one pending request, whatever the number of methods. Calls are
dispatched, intercepted and answered exactly as before (the generic handler maps the same
method names to the same handlers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import grpc


class GenericOnly:
    """Stands in for a `grpc.aio.Server` while a servicer is added: generic handlers pass on
    to the server, registered-method handlers are left out (the generic handler added with
    them serves the same methods)."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self.server = server

    def add_generic_rpc_handlers(
        self, handlers: Iterable[grpc.GenericRpcHandler[Any, Any]]
    ) -> None:
        self.server.add_generic_rpc_handlers(tuple(handlers))

    def add_registered_method_handlers(
        self, service_name: str, handlers: Mapping[str, Any]
    ) -> None:
        """Left out: see the module docstring."""


def generic_only(server: grpc.aio.Server) -> Any:
    """`server`, for the generated `add_*Servicer_to_server` functions, with each service
    registered as a generic handler only."""
    return GenericOnly(server)
