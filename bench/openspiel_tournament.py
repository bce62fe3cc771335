"""A remote duplicate tournament through the server between OpenSpiel's ISMCTS (played here as
a remote bot, through the client's runner) and the built-in pimc and heuristic bots (played by
the server). Prints the standings: score per deal with its 95% confidence interval.

    .venv/bin/python bench/openspiel_tournament.py --deals 100 --simulations 20 --json
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time

from tarok_client import connect
from tarok_client.local import local_server
from tarok_client.runner import BotRunner
from tarok_client.tournament_cli import (
    BOT_SHARE_ENV,
    ORGANISER_KEY_ENV,
    print_standings,
    standings_json,
)
from tarok_client.tournaments import Tournaments
from tarok_openspiel.agent import RemoteOpenSpielBot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=20, help="ISMCTS simulations")
    parser.add_argument("--pimc-budget", default="0.05", help="seconds per pimc decision")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--server", default=None, help="host:port (default: a local server)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.server:
        return run(args, args.server)
    os.environ.setdefault(ORGANISER_KEY_ENV, secrets.token_hex(16))  # the local server's key
    os.environ.setdefault(BOT_SHARE_ENV, "1")  # our own server: the bots may use all of it
    with local_server() as target:
        return run(args, target)


def run(args: argparse.Namespace, target: str) -> int:
    entrants = [("ismcts", ""), ("pimc", "pimc"), ("heuristic", "heuristic")]
    started = time.perf_counter()
    with connect(target) as client:
        client.wait_ready(timeout=30)
        tours = Tournaments(client, organiser_key=os.environ.get(ORGANISER_KEY_ENV, ""))
        created = tours.create(
            args.variant, entrants, deals=args.deals, players=4, duplicate=True,
            time_per_move=120.0, seed=args.seed, bot_options={"pimc": {"budget": args.pimc_budget}},
            full_rotation=True,
        )  # fmt: skip
        (token,) = created.entrant_tokens
        bot = RemoteOpenSpielBot("ismcts", args.seed, simulations=args.simulations)
        stats = BotRunner(target, [token.token], bot).run()
        info = tours.get(created.tournament_id)
    elapsed = time.perf_counter() - started
    brain = bot.brain
    print_standings(info, sys.stderr)
    print(f"ismcts: {brain.decisions} decisions, {brain.fallbacks} by the heuristic fallback, "
          f"{stats.moves} moves, {stats.late} late; {elapsed:.0f} s", file=sys.stderr)  # fmt: skip
    if args.json:
        doc = standings_json(info)
        doc.update(simulations=args.simulations, pimc_budget=float(args.pimc_budget),
                   ismcts_decisions=brain.decisions, ismcts_fallbacks=brain.fallbacks,
                   seconds=round(elapsed, 1))  # fmt: skip
        print(json.dumps(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
