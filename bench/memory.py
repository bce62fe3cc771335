"""Server memory per open table and per watcher (Linux: reads /proc).

    .venv/bin/python bench/memory.py [--tables 1000] [--watchers 1000] [--json FILE]

Starts one `tarok serve` process (`--workers 1`, a SQLite file with `--sqlite-sync normal`,
watcher limits raised) and reads its resident memory (VmRSS) three times: after a warm-up
(a few tables created and played, so the transport's and the rules' own memory is
allocated), after `--tables` more tables were created, seated with four players and given
`--moves` moves each (every one in the server's table cache, as tables in play are), and
after `--watchers` WatchTable streams were opened on them (spread over the tables, each
stream counted once its first message has arrived). The differences, divided by the counts,
are the memory one open table and one watcher cost; docs/scaling.md's capacity model uses
them. RSS includes the allocator's slack, so these are what a process really grows by.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from serverproc import rss_kib, start_server  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

PLAYERS = 4
PARALLEL = 16  # tables set up at once


async def open_table(
    stub: svc_grpc.TarokServiceAsyncStub, moves: int, rng: random.Random
) -> list[str]:
    """A table with four players and `moves` moves made; its tokens."""
    table = await stub.CreateTable(
        svc.CreateTableRequest(variant="slovenian", players=PLAYERS, hands=1)
    )
    tokens = [
        (await stub.JoinTable(svc.JoinTableRequest(table_id=table.table_id))).token
        for _ in range(PLAYERS)
    ]
    for _ in range(moves):
        public = (await stub.GetTableView(svc.GetTableViewRequest(token=tokens[0]))).view
        seat = public.hand.turn
        mine = (await stub.GetTableView(svc.GetTableViewRequest(token=tokens[seat]))).view
        legal = [m.id for m in mine.hand.legal_moves]
        passes = [m for m in legal if m.startswith("pass")]
        move = passes[0] if passes else rng.choice(legal)
        await stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move))
    return tokens


async def open_tables(
    stub: svc_grpc.TarokServiceAsyncStub, count: int, moves: int
) -> list[list[str]]:
    rng = random.Random(7)
    out: list[list[str]] = []
    for start in range(0, count, PARALLEL):
        batch = [open_table(stub, moves, rng) for _ in range(min(PARALLEL, count - start))]
        out.extend(await asyncio.gather(*batch))
    return out


async def measure(target: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    channels = [grpc.aio.insecure_channel(target) for _ in range(max(1, args.watchers // 100))]
    stub = svc_grpc.TarokServiceStub(channels[0])
    calls: list[Any] = []
    try:
        await open_tables(stub, 8, args.moves)  # warm-up
        base = rss_kib(pid)
        tables = await open_tables(stub, args.tables, args.moves)
        with_tables = rss_kib(pid)
        first: list[asyncio.Future[Any]] = []
        for i in range(args.watchers):
            tokens = tables[i % len(tables)]
            watch = svc_grpc.TarokServiceStub(channels[i % len(channels)]).WatchTable(
                svc.WatchTableRequest(token=tokens[i % PLAYERS])
            )
            calls.append(watch)
            first.append(asyncio.ensure_future(watch.read()))
        await asyncio.gather(*first)
        with_watchers = rss_kib(pid)
    finally:
        for call in calls:
            call.cancel()
        for channel in channels:
            await channel.close(None)
    return {
        "benchmark": "memory",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "tables": args.tables,
        "moves_per_table": args.moves,
        "watchers": args.watchers,
        "rss_base_kib": base,
        "rss_tables_kib": with_tables,
        "rss_watchers_kib": with_watchers,
        "kib_per_table": (with_tables - base) / max(1, args.tables),
        "kib_per_watcher": (with_watchers - with_tables) / max(1, args.watchers),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=6, help="moves made at each table")
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--json", default=None, help="write the result here")
    args = parser.parse_args()
    limit = str(max(args.watchers, 1) + 10)
    with tempfile.TemporaryDirectory() as tmp:
        proc, target = start_server(
            f"sqlite:///{tmp}/memory.db", "--sqlite-sync", "normal",
            "--max-watchers", limit, "--max-watchers-per-principal", limit,
        )  # fmt: skip
        try:
            result = asyncio.run(measure(target, proc.pid, args))
        finally:
            proc.terminate()
            proc.wait(30)
    print(
        f"RSS {result['rss_base_kib']} KiB after warm-up, {result['rss_tables_kib']} KiB with "
        f"{args.tables} open tables ({args.moves} moves each), {result['rss_watchers_kib']} KiB "
        f"with {args.watchers} watchers: {result['kib_per_table']:.1f} KiB per open table, "
        f"{result['kib_per_watcher']:.1f} KiB per watcher"
    )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
