"""The `tarok` command: serve, demo, variants, selfplay, tournament, bot."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from . import tournament_cli
from .local import local_server
from .sdk import TarokError, connect

DEFAULT_SERVER = "localhost:50051"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tarok", description="Tarok game server and tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the gRPC server")
    serve.add_argument(
        "--store",
        default="sqlite:///tarok.db",
        help="sqlite:///path.db, sqlite:///:memory: or postgresql://...",
    )
    serve.add_argument("--host", default="[::]")
    serve.add_argument("--port", type=int, default=50051, help="0 picks a free port")
    serve.add_argument(
        "--secret", default=None, help="token signing secret (default: $TAROK_SECRET, else random)"
    )
    serve.add_argument(
        "--secret-file",
        default=None,
        help="keep the token signing key in this file (created with mode 0600 on first start), "
        "so tokens survive restarts",
    )
    serve.add_argument("--heartbeat", type=float, default=10.0, help="watch heartbeat seconds")
    serve.add_argument(
        "--metrics-port",
        type=int,
        default=0,
        help="serve Prometheus /metrics on this port (0: disabled; 9464 is customary)",
    )
    serve.add_argument("--metrics-host", default="0.0.0.0", help="address of the metrics port")
    serve.add_argument(
        "--log-format",
        choices=("json", "console"),
        default="console",
        help="json lines (production) or a readable console format (development)",
    )
    serve.add_argument(
        "--drain-seconds",
        type=float,
        default=0.0,
        help="on SIGTERM, keep serving this long while health reports NOT_SERVING",
    )
    serve.add_argument(
        "--grace-seconds",
        type=float,
        default=10.0,
        help="on SIGTERM, time calls in flight get to finish",
    )
    serve.add_argument(
        "--http-port",
        type=int,
        default=None,
        help="also serve Connect (JSON and binary), gRPC-Web and gRPC over HTTP on this port "
        "(browsers; 0 picks a free port; default: off)",
    )
    serve.add_argument("--http-host", default="[::]", help="address of the HTTP port")
    serve.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin browsers may call the HTTP port from (repeatable; '*' for any; "
        "default: none, same-origin pages only)",
    )
    serve.add_argument(
        "--static-dir",
        default=None,
        help="serve these files on the HTTP port (default: clients/web/dist if it exists)",
    )
    serve.add_argument(
        "--open-table-ttl",
        type=float,
        default=24 * 3600.0,
        help="seconds an open table may wait for players before it expires (0: never)",
    )
    demo = sub.add_parser("demo", help="play a table of bots over gRPC")
    demo.add_argument(
        "--server", default=None, help="host:port of a running server (default: start a local one)"
    )
    demo.add_argument("--variant", default="slovenian")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--hands", type=int, default=4)
    demo.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    demo.add_argument(
        "--bot", default="heuristic", choices=("random", "heuristic", "pimc"), help="who plays"
    )
    variants = sub.add_parser("variants", help="list the rule sets a server hosts")
    variants.add_argument(
        "--server", default=None, help="host:port of a running server (default: start a local one)"
    )
    variants.add_argument("--json", action="store_true", help="print a JSON list")
    sub.add_parser("selfplay", help="play bots in-process (see tarok selfplay --help)")
    tournament_cli.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["selfplay"]:
        from tarok_service import selfplay  # the lead's in-process runner

        return int(selfplay.main(args_list[1:]))
    args = _parser().parse_args(args_list)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "demo":
            return _demo(args)
        if args.command in ("tournament", "bot"):
            return tournament_cli.main(args, _target)
        return _variants(args)
    except TarokError as error:
        print(f"tarok: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    from tarok_service.server.config import ServerConfig, resolve_secret
    from tarok_service.server.http import static_dir_default
    from tarok_service.server.main import configure_logging, serve

    configure_logging(args.log_format)
    config = ServerConfig(
        store_url=args.store,
        host=args.host,
        port=args.port,
        secret=resolve_secret(args.secret, key_file=args.secret_file),
        heartbeat_seconds=args.heartbeat,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        log_format=args.log_format,
        drain_seconds=args.drain_seconds,
        grace_seconds=args.grace_seconds,
        http_port=args.http_port,
        http_host=args.http_host,
        cors_origins=tuple(args.cors_origin),
        static_dir=static_dir_default(args.static_dir),
        open_table_ttl_seconds=args.open_table_ttl,
    )
    asyncio.run(serve(config))
    return 0


@contextmanager
def _target(server: str | None) -> Iterator[str]:
    if server:
        yield server
    else:
        with local_server() as target:
            yield target


def _demo(args: argparse.Namespace) -> int:
    from .demo import play_table

    with _target(args.server) as target, connect(target) as client:
        client.wait_ready(timeout=15)
        play_table(
            client, args.variant, args.players, args.hands, args.seed, sys.stdout, args.bot
        )
    return 0


def _variants(args: argparse.Namespace) -> int:
    with _target(args.server) as target, connect(target) as client:
        client.wait_ready(timeout=15)
        variants = client.variants()
    if args.json:
        rows = [{"id": v.id, "name": v.name, "players": list(v.player_counts)} for v in variants]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for v in variants:
        counts = ", ".join(str(n) for n in v.player_counts)
        print(f"{v.id:<18} {v.name} ({counts} players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
