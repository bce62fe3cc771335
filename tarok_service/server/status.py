"""The one place where service errors become gRPC statuses (with google.rpc.ErrorInfo).

Servicer methods are wrapped with `unary` / `stream`: a `ServiceError` aborts the call with
its status code and an ErrorInfo(reason, domain="tarok.v1", metadata); a store failure
becomes UNAVAILABLE and anything unexpected INTERNAL, so no call ends in UNKNOWN.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from functools import wraps
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from ..store import StoreError
from . import errors as e

DOMAIN = "tarok.v1"
CODES = {
    e.INVALID_ARGUMENT: grpc.StatusCode.INVALID_ARGUMENT,
    e.FAILED_PRECONDITION: grpc.StatusCode.FAILED_PRECONDITION,
    e.ABORTED: grpc.StatusCode.ABORTED,
    e.NOT_FOUND: grpc.StatusCode.NOT_FOUND,
    e.UNAUTHENTICATED: grpc.StatusCode.UNAUTHENTICATED,
    e.PERMISSION_DENIED: grpc.StatusCode.PERMISSION_DENIED,
    e.RESOURCE_EXHAUSTED: grpc.StatusCode.RESOURCE_EXHAUSTED,
    e.INTERNAL: grpc.StatusCode.INTERNAL,
    e.UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
}
log = structlog.get_logger("tarok.server")

Req = TypeVar("Req")
Resp = TypeVar("Resp")
Unary = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], Awaitable[Resp]]
Stream = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], AsyncIterator[Resp]]


def to_status(err: e.ServiceError) -> grpc.Status:
    """The gRPC status for a service error, ErrorInfo attached."""
    info = error_details_pb2.ErrorInfo(reason=err.reason, domain=DOMAIN, metadata=err.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    code = CODES.get(err.kind, grpc.StatusCode.INTERNAL)
    message = status_pb2.Status(code=code.value[0], message=err.message, details=[detail])
    return rpc_status.to_status(message)


def as_service_error(exc: Exception) -> e.ServiceError:
    """Any exception as a ServiceError (store failures: UNAVAILABLE; bugs: INTERNAL)."""
    if isinstance(exc, e.ServiceError):
        return exc
    if isinstance(exc, StoreError | ConnectionError | TimeoutError):
        log.warning("store unavailable", error=repr(exc))
        return e.ServiceError(e.UNAVAILABLE, e.STORE_UNAVAILABLE, "the event store is unavailable")
    log.exception("internal error", error=repr(exc))
    return e.ServiceError(e.INTERNAL, e.INTERNAL_ERROR, "internal server error")


async def abort(context: grpc.aio.ServicerContext[Any, Any], exc: Exception) -> None:
    status = to_status(as_service_error(exc))
    await context.abort(status.code, status.details, status.trailing_metadata)


def unary(method: Unary[Req, Resp]) -> Unary[Req, Resp]:
    """Wrap a unary servicer method with the error mapping."""

    @wraps(method)
    async def wrapper(
        self: Any, request: Req, context: grpc.aio.ServicerContext[Req, Resp]
    ) -> Resp:
        try:
            return await method(self, request, context)
        except Exception as exc:  # mapped to a status, never UNKNOWN
            await abort(context, exc)
            raise  # abort raises; this line is never reached

    return wrapper


def stream(method: Stream[Req, Resp]) -> Stream[Req, Resp]:
    """Wrap a server-streaming servicer method with the error mapping."""

    @wraps(method)
    async def wrapper(
        self: Any, request: Req, context: grpc.aio.ServicerContext[Req, Resp]
    ) -> AsyncIterator[Resp]:
        try:
            async for item in method(self, request, context):
                yield item
        except Exception as exc:  # mapped to a status, never UNKNOWN
            await abort(context, exc)

    return wrapper
