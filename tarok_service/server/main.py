"""Server wiring: `create_server(config)` for tests and embedding, `serve(config)` for the CLI."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import weakref

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from ..proto.tarok.v1 import tarok_service_pb2 as svc
from ..proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from ..store import EventStore, open_store
from .app import TarokApp
from .config import ServerConfig
from .interceptors import interceptors
from .servicer import TarokServicer

SERVICE_NAME = svc.DESCRIPTOR.services_by_name["TarokService"].full_name
_OWNED_STORES: weakref.WeakKeyDictionary[grpc.aio.Server, EventStore] = weakref.WeakKeyDictionary()


async def create_server(
    config: ServerConfig, store: EventStore | None = None
) -> tuple[grpc.aio.Server, int]:
    """A started server (TarokService, health, reflection) and the port it listens on.

    With no `store`, one is opened from `config.store_url` and closed by `shutdown`.
    """
    owned = store is None
    store = store or open_store(config.store_url)
    await store.open()
    server = grpc.aio.server(
        interceptors=interceptors(),
        options=[
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", 64 << 20),
            ("grpc.so_reuseport", 0),
        ],
    )
    svc_grpc.add_TarokServiceServicer_to_server(TarokServicer(TarokApp(store, config)), server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(f"{config.host}:{config.port}")
    await server.start()
    if owned:
        _OWNED_STORES[server] = store
    return server, port


async def shutdown(server: grpc.aio.Server, grace: float | None = None) -> None:
    """Stop the server and close the store `create_server` opened for it."""
    await server.stop(grace)
    store = _OWNED_STORES.pop(server, None)
    if store is not None:
        await store.close()


def configure_logging(level: int = logging.INFO) -> None:
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.dev.ConsoleRenderer(colors=False),
        ],
    )


async def serve(config: ServerConfig) -> None:
    """Run until SIGINT/SIGTERM; prints `listening on HOST:PORT` once ready."""
    server, port = await create_server(config)
    host = "localhost" if config.host in ("[::]", "0.0.0.0", "") else config.host
    print(f"tarok: listening on {host}:{port} (store {_safe(config.store_url)})", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await shutdown(server, grace=2.0)


def _safe(url: str) -> str:
    """The store URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest and ":" in rest.split("@", 1)[0]:
        user = rest.split("@", 1)[0].split(":", 1)[0]
        return f"{scheme}{sep}{user}:***@{rest.split('@', 1)[1]}"
    return url
