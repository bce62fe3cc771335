"""The `tarok` command: demo, variants, selfplay, tournament, bot, verify, and the commands
other installed parts add (`serve` from the server)."""

from __future__ import annotations

import argparse
import importlib.util
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
# What a client-only install says instead of a traceback (see clients/python/README.md).
RULES_HINT = "it needs the rules package: pip install --find-links dist 'tarok-client[brains]'"
SERVER_HINT = (
    "no server in this install: pass --server HOST:PORT (e.g. localhost:50051 of `make run`), "
    "or install the server: pip install --find-links dist tarok"
)


class MissingPart(Exception):
    """A command needs a part this installation lacks (the message says which)."""


def _has_brains() -> bool:
    """Whether the rules package (engine, rule sets, built-in brains) is installed."""
    return importlib.util.find_spec("tarok_service") is not None


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
        "--bot",
        default=None,
        choices=("random", "heuristic", "pimc"),
        help="who plays (default: heuristic; random without the rules package)",
    )
    variants = sub.add_parser("variants", help="list the rule sets a server hosts")
    variants.add_argument(
        "--server", default=None, help="host:port of a running server (default: start a local one)"
    )
    variants.add_argument("--json", action="store_true", help="print a JSON list")
    variants.add_argument(
        "--locale",
        default="",
        help="language of the names: en, sl, cs, de, it or fr (default: the rule sets' own)",
    )
    sub.add_parser("selfplay", help="play bots in-process (see tarok selfplay --help)")
    tournament_cli.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["selfplay"]:
        if not _has_brains():
            print(f"tarok selfplay plays in-process: {RULES_HINT}", file=sys.stderr)
            return 2
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
    except MissingPart as missing:
        print(f"tarok {args.command}: {missing}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as missing:  # a brain or the verifier, without the rules
        if (missing.name or "").partition(".")[0] != "tarok_service":
            raise
        print(f"tarok {args.command}: {RULES_HINT}", file=sys.stderr)
        return 2
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
    elif "serve" not in _plugins():
        raise MissingPart(SERVER_HINT)
    else:
        with local_server() as target:
            yield target


def _demo(args: argparse.Namespace) -> int:
    from .demo import play_table

    brains = _has_brains()
    bot = args.bot or ("heuristic" if brains else "random")
    if bot != "random" and not brains:
        raise MissingPart(f"--bot {bot} {RULES_HINT.removeprefix('it ')}, or use --bot random")
    with _target(args.server) as target, connect(target) as client:
        client.wait_ready(timeout=15)
        play_table(client, args.variant, args.players, args.hands, args.seed, sys.stdout, bot)
    return 0


def _variants(args: argparse.Namespace) -> int:
    with _target(args.server) as target, connect(target) as client:
        client.wait_ready(timeout=15)
        variants = client.variants(args.locale)
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
