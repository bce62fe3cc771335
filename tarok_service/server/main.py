"""Server wiring: `create_server(config)` for tests and embedding, `serve(config)` for the CLI."""

from __future__ import annotations

import asyncio
import signal
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from grpc_reflection.v1alpha._async import ReflectionServicer
from tarok_proto.tarok.v1 import match_service_pb2_grpc as ms_grpc
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..store import EventStore, open_store
from .config import STORE_SECRET_NAME, ServerConfig, store_secret
from .matches import SERVICE_NAME as MATCH_SERVICE
from .matches import MatchServicer, add_matches
from .ops.logconf import configure_logging
from .ops.metrics import MetricsHttp
from .players import SERVICE_NAME as PLAYER_SERVICE
from .players import PlayerServicer, add_players
from .tournaments import SERVICE_NAME as TOURNAMENT_SERVICE
from .tournaments import TournamentServicer, add_tournaments, start_tournaments, stop_tournaments
from .transport.generic import generic_only
from .transport.http import HttpServer, build_app, record
from .transport.interceptors import interceptors
from .transport.observe import flush_access_log
from .transport.servicer import TarokServicer
from .usecases.app import TarokApp
from .usecases.autoplay import Driver

__all__ = ["announce", "configure_logging", "create_server", "serve", "shutdown"]
log = structlog.get_logger("tarok.server")

# serve's readiness hook: (gRPC port, HTTP port, metrics port)
Ready = Callable[[int, int | None, int | None], None]
SERVICE_NAME = svc.DESCRIPTOR.services_by_name["TarokService"].full_name
_OWNED_STORES: weakref.WeakKeyDictionary[grpc.aio.Server, EventStore] = weakref.WeakKeyDictionary()


@dataclass
class Running:
    """What a started server needs at shutdown besides itself."""

    app: TarokApp
    health: Any  # grpc_health.v1.health.aio.HealthServicer
    metrics_http: MetricsHttp | None
    http: HttpServer | None = None  # the Connect / gRPC-Web / gRPC HTTP port, when enabled
    driver: Driver | None = None  # bots and clocks of free tables


_RUNNING: weakref.WeakKeyDictionary[grpc.aio.Server, Running] = weakref.WeakKeyDictionary()


def running(server: grpc.aio.Server) -> Running:
    """The app, health servicer and metrics endpoint of a server from `create_server`."""
    return _RUNNING[server]


async def create_server(
    config: ServerConfig, store: EventStore | None = None
) -> tuple[grpc.aio.Server, int]:
    """A started server (TarokService, health, reflection) and the port it listens on.

    With no `store`, one is opened from `config.store_url` and closed by `shutdown`.
    """
    owned = store is None
    sys.setswitchinterval(config.switch_interval_seconds)  # process-wide: see ServerConfig
    store = store or open_store(
        config.store_url, config.sqlite_sync, config.store_timeout_seconds, config.nats_url
    )
    await store.open()
    if config.secret_from_store:
        secret = await store.get_or_set(STORE_SECRET_NAME, store_secret())
        config = replace(config, secret=secret, secret_from_store=False)
    app = TarokApp(store, config)
    hooks = interceptors(app.ctx)
    # No interceptors on the gRPC server itself: every service is registered through
    # `register`, which serves each method's handler as the hooks wrap it (see `generic.py`).
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", 64 << 20),
            ("grpc.so_reuseport", 1 if config.reuse_port else 0),
        ],
    )
    (hook,) = hooks
    register = generic_only(server, hook)
    servicer = TarokServicer(app)
    svc_grpc.add_TarokServiceServicer_to_server(servicer, register)
    tournaments = add_tournaments(server, app.ctx, register)
    players = add_players(server, app.ctx, register)

    async def name_of(player_id: str) -> str:
        found = await players.players.load(player_id)
        return "" if found is None else found.display_name

    matches = add_matches(server, app, register, name_of)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, register)
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflected = (
        SERVICE_NAME,
        TOURNAMENT_SERVICE,
        MATCH_SERVICE,
        PLAYER_SERVICE,
        health.SERVICE_NAME,
        reflection.SERVICE_NAME,
    )
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(
        ReflectionServicer(reflected), register
    )
    port = server.add_insecure_port(f"{config.host}:{config.port}")
    metrics_http = None
    if config.metrics_port or config.metrics_any_port:
        metrics_port = 0 if config.metrics_any_port else config.metrics_port
        metrics_http = MetricsHttp(app.ctx.metrics, metrics_port, config.metrics_host)
    http = None
    if config.http_port is not None:
        handlers = record(
            [
                (svc_grpc.add_TarokServiceServicer_to_server, servicer),
                (ts_grpc.add_TournamentServiceServicer_to_server, TournamentServicer(tournaments)),
                (ms_grpc.add_MatchServiceServicer_to_server, MatchServicer(matches)),
                (ps_grpc.add_PlayerServiceServicer_to_server, PlayerServicer(players)),
            ]
        )
        http_app = build_app(
            handlers,
            hooks,
            config.cors_origins,
            config.static_dir,
            config.max_message_bytes,
            config.http_body_timeout_seconds,
        )
        http = HttpServer(
            http_app,
            config.http_host,
            config.http_port,
            config.grace_seconds,
            config.http_connections_per_address,
            config.http_idle_timeout_seconds,
            reuse_port=config.reuse_port,
        )
    await server.start()
    if http is not None:
        http.start()
    start_tournaments(server)
    driver = Driver(app.ctx)
    driver.start()
    if owned:
        _OWNED_STORES[server] = store
    _RUNNING[server] = Running(app, health_servicer, metrics_http, http, driver)
    return server, port


