"""`tarok serve`: the server's subcommand of the `tarok` command.

The client's `tarok` finds it through the `tarok.commands` entry point (declared in the
server's pyproject), so the client never imports the server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from .config import OPERATOR_KEY_ENV, OidcIssuer, ServerConfig, resolve_secret
from .main import configure_logging, serve
from .transport.http import static_dir_default
from .workers import check_workers, default_workers, run_workers

ORGANISER_KEY_ENV = "TAROK_ORGANISER_KEY"
BOT_SHARE_ENV = "TAROK_TOURNAMENT_BOT_SHARE"


def add_parser(sub: Any) -> None:
    """Add `serve` and its flags to the `tarok` subcommands."""
    serve_ = sub.add_parser("serve", help="run the game server (gRPC, and HTTP for browsers)")
    _store_and_ports(serve_)
    _tokens(serve_)
    _tournaments(serve_)
    _players(serve_)
    _operations(serve_)
    _free_tables(serve_)
    _http(serve_)


def run(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM or SIGINT."""
    configure_logging(args.log_format)
    secret = resolve_secret(args.secret, key_file=args.secret_file)
    config = ServerConfig(
        store_url=args.store,
        sqlite_sync=args.sqlite_sync,
        host=args.host,
        port=args.port,
        secret=secret or b"",
        secret_from_store=secret is None,
        previous_secrets=tuple(s.encode() for s in args.previous_secret),
        store_timeout_seconds=args.store_timeout,
        nats_url=args.nats,
        heartbeat_seconds=args.heartbeat,
        max_watchers=args.max_watchers,
        max_watchers_per_principal=args.max_watchers_per_principal,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        log_format=args.log_format,
        drain_seconds=args.drain_seconds,
        grace_seconds=args.grace_seconds,
        organiser_key=args.organiser_key or os.environ.get(ORGANISER_KEY_ENV, ""),
        max_tournaments=args.max_tournaments,
        max_tournament_tables=args.max_tournament_tables,
        tournament_bot_share=args.tournament_bot_share,
        http_port=args.http_port,
        http_host=args.http_host,
        cors_origins=tuple(args.cors_origin),
        static_dir=static_dir_default(args.static_dir),
        open_table_ttl_seconds=args.open_table_ttl,
        max_bot_tables_per_caller=args.max_bot_tables_per_caller,
        max_bot_hands=args.max_bot_hands,
        min_time_per_move_seconds=args.min_time_per_move,
        oidc_issuers=oidc_issuers(args.oidc_issuer, args.oidc_audience),
        operator_key=args.operator_key or os.environ.get(OPERATOR_KEY_ENV, ""),
        session_ttl_seconds=args.session_ttl,
        refresh_ttl_seconds=args.refresh_ttl,
        guest_sign_ins_per_minute=args.guest_sign_ins_per_minute,
    )
    workers = default_workers(args.store) if args.workers is None else args.workers
    check_workers(args.store, workers)
    if workers > 1:
        return run_workers(config, workers)
    asyncio.run(serve(config))
    return 0


def oidc_issuers(issuers: list[str], audiences: list[str]) -> tuple[OidcIssuer, ...]:
    """`--oidc-issuer URL --oidc-audience AUD`, paired in order (one audience for all
    issuers when only one is given); SystemExit when they do not pair up."""
    if len(audiences) == 1 and len(issuers) > 1:
        audiences = audiences * len(issuers)
    if len(issuers) != len(audiences):
        raise SystemExit("give one --oidc-audience per --oidc-issuer (or one for all)")
    out = []
    for issuer, audience in zip(issuers, audiences, strict=True):
        if not issuer.startswith(("https://", "http://")) or not audience:
            raise SystemExit(f"--oidc-issuer must be an http(s) URL, with an audience: {issuer!r}")
        out.append(OidcIssuer(issuer, audience))
    return tuple(out)


