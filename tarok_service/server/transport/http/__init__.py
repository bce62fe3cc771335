"""The HTTP port: the gRPC services over the Connect protocol (JSON and binary), gRPC-Web and
gRPC, for browsers and plain HTTP clients, plus CORS and the static files of a web frontend.

The Connect project's Python runtime (`connect-python`, on Google's protobuf like the rest of
the server) speaks the three protocols; Hypercorn is the ASGI server (HTTP/1.1 and HTTP/2,
with the trailers gRPC needs). Calls run the very handlers and interceptors of the gRPC port
(see `bridge.py`), so both transports share metrics, logs and error mapping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import grpc
from connectrpc.server import ConnectASGIApplication
from hypercorn.asyncio import serve
from hypercorn.config import Config as HypercornConfig

from .asgi import App, Receive, Scope, Send, respond
from .bridge import Bridge, Handler, record
from .cors import Cors
from .drain import DrainBody
from .static import StaticFiles

__all__ = ["HttpServer", "build_app", "record", "static_dir_default"]

DRAIN_FACTOR = 8  # a refused request body is read up to this many times the message limit


class _Connect(ConnectASGIApplication[object]):
    """Every recorded method at its Connect path ("/tarok.v1.TarokService/Ping")."""

    @property
    def path(self) -> str:
        return "/"


class Router:
    """RPC paths to the Connect application, everything else to the static files (if any)."""

    def __init__(self, rpc: App, paths: frozenset[str], static: StaticFiles | None) -> None:
        self.rpc = rpc
        self.paths = paths
        self.static = static

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope["path"] in self.paths:
            await self.rpc(scope, receive, send)
        elif self.static is not None:
            await self.static(scope, receive, send)
        else:
            await respond(send, 404, b"not found\n")


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def build_app(
    handlers: Mapping[str, Handler],
    interceptors: Sequence[grpc.aio.ServerInterceptor],  # type: ignore[type-arg]
    cors_origins: Sequence[str] = (),
    static_dir: str | None = None,
    max_message_bytes: int | None = None,
) -> App:
    """The ASGI application of the HTTP port."""
    endpoints = Bridge(handlers, interceptors).endpoints()
    rpc = _Connect(
        service=object(),
        endpoints=lambda _: endpoints,
        read_max_bytes=max_message_bytes,
    )
    static = StaticFiles(static_dir) if static_dir else None
    drained = DrainBody(rpc, DRAIN_FACTOR * (max_message_bytes or 4 << 20))
    router = Router(drained, frozenset(endpoints), static)
    return Cors(router, cors_origins)


class HttpServer:
    """Hypercorn serving one ASGI app on a socket bound at construction (`port` is known)."""

    def __init__(
        self, app: App, host: str, port: int, grace: float = 5.0, reuse_port: bool = False
    ) -> None:
        self.app = app
        sock = _listen(host, port, reuse_port)
        self.port = int(sock.getsockname()[1])
        self._config = HypercornConfig()
        self._config.bind = [f"fd://{sock.detach()}"]
        self._config.accesslog = None
        self._config.errorlog = logging.getLogger("tarok.http")
        self._config.graceful_timeout = grace
        self._config.keep_alive_timeout = 75
        self._stop = asyncio.Event()
        self._task: asyncio.Task[Any] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(
            serve(self.app, self._config, shutdown_trigger=self._stop.wait, mode="asgi")  # type: ignore[arg-type]
        )

    async def stop(self) -> None:
        """Stop accepting, let requests in flight finish (within `grace`), close the socket."""
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _listen(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A listening socket; `reuse_port`: SO_REUSEPORT, shared with the other workers."""
    name = host.strip("[]") or "::"
    if name == "::" and socket.has_dualstack_ipv6():
        sock = socket.create_server(
            ("::", port), family=socket.AF_INET6, dualstack_ipv6=True, reuse_port=reuse_port
        )
    else:
        family = socket.AF_INET6 if ":" in name else socket.AF_INET
        sock = socket.create_server((name, port), family=family, reuse_port=reuse_port)
    sock.setblocking(False)
    return sock


def static_dir_default(given: str | None) -> str | None:
    """--static-dir, else `clients/web/dist` when that directory exists here."""
    if given:
        return given
    default = Path("clients/web/dist")
    return str(default) if default.is_dir() else None
