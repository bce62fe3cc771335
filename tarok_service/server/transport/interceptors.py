"""The single interceptor hook point: per-call metrics, log context and access log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import structlog

from ..usecases.context import Context
from ..usecases.watch_fastpath import SharedSerializer
from .grpc_status import safe_deserializer
from .observe import observed

OWN_SERVICES = "/tarok.v1."  # methods whose servicers answer undecodable requests

log = structlog.get_logger("tarok.server")


class CallHook(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Observes every call (see `observe.py`): RPC metrics, log context, access log.

    With no app context it only binds the RPC method to structlog's context. Wrapped
    handlers are reused while `continuation` returns the same handler for a method.
    """

    def __init__(self, ctx: Context | None = None) -> None:
        self.ctx = ctx
        self._wrapped: dict[str, tuple[Any, Any]] = {}

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        method = handler_call_details.method
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        if self.ctx is None:
            structlog.contextvars.bind_contextvars(method=method)
        return self.wrapped(handler, method)

    def wrapped(
        self, handler: grpc.RpcMethodHandler[Any, Any], method: str
    ) -> grpc.RpcMethodHandler[Any, Any]:
        """`handler` of `method` as this hook serves it (made once per method and handler)."""
        known = self._wrapped.get(method)
        if known is None or known[0] is not handler:
            known = self._wrapped[method] = (handler, self._wrap(handler, method))
        return known[1]

    def _wrap(
        self, handler: grpc.RpcMethodHandler[Any, Any], method: str
    ) -> grpc.RpcMethodHandler[Any, Any]:
        if method.startswith(OWN_SERVICES):
            guarded = safe_deserializer(handler.request_deserializer)
            handler = handler._replace(request_deserializer=guarded)  # type: ignore[attr-defined]
        if handler.unary_stream is not None and handler.response_serializer is not None:
            shared = SharedSerializer(handler.response_serializer)
            handler = handler._replace(response_serializer=shared)  # type: ignore[attr-defined]
        return handler if self.ctx is None else observed(handler, method, self.ctx)


def interceptors(ctx: Context | None = None) -> list[Any]:
    """The interceptors every server gets, outermost first (`ctx`: the app's context)."""
    return [CallHook(ctx)]