def _players(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument(
        "--oidc-issuer",
        action="append",
        default=[],
        metavar="URL",
        help="an identity provider whose tokens sign players in (its `iss`, exactly; the "
        "discovery document is under it); repeatable (docs/identity.md)",
    )
    serve_.add_argument(
        "--oidc-audience",
        action="append",
        default=[],
        metavar="AUD",
        help="the `aud` the tokens of the --oidc-issuer at the same position must name",
    )
    serve_.add_argument(
        "--operator-key",
        default=None,
        help=f"the key operators suspend players and read the audit trail with "
        f"(or ${OPERATOR_KEY_ENV}; default: no operators)",
    )
    serve_.add_argument(
        "--session-ttl",
        type=int,
        default=ServerConfig.session_ttl_seconds,
        help="seconds a session token lives (default 900)",
    )
    serve_.add_argument(
        "--guest-sign-ins-per-minute",
        type=int,
        default=ServerConfig.guest_sign_ins_per_minute,
        help="SignInGuest calls one client address may make a minute, per replica (0: any)",
    )
    serve_.add_argument(
        "--refresh-ttl",
        type=int,
        default=ServerConfig.refresh_ttl_seconds,
        help="seconds a refresh token lives (default 30 days)",
    )


def _store_and_ports(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument(
        "--store",
        default="sqlite:///tarok.db",
        help="sqlite:///path.db, sqlite:///:memory: or postgresql://...",
    )
    serve_.add_argument(
        "--sqlite-sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite durability: full (default) survives power loss; normal survives a "
        "server crash but may lose the last moves on power loss or an OS crash",
    )
    serve_.add_argument(
        "--store-timeout",
        type=float,
        default=3.0,
        help="seconds a call waits for the store before failing with UNAVAILABLE",
    )
    serve_.add_argument(
        "--nats",
        default=None,
        metavar="URL",
        help="NATS servers the replicas of a PostgreSQL store tell each other of new moves "
        "through (nats://a:4222,nats://b:4222; default: PostgreSQL LISTEN/NOTIFY)",
    )
    serve_.add_argument("--host", default="[::]")
    serve_.add_argument("--port", type=int, default=50051, help="0 picks a free port")
    serve_.add_argument(
        "--workers",
        type=int,
        default=None,
        help="server processes sharing the gRPC and HTTP ports (SO_REUSEPORT) and the store "
        "(default: one per core on PostgreSQL, 1 on SQLite; 1: a single process, no supervisor)",
    )


def _tokens(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument(
        "--secret",
        default=None,
        help="token signing secret (default: $TAROK_SECRET, else --secret-file, else a key "
        "created once in the store and shared by every server on that store)",
    )
    serve_.add_argument(
        "--secret-file",
        default=None,
        help="keep the token signing key in this file (created with mode 0600 on first start) "
        "instead of in the store",
    )
    serve_.add_argument(
        "--previous-secret",
        action="append",
        default=[],
        help="an older signing secret whose tokens are still accepted (repeatable; rotation)",
    )


def _tournaments(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument(
        "--organiser-key",
        default=None,
        help=f"key that CreateTournament needs (default: ${ORGANISER_KEY_ENV}; "
        "none: the server takes no tournaments)",
    )
    serve_.add_argument(
        "--max-tournaments", type=int, default=8, help="tournaments running at once (%(default)s)"
    )
    serve_.add_argument(
        "--max-tournament-tables",
        type=int,
        default=50_000,
        help="tables in one tournament (%(default)s)",
    )
    serve_.add_argument(
        "--tournament-bot-share",
        type=float,
        default=float(os.environ.get(BOT_SHARE_ENV, "0.25")),
        help=f"share of wall time built-in tournament bots may think (%(default)s; 1: all; "
        f"default from ${BOT_SHARE_ENV})",
    )


def _operations(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument("--heartbeat", type=float, default=10.0, help="watch heartbeat seconds")
    serve_.add_argument(
        "--max-watchers", type=int, default=1000, help="open WatchTable streams, in all"
    )
    serve_.add_argument(
        "--max-watchers-per-principal",
        type=int,
        default=32,
        help="open WatchTable streams per seat, and per client address for spectators",
    )
    serve_.add_argument(
        "--metrics-port",
        type=int,
        default=0,
        help="serve Prometheus /metrics on this port (0: disabled; 9464 is customary)",
    )
    serve_.add_argument("--metrics-host", default="0.0.0.0", help="address of the metrics port")
    serve_.add_argument(
        "--log-format",
        choices=("json", "console"),
        default="console",
        help="json lines (production) or a readable console format (development)",
    )
    serve_.add_argument(
        "--drain-seconds",
        type=float,
        default=0.0,
        help="on SIGTERM, keep serving this long while health reports NOT_SERVING",
    )
    serve_.add_argument(
        "--grace-seconds",
        type=float,
        default=10.0,
        help="on SIGTERM, time calls in flight get to finish",
    )


def _free_tables(serve_: argparse.ArgumentParser) -> None:
    """Quotas on free tables, per caller (client address); 0 turns one off."""
    defaults = ServerConfig(secret=b"-")
    serve_.add_argument(
        "--max-bot-tables-per-caller",
        type=int,
        default=defaults.max_bot_tables_per_caller,
        help="unfinished free tables with bots one client address may have (%(default)s)",
    )
    serve_.add_argument(
        "--max-bot-hands",
        type=int,
        default=defaults.max_bot_hands,
        help="hands a free table with bots may have (%(default)s)",
    )
    serve_.add_argument(
        "--min-time-per-move",
        type=float,
        default=defaults.min_time_per_move_seconds,
        help="the shortest time per move, in seconds, of a free table (%(default)s)",
    )


def _http(serve_: argparse.ArgumentParser) -> None:
    serve_.add_argument(
        "--http-port",
        type=int,
        default=None,
        help="also serve Connect (JSON and binary), gRPC-Web and gRPC over HTTP on this port "
        "(browsers; 0 picks a free port; default: off)",
    )
    serve_.add_argument("--http-host", default="[::]", help="address of the HTTP port")
    serve_.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin browsers may call the HTTP port from (repeatable; '*' for any; "
        "default: none, same-origin pages only)",
    )
    serve_.add_argument(
        "--static-dir",
        default=None,
        help="serve these files on the HTTP port (default: clients/web/dist if it exists)",
    )
    serve_.add_argument(
        "--open-table-ttl",
        type=float,
        default=24 * 3600.0,
        help="seconds an open table may wait for players before it expires (0: never)",
    )
