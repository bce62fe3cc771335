"""The HTTP port: the gRPC services over the Connect protocol (JSON and binary), gRPC-Web and
gRPC, for browsers and plain HTTP clients, plus CORS and the static files of a web frontend.

The Connect project's Python runtime (`connect-python`, on Google's protobuf like the rest of
the server) speaks the three protocols; Hypercorn is the ASGI server (HTTP/1.1 and HTTP/2,
with the trailers gRPC needs). Calls run the very handlers and interceptors of the gRPC port
(see `bridge.py`), so both transports share metrics, logs and error mapping.

Limits are enforced while a request is read: `limits.py` (body size, envelope prefixes,
stalled bodies), `decode.py` (bounded gzip inflation; decoding failures answered
MALFORMED_REQUEST), `connections.py` (connections per client address), Hypercorn's own
settings for heads and idle connections (below); `unknown.py` answers unknown methods
UNIMPLEMENTED. SECURITY.md lists the limits and their defaults.
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
from hypercorn.asyncio.run import worker_serve
from hypercorn.config import Config as HypercornConfig
from hypercorn.config import Sockets
from hypercorn.utils import wrap_app

from ...config import ServerConfig
from .asgi import App, Receive, Scope, Send, respond
from .bridge import Bridge, Handler, record
from .connections import CappedListener, Slots, install_prompt_close
from .cors import Cors
from .decode import compressions, guard_codecs
from .limits import BodyLimits
from .static import StaticFiles
from .unknown import answer_unimplemented, is_rpc

__all__ = ["HttpServer", "build_app", "record", "static_dir_default"]

MAX_MESSAGE = 4 << 20  # a request message's size limit when none is configured
# the defaults of the settings (one place: ServerConfig)
BODY_TIMEOUT = ServerConfig.http_body_timeout_seconds  # a stalled request body is refused
IDLE_TIMEOUT = ServerConfig.http_idle_timeout_seconds  # a wait for (the rest of) a request head
MAX_HEAD = 16 << 10  # bytes of an HTTP/1.1 request head
CONNECTIONS_PER_ADDRESS = ServerConfig.http_connections_per_address  # per client address
H2_STREAMS = 100  # concurrent requests on one HTTP/2 connection


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
        elif is_rpc(scope):
            await answer_unimplemented(scope, send)
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
    body_timeout: float = BODY_TIMEOUT,
) -> App:
    """The ASGI application of the HTTP port."""
    guard_codecs()
    limit = max_message_bytes or MAX_MESSAGE
    endpoints = Bridge(handlers, interceptors).endpoints()
    rpc = _Connect(
        service=object(),
        endpoints=lambda _: endpoints,
        read_max_bytes=limit,
        compressions=compressions(limit),
    )
    static = StaticFiles(static_dir) if static_dir else None
    limited = BodyLimits(rpc, limit, body_timeout)
    router = Router(limited, frozenset(endpoints), static)
    return Cors(router, cors_origins)


class HttpServer:
    """Hypercorn serving one ASGI app on a socket bound at construction (`port` is known)."""

    def __init__(
        self,
        app: App,
        host: str,
        port: int,
        grace: float = 5.0,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        idle_timeout: float = IDLE_TIMEOUT,
        reuse_port: bool = False,
    ) -> None:
        self.app = app
        self.slots = Slots(per_address)
        self._sock = CappedListener.wrap(_listen(host, port, reuse_port), self.slots)
        self.port = int(self._sock.getsockname()[1])
        self._config = HypercornConfig()
        self._config.accesslog = None
        self._config.errorlog = logging.getLogger("tarok.http")
        self._config.graceful_timeout = grace
        # Hypercorn's own limits: an idle connection (or one whose request head stopped
        # arriving) is closed after `keep_alive_timeout`; a head is at most MAX_HEAD bytes.
        self._config.keep_alive_timeout = idle_timeout
        self._config.h11_max_incomplete_size = MAX_HEAD
        self._config.h2_max_concurrent_streams = H2_STREAMS
        self._config.h2_max_header_list_size = MAX_HEAD
        self._stop = asyncio.Event()
        self._task: asyncio.Task[Any] | None = None

    def start(self) -> None:
        install_prompt_close()
        sockets = Sockets(secure_sockets=[], insecure_sockets=[self._sock], quic_sockets=[])
        self._task = asyncio.create_task(
            worker_serve(
                wrap_app(self.app, 0, "asgi"),  # type: ignore[arg-type]
                self._config,
                sockets=sockets,
                shutdown_trigger=self._stop.wait,
            )
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
