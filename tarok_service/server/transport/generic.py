"""Services registered as generic handlers only: a cheaper call loop in grpc.aio.

The generated `add_*Servicer_to_server` functions register a service twice: as a generic
handler and as "registered methods". grpc.aio's serving loop keeps one pending request per
registered method (and one for all generic ones) and, for every call it accepts, runs
`asyncio.wait` over all of them - adding and removing a done-callback on each, so every call
costs the event loop time in proportion to the number of registered methods (about 25 here:
TarokService, TournamentService, health). Registering through `generic_only(server)` keeps the
generic handler alone: one pending request, whatever the number of methods.

With a `hook` (the interceptor's `CallHook`), each method's handler is served already
wrapped by it - the handler the interceptor would return - so the server needs no
interceptors: grpc.aio's interceptor chain (a coroutine and a continuation per interceptor,
for every call) is skipped. Calls are dispatched, observed and answered exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeAlias

import grpc

Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"


class Hook(Protocol):
    def wrapped(self, handler: Handler, method: str) -> Handler: ...


class GenericOnly:
    """Stands in for a `grpc.aio.Server` while a servicer is added: generic handlers pass on
    to the server (served through `hook`, if any), registered-method handlers are left out
    (the generic handler added with them serves the same methods)."""

    def __init__(self, server: grpc.aio.Server, hook: Hook | None = None) -> None:
        self.server = server
        self.hook = hook

    def add_generic_rpc_handlers(
        self, handlers: Iterable[grpc.GenericRpcHandler[Any, Any]]
    ) -> None:
        hook = self.hook
        if hook is not None:
            handlers = [Hooked(handler, hook) for handler in handlers]
        self.server.add_generic_rpc_handlers(tuple(handlers))

    def add_registered_method_handlers(
        self, service_name: str, handlers: Mapping[str, Any]
    ) -> None:
        """Left out: see the module docstring."""


class Hooked(grpc.GenericRpcHandler):  # type: ignore[type-arg]
    """A generic handler whose method handlers come wrapped by a hook."""

    def __init__(self, inner: grpc.GenericRpcHandler[Any, Any], hook: Hook) -> None:
        self.inner = inner
        self.hook = hook

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> Handler | None:
        handler = self.inner.service(handler_call_details)
        if handler is None:
            return None
        return self.hook.wrapped(handler, handler_call_details.method)


def generic_only(server: grpc.aio.Server, hook: Hook | None = None) -> Any:
    """`server`, for the generated `add_*Servicer_to_server` functions, with each service
    registered as a generic handler only (its handlers wrapped by `hook`, if any)."""
    return GenericOnly(server, hook)
