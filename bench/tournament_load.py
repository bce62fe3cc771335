"""GetTableView latency while the server plays a huge tournament of built-in bots.

    .venv/bin/python bench/tournament_load.py                     # default bot share (0.25)
    .venv/bin/python bench/tournament_load.py --share 1           # no share: bots flat out

A `tarok serve` subprocess is started on a free port with an organiser key. A free table is
created and seated; GetTableView on it is timed while the server is idle, then while an
organiser's duplicate tournament of `--deals` deals (four pimc entrants by default: 4 tables
per deal) is running, and the tournament is then cancelled. Prints one JSON document: the
median (p50) and p90 latency in both phases, their ratio, and how many tournament tables
finished during the loaded phase (the bots did work).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts  # noqa: E402
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc  # noqa: E402
from tarok_proto.tarok.v1 import tournaments_pb2 as tm  # noqa: E402

_LISTENING = re.compile(r"listening on (\S+):(\d+)")


@contextmanager
def server(key: str, share: float) -> Iterator[str]:
    env = dict(os.environ, TAROK_SECRET=secrets.token_hex(16), PYTHONPATH=os.pathsep.join(sys.path))
    command = [
        sys.executable, "-m", "tarok_client.cli", "serve", "--store", "sqlite:///:memory:",
        "--host", "127.0.0.1", "--port", "0", "--organiser-key", key,
        "--tournament-bot-share", str(share), "--max-tournament-tables", "100000",
    ]  # fmt: skip
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
    )
    try:
        assert proc.stdout is not None
        found = _LISTENING.search(proc.stdout.readline())
        if found is None:
            raise RuntimeError("the server did not start")
        yield f"127.0.0.1:{found.group(2)}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def latencies(stub: svc_grpc.TarokServiceStub, token: str, seconds: float) -> list[float]:
    """GetTableView round trips (ms), one after another, for `seconds`, 5 ms apart."""
    out: list[float] = []
    request = svc.GetTableViewRequest(token=token)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        stub.GetTableView(request)
        out.append((time.perf_counter() - start) * 1000)
        time.sleep(0.005)
    return out


def summary(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=10)
    return {"p50_ms": round(statistics.median(samples), 3), "p90_ms": round(cuts[8], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--budget", type=float, default=0.0, help="pimc seconds per decision")
    parser.add_argument("--share", type=float, default=0.25, help="--tournament-bot-share")
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    parser.add_argument("--warmup", type=float, default=5.0, help="after creating the tournament")
    args = parser.parse_args()
    key = secrets.token_hex(16)
    with server(key, args.share) as target, grpc.insecure_channel(target) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        tables = svc_grpc.TarokServiceStub(channel)
        tours = ts_grpc.TournamentServiceStub(channel)
        table_id = tables.CreateTable(
            svc.CreateTableRequest(variant="slovenian", players=4)
        ).table_id
        tokens = [
            tables.JoinTable(svc.JoinTableRequest(table_id=table_id, name=f"p{i}")).token
            for i in range(4)
        ]
        latencies(tables, tokens[0], 2.0)  # warm up
        idle = latencies(tables, tokens[0], args.seconds)
        options = {"budget": str(args.budget)} if args.budget else {}
        spec = tm.TournamentSpec(
            variant="slovenian",
            players=4,
            deals=args.deals,
            duplicate=True,
            entrants=[
                tm.Entrant(name=f"{args.bot}-{i}", bot=args.bot, bot_options=options)
                for i in range(4)
            ],
        )
        created = tours.CreateTournament(ts.CreateTournamentRequest(spec=spec, organiser_key=key))
        time.sleep(args.warmup)
        get = ts.GetTournamentRequest(tournament_id=created.tournament_id)
        before = tours.GetTournament(get).tournament.games_finished
        loaded = latencies(tables, tokens[0], args.seconds)
        progress = tours.GetTournament(get).tournament
        after, tours_started = progress.games_finished, progress.games_started
        tours.CancelTournament(
            ts.CancelTournamentRequest(
                tournament_id=created.tournament_id,
                organiser_token=created.organiser_token,
                reason="benchmark over",
            )
        )
    result = {
        "tournament_tables": created.games,
        "bot": args.bot,
        "bot_share": args.share,
        "idle": summary(idle),
        "loaded": summary(loaded),
        "p50_ratio": round(statistics.median(loaded) / statistics.median(idle), 3),
        "tables_finished_while_measuring": after - before,
        "tables_started": tours_started,
        "samples": [len(idle), len(loaded)],
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
