"""The one place where service errors become gRPC statuses (with google.rpc.ErrorInfo).

Servicer methods are wrapped with `unary` / `stream`: a `ServiceError` aborts the call with
its status code and an ErrorInfo(reason, domain="tarok.v1", metadata); a store failure
becomes UNAVAILABLE (with a google.rpc.RetryInfo) and anything unexpected INTERNAL, so no
call ends in UNKNOWN. A request that could not be decoded reaches the method as
`UNDECODABLE` (see `safe_deserializer`) and is answered INVALID_ARGUMENT. Messages and
metadata are cut to a bounded size, whatever a caller sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from functools import wraps
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from ...engine.moves import EngineBug
from ...store import StoreError
from .. import errors as e

DOMAIN = "tarok.v1"
MAX_MESSAGE = 256  # characters of a status message
MAX_METADATA = 128  # characters of an ErrorInfo metadata value
RETRY_AFTER_SECONDS = 1
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
    e.UNIMPLEMENTED: grpc.StatusCode.UNIMPLEMENTED,
    e.DEADLINE_EXCEEDED: grpc.StatusCode.DEADLINE_EXCEEDED,
}
log = structlog.get_logger("tarok.server")

Req = TypeVar("Req")
Resp = TypeVar("Resp")
Unary = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], Awaitable[Resp]]
Stream = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], AsyncIterator[Resp]]


class Undecodable:
    """Stands for a request whose bytes are not a valid message of the method's type."""


UNDECODABLE = Undecodable()


def safe_deserializer(inner: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """`inner`, but answering `UNDECODABLE` instead of raising (which would be UNKNOWN)."""
    if inner is None:
        return None

    def deserialize(data: bytes) -> Any:
        try:
            return inner(data)
        except Exception:  # DecodeError, invalid UTF-8, unknown wire types, ...
            return UNDECODABLE

    return deserialize


def to_status(err: e.ServiceError) -> grpc.Status:
    """The gRPC status for a service error, ErrorInfo (and RetryInfo) attached."""
    metadata = {k[:MAX_METADATA]: v[:MAX_METADATA] for k, v in err.metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=err.reason, domain=DOMAIN, metadata=metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    details = [detail]
    if err.kind == e.UNAVAILABLE:
        retry = error_details_pb2.RetryInfo(
            retry_delay=duration_pb2.Duration(seconds=RETRY_AFTER_SECONDS)
        )
        details.append(any_pb2.Any())
        details[-1].Pack(retry)
    code = CODES.get(err.kind, grpc.StatusCode.INTERNAL)
    text = err.message if len(err.message) <= MAX_MESSAGE else err.message[:MAX_MESSAGE] + "..."
    message = status_pb2.Status(code=code.value[0], message=text, details=details)
    return rpc_status.to_status(message)


def as_service_error(exc: Exception) -> e.ServiceError:
    """Any exception as a ServiceError (store failures: UNAVAILABLE; bugs: INTERNAL)."""
    if isinstance(exc, e.ServiceError):
        return exc
    if isinstance(exc, StoreError | ConnectionError | TimeoutError):
        log.warning("store unavailable", error=repr(exc))
        return e.ServiceError(e.UNAVAILABLE, e.STORE_UNAVAILABLE, "the event store is unavailable")
    if isinstance(exc, EngineBug):
        log.exception("engine bug", error=repr(exc))
        return e.ServiceError(e.INTERNAL, e.ENGINE_BUG, "internal error in the rules engine")
    log.exception("internal error", error=repr(exc))
    return e.ServiceError(e.INTERNAL, e.INTERNAL_ERROR, "internal server error")


async def abort(context: grpc.aio.ServicerContext[Any, Any], exc: Exception) -> None:
    status = to_status(as_service_error(exc))
    await context.abort(status.code, status.details, status.trailing_metadata)


def malformed() -> e.ServiceError:
    """The one answer to a request whose bytes are not a valid message, on every transport."""
    return e.ServiceError(
        e.INVALID_ARGUMENT, e.MALFORMED_REQUEST, "the request could not be decoded"
    )


def check_decoded(request: object) -> None:
    if request is UNDECODABLE:
        raise malformed()


def unary(method: Unary[Req, Resp]) -> Unary[Req, Resp]:
    """Wrap a unary servicer method with the error mapping."""

    @wraps(method)
    async def wrapper(
        self: Any, request: Req, context: grpc.aio.ServicerContext[Req, Resp]
    ) -> Resp:
        try:
            check_decoded(request)
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
            check_decoded(request)
            async for item in method(self, request, context):
                yield item
        except Exception as exc:  # mapped to a status, never UNKNOWN
            await abort(context, exc)

    return wrapper