async def shutdown(server: grpc.aio.Server, grace: float | None = None) -> None:
    """Stop the server and close the store `create_server` opened for it.

    Health turns NOT_SERVING, watch streams end cleanly (status OK), calls in flight get
    `grace` seconds to finish, then the metrics endpoint and the store are closed.
    """
    state = _RUNNING.pop(server, None)
    if state is not None:
        await state.health.enter_graceful_shutdown()
        state.app.ctx.begin_shutdown()
    await stop_tournaments(server)
    if state is not None and state.driver is not None:
        await state.driver.stop()
    if state is not None and state.http is not None:
        await state.http.stop()
    await server.stop(grace)
    if state is not None and state.metrics_http is not None:
        state.metrics_http.close()
    store = _OWNED_STORES.pop(server, None)
    if store is not None:
        await store.close()
    await asyncio.to_thread(flush_access_log)


async def serve(config: ServerConfig, on_ready: Ready | None = None) -> None:
    """Run until SIGINT/SIGTERM; prints `listening on HOST:PORT` once ready (or, given
    `on_ready`, calls it with the gRPC, HTTP and metrics ports instead: a worker of
    `workers.py`).

    On the signal: health reports NOT_SERVING at once, the server keeps serving for
    `drain_seconds` (load balancers notice), then watch streams end cleanly, calls in
    flight get `grace_seconds` to finish, and the process exits normally.
    """
    stop = asyncio.Event()  # handlers first: a signal during start-up stops gracefully
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    server, port = await create_server(config)
    state = running(server)
    if state.metrics_http is not None:
        log.info("metrics endpoint", port=state.metrics_http.port)
    if on_ready is not None:
        metrics_port = None if state.metrics_http is None else state.metrics_http.port
        on_ready(port, None if state.http is None else state.http.port, metrics_port)
    else:
        announce(config, port, None if state.http is None else state.http.port)
    await stop.wait()
    log.info("shutting down: health NOT_SERVING", drain_seconds=config.drain_seconds)
    await state.health.enter_graceful_shutdown()
    if config.drain_seconds > 0:
        await asyncio.sleep(config.drain_seconds)
    await shutdown(server, grace=config.grace_seconds)
    log.info("stopped")


def announce(config: ServerConfig, port: int, http_port: int | None, note: str = "") -> None:
    """Print the lines that say the server is ready (scripts wait for `listening on`)."""
    host = "localhost" if config.host in ("[::]", "0.0.0.0", "") else config.host
    print(f"tarok: listening on {host}:{port} (store {_safe(config.store_url)}{note})", flush=True)
    if http_port is not None:
        print(f"tarok: HTTP (Connect, gRPC-Web, gRPC) on {host}:{http_port}", flush=True)


def _safe(url: str) -> str:
    """The store URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest and ":" in rest.split("@", 1)[0]:
        user = rest.split("@", 1)[0].split(":", 1)[0]
        return f"{scheme}{sep}{user}:***@{rest.split('@', 1)[1]}"
    return url
