"""What the interceptor does around every call: metrics, log context and the access log.

`observed(handler, method, ctx)` wraps a gRPC method handler. Each call then
- sets request_id, table, seat, variant and method as the call's log context (so every
  line logged while handling it carries them; see `logconf.add_request_context`),
- counts it in the RPC metrics (requests by method and code, latency, in flight, stream
  messages sent - added `SENT_BATCH` at a time and when the stream ends, since a counter
  increment per message is a measurable share of a watch delivery),
- verifies the caller's bearer token, if any (`Context.authenticate`), and sets the call's
  caller (`usecases/identity.py`); a bad token ends the call UNAUTHENTICATED (never anonymous),
- writes one access line with the status code, the ErrorInfo reason, the signed-in player
  (if any) and, for moves, the move kind (never the move's argument: that may be a card).
  The line is rendered and written by a background thread (`accesslog.py`), off the event
  loop.
Health and reflection calls are measured but not logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import time
from collections.abc import AsyncIterator, Callable
from contextvars import Token
from typing import Any

import grpc
import structlog
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

from .. import errors as e
from ..ops.accesslog import ACCESS_LOG
from ..ops.logconf import request_context
from ..usecases.context import Context
from ..usecases.identity import CALLER, Caller, check_method
from ..usecases.limits import log_text
from .grpc_status import abort
from .principal import bearer_of

log = structlog.get_logger("tarok.server")

REQUEST_ID_HEADER = "x-request-id"
STATUS_DETAILS = "grpc-status-details-bin"
QUIET_PREFIXES = ("/grpc.health.", "/grpc.reflection.")
SENT_BATCH = 32  # a stream's messages counted at a time (and the rest when it ends)
SERVER_FAULTS = frozenset(
    {
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
Ctx = grpc.aio.ServicerContext[Any, Any]


class Observer:
    """Per-method metric children, resolved once, and the method's log settings."""

    def __init__(self, ctx: Context, method: str, streaming: bool = False) -> None:
        m = ctx.metrics
        self.ctx = ctx
        self.method = method
        self.quiet = method.startswith(QUIET_PREFIXES)
        self.duration = m.rpc_duration.labels(method)
        self.in_flight = m.rpc_in_flight.labels(method)
        self.sent = m.stream_messages.labels(method) if streaming else None
        self._requests = m.rpc_requests
        self._by_code: dict[grpc.StatusCode, Any] = {}

    async def sign_in(self, context: Ctx) -> Token[Caller | None] | None:
        """Verify the call's bearer token, if any, and make it the call's caller (aborting
        the call UNAUTHENTICATED when it is not valid); None when there is no token."""
        try:
            token = bearer_of(context.invocation_metadata())
            if token is None:
                return None
            who = await self.ctx.authenticate(token)
            check_method(who, self.method)
            return CALLER.set(who)
        except Exception as exc:  # mapped to a status, never UNKNOWN
            await abort(context, exc)
            raise

    def begin(self, request: Any, context: Ctx) -> dict[str, Any]:
        """The call's log fields; counts it as in flight."""
        self.in_flight.inc()
        return request_fields(self.ctx, self.method, request, context)

    def end(
        self,
        fields: dict[str, Any],
        context: Ctx,
        exc: BaseException | None,
        t0: float,
        response: Any = None,
    ) -> None:
        elapsed = time.perf_counter() - t0
        self.in_flight.dec()
        self.duration.observe(elapsed)
        code = status_code(context, exc)
        counter = self._by_code.get(code)
        if counter is None:
            counter = self._by_code[code] = self._requests.labels(self.method, code.name)
        counter.inc()
        if self.quiet:
            return
        extra = dict(fields)  # the call's context fields, then what the call ended with
        extra["code"] = code.name
        extra["ms"] = round(elapsed * 1000, 2)
        reason = error_reason(context) if code != grpc.StatusCode.OK else None
        if reason is not None:
            extra["reason"] = reason
        who = CALLER.get()
        if who is not None:
            extra["player"] = who.player_id
        if response is not None and (fields["table"] is None or fields["seat"] is None):
            answered = _fields_of(response)
            if fields["table"] is None and "table_id" in answered:  # CreateTable
                extra["table"] = response.table_id or None
            if fields["seat"] is None and "seat" in answered and _has(response, "seat"):
                extra["seat"] = response.seat  # JoinTable
        table_id = extra.get("table") or fields["table"]
        if fields["variant"] is None and table_id:
            table = self.ctx.cache.peek(table_id)
            if table is not None:
                extra["variant"] = table.variant.id
        ACCESS_LOG.write(code in SERVER_FAULTS, extra)


def observed(
    handler: grpc.RpcMethodHandler[Any, Any], method: str, ctx: Context
) -> grpc.RpcMethodHandler[Any, Any]:
    """`handler` with every call observed (see module docstring)."""
    obs = Observer(ctx, method, bool(handler.response_streaming))
    if handler.unary_unary is not None:
        return handler._replace(unary_unary=_unary(obs, handler.unary_unary))  # type: ignore[attr-defined,no-any-return]
    if handler.unary_stream is not None:
        return handler._replace(unary_stream=_streaming(obs, handler.unary_stream))  # type: ignore[attr-defined,no-any-return]
    if handler.stream_unary is not None:
        return handler._replace(stream_unary=_unary(obs, handler.stream_unary))  # type: ignore[attr-defined,no-any-return]
    if handler.stream_stream is not None:
        return handler._replace(stream_stream=_streaming(obs, handler.stream_stream))  # type: ignore[attr-defined,no-any-return]
    return handler


