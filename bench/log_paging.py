"""Ping latency while a 5,000-event table log is read in pages (GetTableLog) and watched
from version 0 (WatchTable), against a `tarok serve` subprocess.

    .venv/bin/python bench/log_paging.py                       # SQLite file store
    .venv/bin/python bench/log_paging.py --store postgresql://postgres@127.0.0.1:5432/test

Builds one long table (random legal moves over many hands) until it has `--events` events,
then measures Ping p50 / p99 / max alone, and again while `--readers` spectators page
through the whole log and one watcher drains it from version 0, over and over. Prints the
numbers and the time one full paged read and one catch-up watch take.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from serverproc import start_server  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402
from tarok_proto.tarok.v1 import views_pb2  # noqa: E402

PLAYING = views_pb2.TABLE_STATUS_PLAYING


async def long_table(stub: svc_grpc.TarokServiceAsyncStub, events: int) -> tuple[list[str], str]:
    """A table with at least `events` events: (seat tokens, a spectator token)."""
    request = svc.CreateTableRequest(variant="slovenian", players=4, hands=1000)
    table = (await stub.CreateTable(request)).table_id
    tokens = [
        (await stub.JoinTable(svc.JoinTableRequest(table_id=table))).token for _ in range(4)
    ]
    rng = random.Random(7)
    version = 0
    while version < events:
        public = (await stub.GetTableView(svc.GetTableViewRequest(token=tokens[0]))).view
        if public.status != PLAYING:
            break
        seat = public.hand.turn
        mine = (await stub.GetTableView(svc.GetTableViewRequest(token=tokens[seat]))).view
        legal = mine.hand.legal_moves
        passes = [m.id for m in legal if m.kind == "pass"]
        bidding = any(m.kind == "bid" for m in legal)
        move = passes[0] if passes and bidding and rng.random() < 0.8 else rng.choice(legal).id
        version = (
            await stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move))
        ).version
    spectator = await stub.JoinTable(svc.JoinTableRequest(table_id=table, spectator=True))
    return tokens, spectator.token


async def read_log(stub: svc_grpc.TarokServiceAsyncStub, token: str, size: int) -> int:
    """Every page of the log; the number of events."""
    count, page_token = 0, ""
    while True:
        page = await stub.GetTableLog(
            svc.GetTableLogRequest(token=token, page_size=size, page_token=page_token)
        )
        count += len(page.log.events)
        page_token = page.next_page_token
        if not page_token:
            return count


async def drain_watch(stub: svc_grpc.TarokServiceAsyncStub, token: str, upto: int) -> None:
    """Watch from version 0 until the event at `upto` arrives."""
    stream = stub.WatchTable(svc.WatchTableRequest(token=token, from_version=0))
    async for item in stream:
        if item.HasField("event") and item.event.version >= upto:
            stream.cancel()
            return


async def pings(stub: svc_grpc.TarokServiceAsyncStub, stop: asyncio.Event) -> list[float]:
    out = []
    request = svc.PingRequest(payload=b"x" * 16)
    while not stop.is_set():
        started = time.perf_counter()
        await stub.Ping(request)
        out.append(time.perf_counter() - started)
        await asyncio.sleep(0.002)
    return out


def summary(latencies: list[float]) -> str:
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"n={len(ms)} p50={statistics.median(ms):.2f} ms p99={p99:.2f} ms max={ms[-1]:.2f} ms"


async def measure(target: str, events: int, readers: int, rounds: int, size: int) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        started = time.perf_counter()
        tokens, spectator = await long_table(stub, events)
        version = (await stub.GetTableView(svc.GetTableViewRequest(token=spectator))).view.version
        print(f"table of {version} events built in {time.perf_counter() - started:.1f} s")

        stop = asyncio.Event()
        idle = asyncio.create_task(pings(stub, stop))
        await asyncio.sleep(3)
        stop.set()
        print(f"Ping alone:                {summary(await idle)}")

        async with grpc.aio.insecure_channel(target) as other:
            readers_stub = svc_grpc.TarokServiceStub(other)
            started = time.perf_counter()
            count = await read_log(readers_stub, spectator, size)
            print(f"one paged read: {count} events in {time.perf_counter() - started:.2f} s")
            started = time.perf_counter()
            await drain_watch(readers_stub, tokens[1], version)
            print(f"one watch from version 0: {time.perf_counter() - started:.2f} s")

            stop = asyncio.Event()
            busy = asyncio.create_task(pings(stub, stop))

            async def reader(token: str) -> None:
                for _ in range(rounds):
                    await read_log(readers_stub, token, size)

            async def watcher() -> None:
                for _ in range(rounds):
                    await drain_watch(readers_stub, tokens[2], version)

            await asyncio.gather(*(reader(tokens[i % 4]) for i in range(readers)), watcher())
            stop.set()
            print(f"Ping while reading logs:   {summary(await busy)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="")
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--page-size", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc, target = start_server(store)
        try:
            asyncio.run(measure(target, args.events, args.readers, args.rounds, args.page_size))
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
