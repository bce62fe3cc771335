"""The gRPC services' own method handlers, served as Connect endpoints.

The HTTP port does not re-implement any RPC: it collects the `grpc.RpcMethodHandler`s the
generated `add_*Servicer_to_server` functions register (the same servicer classes the gRPC
port serves), passes every call through the same server interceptors (metrics, log context,
access log), and runs the handler with a `BridgeContext` standing in for
`grpc.aio.ServicerContext`. An abort (`status.abort`) becomes a `ConnectError` with the same
code, message and `google.rpc.ErrorInfo` details.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo
from connectrpc.request import RequestContext
from connectrpc.server import Endpoint
from google.protobuf import descriptor_pool, message_factory
from google.rpc import status_pb2  # type: ignore[import-untyped]

from ...errors import ServiceError
from ..grpc_status import to_status

STATUS_DETAILS = "grpc-status-details-bin"
Metadata = tuple[tuple[str, str | bytes], ...]
Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"
AddServicer = Callable[[Any, Any], None]


class Recorder:
    """Stands in for a `grpc.aio.Server` to record the handlers a servicer registers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}

    def add_generic_rpc_handlers(self, handlers: Iterable[Any]) -> None:
        """Ignored: the same handlers also come through `add_registered_method_handlers`."""

    def add_registered_method_handlers(
        self, service_name: str, handlers: Mapping[str, Handler]
    ) -> None:
        for method, handler in handlers.items():
            self.handlers[f"/{service_name}/{method}"] = handler


def record(servicers: Sequence[tuple[AddServicer, Any]]) -> dict[str, Handler]:
    """Method path ("/pkg.Service/Method") -> handler, for (add function, servicer) pairs."""
    recorder = Recorder()
    for add, servicer in servicers:
        add(servicer, recorder)
    return recorder.handlers


class CallDetails(NamedTuple):
    """What a server interceptor learns about a call (`grpc.HandlerCallDetails`)."""

    method: str
    invocation_metadata: Metadata


class Aborted(ConnectError):
    """The call was aborted through its `BridgeContext` (a `ConnectError` for the transport)."""


class BridgeContext:
    """The part of `grpc.aio.ServicerContext` the servicers and interceptors use."""

    def __init__(self, request: RequestContext[Any, Any]) -> None:
        self._request = request
        self._code: grpc.StatusCode | None = None
        self._details = ""
        self._trailing: Metadata = ()

    def invocation_metadata(self) -> Metadata:
        return tuple(self._request.request_headers().allitems())

    def peer(self) -> str:
        """The client as gRPC spells it ("ipv4:10.0.0.7:51234", "ipv6:[::1]:51234"), so that
        `peer_address` drops the port and one client's connections count as one address."""
        return grpc_peer(self._request.client_address() or "")

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> Metadata:
        return self._trailing

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_details(self, details: str) -> None:
        self._details = details

    def set_trailing_metadata(self, metadata: Metadata) -> None:
        self._trailing = tuple(metadata)

    def time_remaining(self) -> float | None:
        remaining = self._request.timeout_ms()
        return None if remaining is None else remaining / 1000

    async def abort(
        self, code: grpc.StatusCode, details: str = "", trailing_metadata: Metadata = ()
    ) -> None:
        self._code, self._details, self._trailing = code, details, tuple(trailing_metadata)
        raise Aborted(connect_code(code), details, status_details(self._trailing))


def grpc_peer(address: str) -> str:
    """An ASGI "host:port" in gRPC's peer form ("" stays "")."""
    host, sep, port = address.rpartition(":")
    if not sep or not host:
        return address
    host = host.strip("[]")
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


def connect_error(err: ServiceError) -> ConnectError:
    """A service error as the HTTP port answers it: the gRPC port's code, message and details."""
    status = to_status(err)
    return ConnectError(
        connect_code(status.code), status.details, status_details(status.trailing_metadata)
    )


def connect_code(code: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status code (same names; CANCELLED is spelt CANCELED)."""
    name = "CANCELED" if code == grpc.StatusCode.CANCELLED else code.name
    return Code[name] if name in Code.__members__ else Code.UNKNOWN


def status_details(trailing: Metadata) -> list[Any]:
    """The `google.protobuf.Any` details of a rich status in trailing metadata."""
    for key, value in trailing:
        if key == STATUS_DETAILS and isinstance(value, bytes):
            return list(status_pb2.Status.FromString(value).details)
    return []


@dataclass(frozen=True)
class Bridge:
    """Connect endpoints for recorded gRPC handlers, through the gRPC server interceptors."""

    handlers: Mapping[str, Handler]
    interceptors: Sequence[grpc.aio.ServerInterceptor]  # type: ignore[type-arg]

    def endpoints(self) -> dict[str, Any]:
        """URL path -> Connect endpoint (`connectrpc.server.Endpoint`), one per recorded method."""
        out: dict[str, Any] = {}
        for path, handler in self.handlers.items():
            info = method_info(path)
            if handler.unary_unary is not None:
                out[path] = Endpoint.unary(info, self._unary(path))
            elif handler.unary_stream is not None:
                out[path] = Endpoint.server_stream(info, self._stream(path))
        return out

    async def _intercepted(self, path: str, context: BridgeContext) -> Handler:
        """The method's handler as the interceptor chain returns it for this call."""

        async def innermost(_: grpc.HandlerCallDetails) -> Handler:
            return self.handlers[path]

        chain: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]] = innermost
        for interceptor in reversed(self.interceptors):
            chain = _link(interceptor, chain)
        details = CallDetails(path, context.invocation_metadata())
        return await chain(details)  # type: ignore[arg-type]

    def _unary(self, path: str) -> Callable[[Any, RequestContext[Any, Any]], Awaitable[Any]]:
        async def call(request: Any, rctx: RequestContext[Any, Any]) -> Any:
            context = BridgeContext(rctx)
            handler = await self._intercepted(path, context)
            assert handler.unary_unary is not None
            return await handler.unary_unary(request, context)  # type: ignore[arg-type]

        return call

    def _stream(self, path: str) -> Callable[[Any, RequestContext[Any, Any]], AsyncIterator[Any]]:
        async def call(request: Any, rctx: RequestContext[Any, Any]) -> AsyncIterator[Any]:
            context = BridgeContext(rctx)
            handler = await self._intercepted(path, context)
            assert handler.unary_stream is not None
            async for item in handler.unary_stream(request, context):  # type: ignore[arg-type,attr-defined]
                yield item

        return call


def _link(
    interceptor: grpc.aio.ServerInterceptor,  # type: ignore[type-arg]
    continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
) -> Callable[[grpc.HandlerCallDetails], Awaitable[Handler]]:
    async def step(details: grpc.HandlerCallDetails) -> Handler:
        return await interceptor.intercept_service(continuation, details)

    return step


def method_info(path: str) -> MethodInfo[Any, Any]:
    """Connect's description of a method, from the protobuf descriptors of its service."""
    service_name, _, name = path.strip("/").partition("/")
    pool = descriptor_pool.Default()
    method = pool.FindServiceByName(service_name).methods_by_name[name]
    return MethodInfo(
        name=name,
        service_name=service_name,
        input=message_factory.GetMessageClass(method.input_type),
        output=message_factory.GetMessageClass(method.output_type),
        idempotency_level=IdempotencyLevel.UNKNOWN,
    )
