"""`tarok tournament run|show|export|ratings` and `tarok bot`.

tarok tournament run --variant slovenian --bots heuristic,random --deals 20 --duplicate
tarok bot --server host:port --token <entrant or seat token> --bot heuristic
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TextIO

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from .runner import Bot, BotRunner, EngineBot
from .sdk import connect
from .tournaments import FINISHED, Tournaments

Target = Callable[[str | None], AbstractContextManager[str]]
BUILTIN = ("random", "heuristic", "pimc")


def add_parsers(sub: Any) -> None:
    """Add `tournament` and `bot` to the `tarok` subcommands."""
    tour = sub.add_parser("tournament", help="bot tournaments (see tarok tournament --help)")
    tsub = tour.add_subparsers(dest="action", required=True)
    run = tsub.add_parser("run", help="run a tournament and print the standings")
    _server_arg(run)
    run.add_argument("--variant", default="slovenian")
    run.add_argument("--players", type=int, default=4)
    run.add_argument(
        "--bots",
        default="heuristic,random",
        help="comma-separated entrants: random, heuristic, pimc, or remote:NAME (an external "
        "bot; its token is printed for `tarok bot`)",
    )
    run.add_argument("--deals", type=int, default=10)
    run.add_argument("--duplicate", action="store_true", help="replay each deal, seats rotated")
    run.add_argument("--time-per-move", type=float, default=10.0, help="seconds (0: no limit)")
    run.add_argument("--max-timeouts", type=int, default=0, help="before forfeiting (0: 3)")
    run.add_argument("--parallel", type=int, default=0, help="tables at once (0: 8)")
    run.add_argument("--seed", type=int, default=None, help="seed of the deals")
    run.add_argument("--option", action="append", default=[], help="table option NAME=VALUE")
    run.add_argument(
        "--bot-option",
        action="append",
        default=[],
        help="built-in bot option BOT.NAME=VALUE, e.g. pimc.budget=0.05 (seconds per decision)",
    )
    run.add_argument(
        "--remote", action="store_true", help="play the built-in bots from this client over gRPC"
    )
    run.add_argument("--json", action="store_true", help="end with the standings as JSON")
    for name in ("show", "export"):
        action = tsub.add_parser(name, help=f"{name} a tournament")
        action.add_argument("tournament_id")
        _server_arg(action)
    ratings = tsub.add_parser("ratings", help="a variant's ratings across tournaments")
    ratings.add_argument("--variant", default="slovenian")
    _server_arg(ratings)
    bot = sub.add_parser("bot", help="connect a built-in bot to a remote server")
    bot.add_argument("--server", required=True, help="host:port")
    bot.add_argument("--token", required=True, action="append", help="entrant or seat token")
    bot.add_argument("--bot", default="heuristic", choices=BUILTIN)
    bot.add_argument("--seed", type=int, default=None)
    bot.add_argument("--bot-option", action="append", default=[], help="NAME=VALUE")
    bot.add_argument(
        "--openspiel",
        default=None,
        metavar="AGENT",
        help="play an OpenSpiel agent instead (ismcts or random; needs tarok-openspiel); "
        "--bot-option simulations=N, uct_c=X, rollouts=N tune ismcts",
    )


def _server_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server", default=None, help="host:port of a running server (default: start a local one)"
    )


def main(args: argparse.Namespace, target: Target) -> int:
    """Run `tarok tournament ...` or `tarok bot`."""
    if args.command == "bot":
        options = _options(args.bot_option)
        brain: Bot
        if args.openspiel:
            brain = _openspiel(args, options)
        else:
            brain = EngineBot(args.bot, args.seed, **options)
        stats = BotRunner(args.server, args.token, brain).run()
        name = f"openspiel {args.openspiel}" if args.openspiel else args.bot
        print(f"bot {name}: {stats.moves} moves, {stats.late} late, "
              f"{stats.reconnects} reconnects, {stats.tables} tables")  # fmt: skip
        return 0
    with target(args.server) as server, connect(server) as client:
        client.wait_ready(timeout=15)
        tours = Tournaments(client)
        if args.action == "run":
            return run_tournament(tours, server, args, sys.stdout, sys.stderr)
        if args.action == "ratings":
            for r in tours.ratings(args.variant):
                print(f"{r.name:<20} {r.ordinal:8.2f}  mu {r.mu:6.2f}  sigma {r.sigma:5.2f}")
            return 0
        if args.action == "export":
            print(tours.export(args.tournament_id))
            return 0
        info = tours.get(args.tournament_id)
        print_standings(info, sys.stdout)
        return 0


def _openspiel(args: argparse.Namespace, options: dict[str, Any]) -> Bot:
    """An OpenSpiel agent as a remote bot (the optional tarok-openspiel part)."""
    from tarok_openspiel.agent import RemoteOpenSpielBot

    bot: Bot = RemoteOpenSpielBot(args.openspiel, args.seed, **options)
    return bot


def entrants(text: str, remote: bool) -> list[tuple[str, str, str]]:
    """(name, server-side bot or "", bot run here or "") for each --bots entry."""
    out: list[tuple[str, str, str]] = []
    names: set[str] = set()
    for item in (x.strip() for x in text.split(",") if x.strip()):
        kind, _, given = item.partition(":")
        name = given or kind
        n = 2
        while name in names:
            name, n = f"{given or kind}-{n}", n + 1
        names.add(name)
        if kind == "remote":
            out.append((name, "", ""))
        elif remote:
            out.append((name, "", kind))
        else:
            out.append((name, kind, ""))
    return out


def run_tournament(
    tours: Tournaments, server: str, args: argparse.Namespace, out: TextIO, err: TextIO
) -> int:
    """Create the tournament, play local remote bots, show progress, print the standings."""
    plan = entrants(args.bots, args.remote)
    options = dict(o.split("=", 1) for o in args.option)
    bot_options = bot_option_map(args.bot_option)
    created = tours.create(
        args.variant, [(n, b) for n, b, _ in plan], args.deals, args.players, args.duplicate,
        args.time_per_move, args.seed, options, args.parallel, args.max_timeouts, bot_options,
    )  # fmt: skip
    tid = created.tournament_id
    print(f"tournament {tid}: {args.variant}, {created.games} tables", file=err)
    threads = _start_local_bots(server, created, plan, args.seed, bot_options)
    started = time.perf_counter()
    for info in tours.watch(tid):
        _progress(info, time.perf_counter() - started, err)
    print(file=err)
    for thread in threads:
        thread.join(30)
    final = tours.get(tid)
    print_standings(final, out)
    if args.json:
        print(json.dumps(standings_json(final)), file=out)
    return 0 if final.status == FINISHED else 1


def bot_option_map(items: list[str]) -> dict[str, dict[str, str]]:
    """["pimc.budget=0.05", ...] -> {"pimc": {"budget": "0.05"}}."""
    out: dict[str, dict[str, str]] = {}
    for item in items:
        key, _, value = item.partition("=")
        bot, _, name = key.partition(".")
        out.setdefault(bot, {})[name] = value
    return out


def _options(items: list[str]) -> dict[str, Any]:
    from tarok_service.tournament.brains import option_value

    return {k: option_value(v) for k, _, v in (i.partition("=") for i in items)}


def _start_local_bots(
    server: str,
    created: Any,
    plan: list[tuple[str, str, str]],
    seed: int | None,
    bot_options: dict[str, dict[str, str]],
) -> list[threading.Thread]:
    """Run the `--remote` bots here; print the tokens of `remote:NAME` entrants."""
    threads = []
    for token in created.entrant_tokens:
        local = plan[token.entrant][2]
        if not local:
            print(f"entrant {token.name}: tarok bot --server {server} --token {token.token}",
                  file=sys.stderr)  # fmt: skip
            continue
        options = _options([f"{k}={v}" for k, v in bot_options.get(local, {}).items()])
        bot = EngineBot(local, None if seed is None else seed + token.entrant, **options)
        runner = BotRunner(server, [token.token], bot)
        thread = threading.Thread(target=runner.run, daemon=True, name=f"bot-{token.name}")
        thread.start()
        threads.append(thread)
    return threads


def _progress(info: tm.TournamentInfo, elapsed: float, err: TextIO) -> None:
    width = 30
    done = info.games_finished
    filled = width * done // max(info.games, 1)
    bar = "#" * filled + "-" * (width - filled)
    line = f"[{bar}] {done}/{info.games} tables, {elapsed:.1f} s"
    end = "\r" if err.isatty() else "\n"
    print(line, end=end, file=err, flush=True)


def print_standings(info: tm.TournamentInfo, out: TextIO) -> None:
    spec = info.spec
    kind = "duplicate" if spec.duplicate else "plain"
    print(f"{info.tournament_id}: {spec.variant}, {spec.players} players, {spec.deals} deals "
          f"({kind}), {info.games_finished}/{info.games} tables", file=out)  # fmt: skip
    print(f"{'#':>2} {'name':<16} {'per deal':>9} {'ci95':>8} {'score':>9} {'games':>6} "
          f"{'timeouts':>8} {'rating':>7}", file=out)  # fmt: skip
    for row in info.standings:
        print(f"{row.rank:>2} {row.name:<16} {row.per_deal:>+9.1f} {row.ci95:>8.1f} "
              f"{row.score:>+9d} {row.games:>6d} {row.timeouts:>8d} {row.rating:>7.2f}"
              + (" forfeited" if row.forfeited else ""), file=out)  # fmt: skip


def standings_json(info: tm.TournamentInfo) -> dict[str, Any]:
    """The standings as one JSON object (the last line of `tarok tournament run --json`)."""
    return {
        "tournament_id": info.tournament_id,
        "variant": info.spec.variant,
        "players": info.spec.players,
        "deals": info.spec.deals,
        "duplicate": info.spec.duplicate,
        "tables": info.games,
        "entrants": [
            {
                "name": r.name,
                "bot": r.bot or "remote",
                "score": r.score,
                "per_deal": round(r.per_deal, 3),
                "ci95": round(r.ci95, 3),
                "games": r.games,
                "timeouts": r.timeouts,
                "forfeited": r.forfeited,
                "rating": round(r.rating, 3),
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
            }
            for r in info.standings
        ],
    }
