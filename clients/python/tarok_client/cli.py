"""The `tarok` command: demo, variants, selfplay, tournament, bot, verify, and the commands
other installed parts add (`serve` from the server)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.metadata import entry_points
from typing import Any

from . import tournament_cli
from .local import local_server
from .sdk import TarokError, connect

DEFAULT_SERVER = "localhost:50051"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tarok", description="Tarok game server and tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    for plugin in _plugins().values():  # e.g. `serve`, when the server is installed
        plugin.add_parser(sub)
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
        plugins = _plugins()
        if args.command in plugins:
            return int(plugins[args.command].run(args))
        if args.command == "demo":
            return _demo(args)
        if args.command in ("tournament", "bot", "verify"):
            return tournament_cli.main(args, _target)
        return _variants(args)
    except TarokError as error:
        print(f"tarok: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _plugins() -> dict[str, Any]:
    """Subcommands other installed parts add to `tarok` (the server adds `serve`): the entry
    points of group `tarok.commands`, each a module with `add_parser(sub)` and `run(args)`.
    The client never imports the server; the server finds its way in."""
    return {ep.name: ep.load() for ep in entry_points(group="tarok.commands")}


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
