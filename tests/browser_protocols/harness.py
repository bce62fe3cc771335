"""Clients of the HTTP port that look like the gRPC stubs the service tests use.

`HttpStub` calls any TarokService / TournamentService method over the Connect protocol
(JSON or binary) or gRPC-Web with the Connect project's own client, and raises a failed
call as an `HttpRpcError`: a `grpc.RpcError` and `grpc.Call` whose code, message and
rich-status trailer come from the Connect error, so the service tests' error helpers
(`expect_error`, `rpc_status.from_call`) check the very ErrorInfo the HTTP client received.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import descriptor_pool
from google.rpc import status_pb2  # type: ignore[import-untyped]

from tarok_service.server.transport.http.bridge import method_info

TAROK = "tarok.v1.TarokService"
TRANSPORTS = ("connect-json", "connect-proto", "grpc-web", "grpc-web-json")


class HttpRpcError(grpc.RpcError, grpc.Call):
    """A Connect error as a finished gRPC call."""

    def __init__(self, error: ConnectError) -> None:
        super().__init__(error.message)
        name = "CANCELLED" if error.code.name == "CANCELED" else error.code.name
        self._code = grpc.StatusCode[name]
        self._message = error.message
        status = status_pb2.Status(
            code=self._code.value[0], message=error.message, details=list(error.details)
        )
        self._trailing = (("grpc-status-details-bin", status.SerializeToString()),)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> Any:
        return self._trailing

    def initial_metadata(self) -> tuple[tuple[str, str], ...]:
        return ()

    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> float:
        return 0.0

    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Callable[[], None]) -> bool:
        return False


class HttpStub:
    """`stub.CreateTable(request)`, `stub.WatchTable(request)`, ... over the HTTP port."""

    def __init__(
        self,
        base_url: str,
        transport: str,
        service: str = TAROK,
        headers: dict[str, str] | None = None,
    ) -> None:
        protocol = (
            ProtocolType.CONNECT if transport.startswith("connect") else ProtocolType.GRPC_WEB
        )
        self.transport = transport
        self.service = service
        self.headers = headers
        self.client = ConnectClientSync(
            base_url,
            protocol=protocol,
            proto_json=transport.endswith("json"),
            send_compression=None,
        )

    def __getattr__(self, name: str) -> Callable[..., Any]:
        path = f"/{self.service}/{name}"
        info = method_info(path)
        method = descriptor_pool.Default().FindServiceByName(self.service).methods_by_name[name]
        if method.server_streaming:

            def stream(request: Any, timeout: float | None = None) -> Iterator[Any]:
                try:
                    yield from self.client.execute_server_stream(
                        request=request, method=info, headers=self.headers, timeout_ms=_ms(timeout)
                    )
                except ConnectError as error:
                    raise HttpRpcError(error) from None

            return stream

        def unary(request: Any, timeout: float | None = None) -> Any:
            try:
                return self.client.execute_unary(
                    request=request, method=info, headers=self.headers, timeout_ms=_ms(timeout)
                )
            except ConnectError as error:
                raise HttpRpcError(error) from None

        return unary


def _ms(timeout: float | None) -> int | None:
    return None if timeout is None else int(timeout * 1000)