def _unary(obs: Observer, inner: Callable[..., Any]) -> Callable[..., Any]:
    """A handler returning one response (or writing with context.write)."""

    async def behavior(request: Any, context: Ctx) -> Any:
        t0 = time.perf_counter()
        fields = obs.begin(request, context)
        bound = request_context.set(fields)
        signed: Token[Caller | None] | None = None
        try:
            signed = await obs.sign_in(context)
            response = await inner(request, context)
        except BaseException as exc:
            obs.end(fields, context, exc, t0)
            raise
        else:
            obs.end(fields, context, None, t0, response)
            return response
        finally:
            _unbind(bound, signed)

    return behavior


def _streaming(obs: Observer, inner: Callable[..., Any]) -> Callable[..., Any]:
    """A server-streaming handler: an async generator, or a coroutine using context.write."""
    if not inspect.isasyncgenfunction(inner):
        return _unary(obs, inner)

    async def behavior(request: Any, context: Ctx) -> AsyncIterator[Any]:
        t0 = time.perf_counter()
        fields = obs.begin(request, context)
        bound = request_context.set(fields)
        sent, unsent = obs.sent, 0
        signed: Token[Caller | None] | None = None
        try:
            signed = await obs.sign_in(context)
            async for item in inner(request, context):
                unsent += 1
                if unsent == SENT_BATCH and sent is not None:
                    sent.inc(unsent)
                    unsent = 0
                yield item
        except BaseException as exc:
            obs.end(fields, context, exc, t0)
            raise
        else:
            obs.end(fields, context, None, t0)
        finally:
            if unsent and sent is not None:
                sent.inc(unsent)
            _unbind(bound, signed)

    return behavior


def _unbind(
    bound: Token[dict[str, Any] | None], signed: Token[Caller | None] | None = None
) -> None:
    # A stream closed from another context: nothing to undo there.
    with contextlib.suppress(ValueError):
        request_context.reset(bound)
        if signed is not None:
            CALLER.reset(signed)


def _has(message: Any, name: str) -> bool:
    try:
        return bool(message.HasField(name))
    except (AttributeError, ValueError):
        return False


_FIELDS: dict[type, frozenset[str]] = {}


def _fields_of(message: Any) -> frozenset[str]:
    """The field names of a protobuf message's type (empty for anything else), cached."""
    kind = type(message)
    names = _FIELDS.get(kind)
    if names is None:
        descriptor = getattr(message, "DESCRIPTOR", None)
        names = frozenset(getattr(descriptor, "fields_by_name", None) or ())
        _FIELDS[kind] = names
    return names


def request_fields(ctx: Context, method: str, request: Any, context: Ctx) -> dict[str, Any]:
    """request_id, table, seat, variant, method (None where unknown) and move_kind for moves."""
    names = _fields_of(request)
    rid = request.request_id if "request_id" in names else ""
    fields: dict[str, Any] = {
        "request_id": log_text(rid) if rid else _request_id(context),
        "table": None,
        "seat": None,
        "variant": None,
        "method": method,
    }
    token = request.token if "token" in names else ""
    if token:
        try:
            claim = ctx.claim(token)
        except e.ServiceError:
            pass  # the use case reports it
        else:
            fields["table"], fields["seat"] = claim.table_id, claim.seat
    table_id = fields["table"] or (request.table_id if "table_id" in names else "")
    if table_id:
        fields["table"] = log_text(table_id)
        table = ctx.cache.peek(table_id)
        if table is not None:
            fields["variant"] = table.variant.id
    elif "variant" in names and isinstance(request.variant, str):
        fields["variant"] = log_text(request.variant) or None
    if "move_id" in names:
        fields["move_kind"] = move_kind(request)
    return fields


def move_kind(request: Any) -> str | None:
    """The kind of a SubmitMove's move ("bid", "play", ...) - never its argument."""
    which = request.WhichOneof("move")
    if which == "move_id":
        kind = str(request.move_id).partition(":")[0]
    elif which == "spec":
        kind = str(request.spec.kind)
    else:
        return None
    return kind if kind.isascii() and kind.isalpha() and kind.islower() else "?"


def _request_id(context: Ctx) -> str:
    """The x-request-id header, else a new id."""
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_HEADER and isinstance(value, str) and value:
            return str(log_text(value))
    return os.urandom(8).hex()


def status_code(context: Ctx, exc: BaseException | None) -> grpc.StatusCode:
    """The status the call ends with."""
    try:
        code = context.code()
    except (AttributeError, NotImplementedError):
        code = None
    if isinstance(code, grpc.StatusCode):
        return code
    if isinstance(code, int):
        for candidate in grpc.StatusCode:
            if candidate.value[0] == code:
                return candidate
    if exc is None:
        return grpc.StatusCode.OK
    # The caller went away: a cancelled gRPC call, or a stream the HTTP port closed because
    # its client disconnected (a browser tab closing) - the generator is closed mid-stream.
    if isinstance(exc, asyncio.CancelledError | GeneratorExit):
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN


def error_reason(context: Ctx) -> str | None:
    """The ErrorInfo reason in the call's trailing metadata (set by `status.abort`)."""
    try:
        trailing = context.trailing_metadata() or ()
    except (AttributeError, NotImplementedError):
        return None
    for key, value in trailing:
        if key == STATUS_DETAILS and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return str(info.reason)
    return None


def flush_access_log(timeout: float = 10.0) -> bool:
    """Wait until every access line queued so far is written."""
    return ACCESS_LOG.flush(timeout)
