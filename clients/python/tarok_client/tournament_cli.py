"""`tarok tournament run|show|export|cancel|ratings`, `tarok bot` and the tournament options
of `tarok serve`.

tarok tournament run --variant slovenian --bots heuristic,random --deals 20 --duplicate
tarok bot --server host:port --token <entrant or seat token> --bot heuristic
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TextIO

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from .runner import Bot, BotRunner, EngineBot
from .sdk import Client, connect
from .tournaments import FINISHED, Tournaments

if TYPE_CHECKING:
    from .verify import Report

Target = Callable[[str | None], AbstractContextManager[str]]
BUILTIN = ("random", "heuristic", "pimc")
ORGANISER_KEY_ENV = "TAROK_ORGANISER_KEY"
BOT_SHARE_ENV = "TAROK_TOURNAMENT_BOT_SHARE"
DEFAULT_TIME_PER_MOVE = 10.0
DEFAULT_MAX_TIMEOUTS = 3
DEFAULT_PARALLEL = 8
DEFAULT_CHECK_IN = 60.0


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
    run.add_argument("--deals", type=int, default=10, help="deals to play (%(default)s)")
    run.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal at several tables and compare each seat with the same seat "
        "played by others (remote entrants play a deal once unless --full-rotation)",
    )
    run.add_argument(
        "--full-rotation",
        action="store_true",
        help="seat remote entrants at every seat of every deal too, trusting them to forget "
        "the cards (marked in the standings)",
    )
    run.add_argument(
        "--time-per-move",
        type=float,
        default=DEFAULT_TIME_PER_MOVE,
        help="seconds a seat has for each move; a missed deadline plays the default move "
        "(default %(default)s; 0: no limit)",
    )
    run.add_argument(
        "--max-timeouts",
        type=int,
        default=DEFAULT_MAX_TIMEOUTS,
        help="missed deadlines after which a remote entrant forfeits: its moves are then "
        "played at once (default %(default)s)",
    )
    run.add_argument(
        "--check-in",
        type=float,
        default=DEFAULT_CHECK_IN,
        help="seconds remote entrants have to connect before the first table starts; one "
        "that has not connected by then forfeits (default %(default)s)",
    )
    run.add_argument(
        "--parallel", type=int, default=DEFAULT_PARALLEL, help="tables at once (%(default)s)"
    )
    run.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the deals, for reproducible runs (default: secret and random; never "
        "give one for a real tournament)",
    )
    run.add_argument(
        "--organiser-key",
        default=None,
        help=f"the server's organiser key (default: ${ORGANISER_KEY_ENV}; a local server "
        "gets a fresh one)",
    )
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
    run.add_argument(
        "--json",
        action="store_true",
        help="print only the standings as one JSON document on stdout (progress on stderr)",
    )
    for name in ("show", "export", "cancel", "pause", "resume"):
        action = tsub.add_parser(name, help=f"{name} a tournament")
        action.add_argument("tournament_id")
        action.add_argument(
            "--organiser-token",
            default="",
            help="the organiser token (standings, tables and exports while it runs; cancel)",
        )
        _server_arg(action)
    tsub.choices["cancel"].add_argument("--reason", default="", help="recorded in its log")
    check = tsub.add_parser("verify", help="fetch a finished tournament and verify its deals")
    check.add_argument("tournament_id")
    check.add_argument("--json", action="store_true", help="print the report as one JSON document")
    _server_arg(check)
    verify = sub.add_parser(
        "verify", help="check revealed deals against their commitments (docs/fair-deals.md)"
    )
    verify.add_argument("logs", nargs="*", help="table logs as JSON (GetTableLog, format JSON)")
    verify.add_argument(
        "--seat-log",
        action="append",
        default=[],
        help="a seat's log kept during play: its hands must come from the revealed deals",
    )
    verify.add_argument("--tournament", default=None, help="a tournament's export (JSON)")
    verify.add_argument("--json", action="store_true", help="print the report as one JSON document")
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
    if args.command == "verify":
        from .verify import verify_files  # needs the rules package (tarok-client[brains])

        return print_report(verify_files(args.logs, args.seat_log, args.tournament), args.json)
    key = getattr(args, "organiser_key", None) or os.environ.get(ORGANISER_KEY_ENV, "")
    if args.server is None and args.action == "run" and not key:
        key = secrets.token_hex(16)  # the local server started below takes it
        os.environ[ORGANISER_KEY_ENV] = key
    if args.server is None and args.action == "run":
        os.environ.setdefault(BOT_SHARE_ENV, "1")  # our own server: nobody else to keep fast
    with target(args.server) as server, connect(server) as client:
        client.wait_ready(timeout=15)
        tours = Tournaments(client, organiser_key=key)
        if args.action == "run":
            return run_tournament(tours, server, args, sys.stdout, sys.stderr)
        if args.action == "ratings":
            for r in tours.ratings(args.variant):
                print(f"{r.name:<20} {r.ordinal:8.2f}  mu {r.mu:6.2f}  sigma {r.sigma:5.2f}")
            return 0
        if args.action == "verify":
            return print_report(fetch_and_verify(client, tours, args.tournament_id), args.json)
        token = args.organiser_token
        if args.action == "export":
            print(tours.export(args.tournament_id, token))
            return 0
        if args.action in ("pause", "resume"):
            info = tours.pause(args.tournament_id, args.action == "pause", token)
            state = "paused" if info.paused else "running"
            print(f"{info.tournament_id}: {state}", file=sys.stderr)
            return 0
        if args.action == "cancel":
            info = tours.cancel(args.tournament_id, args.reason, token)
            print(f"{info.tournament_id}: cancelled", file=sys.stderr)
            return 0
        info = tours.get(args.tournament_id, organiser_token=token)
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
        args.check_in, args.full_rotation or _all_remote_are_ours(plan),
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
    if args.json:
        print(json.dumps(standings_json(final)), file=out)
    else:
        print_standings(final, out)
    return 0 if final.status == FINISHED else 1


def _all_remote_are_ours(plan: list[tuple[str, str, str]]) -> bool:
    """Whether every remote entrant is a built-in bot this command runs (`--remote`): those
    are trusted like the server's, so the deals rotate fully."""
    remote = [local for _, bot, local in plan if not bot]
    return bool(remote) and all(remote)


