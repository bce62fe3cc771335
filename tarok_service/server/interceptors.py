"""The single interceptor hook point: per-call context for logs (metrics can hang here too)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import structlog

log = structlog.get_logger("tarok.server")


class CallHook(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Binds the RPC method to structlog's context for every call.

    This is where call metrics and access logs belong: wrap the handler returned by
    `continuation` (see grpc.aio.ServerInterceptor). It stays cheap on the move path.
    """

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        structlog.contextvars.bind_contextvars(rpc=handler_call_details.method)
        return await continuation(handler_call_details)


def interceptors() -> list[Any]:
    """The interceptors every server gets, outermost first."""
    return [CallHook()]
