"""How much of duplicate's variance reduction the once-per-deal schedule keeps.

    .venv/bin/python bench/schedule_variance.py --tables 160

Eight built-in entrants (by default four heuristic bots and four quick pimc bots, which
sample, so that equal cards do not always give equal play) play the same number of one-hand
slovenian tables under three schedules, in-process (the server's own table code, no gRPC):

- rotation: duplicate with full rotation (every entrant of a deal plays every seat of it);
- once: duplicate where each entrant plays a deal at most once (what remote entrants get):
  a deal is played at two tables by different entrants, each seat compared with the same seat
  at the other table;
- plain: no duplicate, every deal played once.

Prints one JSON document: per schedule, the mean half-width of the 95% confidence interval
of the entrants' per-deal score (smaller is better) and the spread (standard deviation) of
the entrants' per-deal scores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import events_pb2 as ev  # noqa: E402
from tarok_proto.tarok.v1 import tournaments_pb2 as tm  # noqa: E402

from tarok_service.bots import Bot  # noqa: E402
from tarok_service.bots.configured import entrant_bot  # noqa: E402
from tarok_service.competition import Game, GameRecord, schedule, standings  # noqa: E402
from tarok_service.server.model.commands import secure_shuffle  # noqa: E402
from tarok_service.server.tournaments.games import creation_batch  # noqa: E402
from tarok_service.server.tournaments.log import TournamentState  # noqa: E402
from tarok_service.server.usecases.botturns import play_run  # noqa: E402

BOTS = ["heuristic"] * 4 + ["pimc:budget=0.004:max_samples=6"] * 4


def brain(entry: str, seed: int) -> Bot:
    """A bot from "name:option=value:..."."""
    name, *pairs = entry.split(":")
    return entrant_bot(name, dict(p.split("=", 1) for p in pairs), seed)


PLAYERS = 4


def schedules(tables: int) -> dict[str, tuple[list[Game], bool]]:
    """Each schedule with `tables` tables (a multiple of 4) and whether it is duplicate."""
    entrants = len(BOTS)
    every = list(range(entrants))
    return {
        "rotation": (schedule(entrants, PLAYERS, tables // PLAYERS, True), True),
        "once": (schedule(entrants, PLAYERS, tables // 2, True, once=every), True),
        "plain": (schedule(entrants, PLAYERS, tables, False), False),
    }


def play(games: list[Game], duplicate: bool, seed: int) -> list[GameRecord]:
    spec = tm.TournamentSpec(variant="slovenian", players=PLAYERS, duplicate=duplicate)
    spec.entrants.extend(tm.Entrant(name=f"e{i}") for i in range(len(BOTS)))
    state = TournamentState("T" + "0" * 16, 1, spec, seed, games)
    records = []
    for game in games:
        table = creation_batch(state, game, 0.0, secure_shuffle).table
        brains = {
            s: brain(BOTS[e], seed * 7919 + game.index * 31 + s) for s, e in enumerate(game.seating)
        }
        run = play_run(table, brains, set(), time.time, secure_shuffle)
        assert run is not None
        scored = [p for p in run.payloads if isinstance(p, ev.HandScored)]
        totals = tuple(scored[-1].totals)
        records.append(GameRecord(game.index, game.deal, game.seating, totals))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=160, help="tables per schedule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default=",".join(BOTS), help="eight comma-separated bots")
    args = parser.parse_args()
    BOTS[:] = args.bots.split(",")
    names = [f"{b.split(':')[0]}-{i}" for i, b in enumerate(BOTS)]
    out: dict[str, object] = {"tables": args.tables, "entrants": names}
    for mode, (games, duplicate) in schedules(args.tables).items():
        rows = standings(names, play(games, duplicate, args.seed), duplicate)
        out[mode] = {
            "deals": len({g.deal for g in games}),
            "mean_ci95": round(statistics.fmean(r.ci95 for r in rows), 2),
            "per_deal_spread": round(statistics.pstdev(r.per_deal for r in rows), 2),
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