def bot_option_map(items: list[str]) -> dict[str, dict[str, str]]:
    """["pimc.budget=0.05", ...] -> {"pimc": {"budget": "0.05"}}."""
    out: dict[str, dict[str, str]] = {}
    for item in items:
        key, _, value = item.partition("=")
        bot, _, name = key.partition(".")
        out.setdefault(bot, {})[name] = value
    return out


def _options(items: list[str]) -> dict[str, Any]:
    from tarok_service.bots.configured import option_value

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
    if spec.full_rotation:
        kind += ", full rotation: trusts remote entrants to forget the cards"
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
        "full_rotation": info.spec.full_rotation,
        "status": tm.TournamentStatus.Name(info.status).removeprefix("TOURNAMENT_STATUS_").lower(),
        "seed_commitment": info.seed_commitment.hex(),
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


def fetch_and_verify(client: Client, tours: Tournaments, tournament_id: str) -> Report:
    """A finished tournament's export and every table's complete log, verified."""
    from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
    from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

    from .verify import read_log, verify_tournament  # needs the rules package

    export = json.loads(tours.export(tournament_id))
    stub = svc_grpc.TarokServiceStub(client.channel)
    logs = {}
    for game in export["games"]:
        if game.get("log_token"):
            request = svc.GetTableLogRequest(token=game["log_token"], format=svc.LOG_FORMAT_JSON)
            logs[game["table_id"]] = read_log(stub.GetTableLog(request).json)
    return verify_tournament(export, logs)


def print_report(report: Report, as_json: bool) -> int:
    """The verification report (exit status 1 when anything failed)."""
    counts = {
        "deals": report.deals,
        "sealed": report.sealed,
        "seat_hands": report.seat_hands,
        "tournament_deals": report.tournament_deals,
        "replayed": report.replayed,
    }
    if as_json:
        print(json.dumps({"ok": report.ok, **counts, "problems": report.problems}))
    else:
        for problem in report.problems:
            print(f"FAIL {problem}")
        summary = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items())
        print(("ok" if report.ok else "FAILED") + f": {summary} checked")
    return 0 if report.ok else 1
