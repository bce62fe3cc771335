"""Store appends alone (no gRPC): C concurrent appenders, each to its own table.

    .venv/bin/python bench/store_append.py --store postgresql://postgres@127.0.0.1:5432/bench
    .venv/bin/python bench/store_append.py --store sqlite:////tmp/a.db --concurrency 1 8

Each appender appends one event (about a move's size, with a fresh request id, as the
server does) at a time at its table's next version. Reported per concurrency: appends per
second, p50 latency, and this process's CPU per append (the store's client side: pool,
driver, group commit) and its main thread's (the event loop's), medians over the
repetitions; plus the machine load. For PostgreSQL
the database server's own CPU is not included (it runs in its own processes).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from service import loadavg  # noqa: E402

from tarok_service.store import NewEvent, open_store  # noqa: E402
from tarok_service.store.base import EventStore  # noqa: E402

PAYLOAD = bytes(range(90))  # about a MoveMade event


async def appender(store: EventStore, table_id: str, calls: int, lat: list[float]) -> None:
    version = await store.version(table_id)
    for _ in range(calls):
        event = NewEvent("MoveMade", PAYLOAD, uuid.uuid4().hex)
        started = time.perf_counter()
        version = await store.append(table_id, version, [event], time.time())
        lat.append(time.perf_counter() - started)


async def round_(store: EventStore, concurrency: int, calls: int) -> dict[str, float]:
    run = uuid.uuid4().hex[:8]
    lat: list[float] = []
    cpu, loop, wall = time.process_time(), time.thread_time(), time.perf_counter()
    per = max(1, calls // concurrency)
    await asyncio.gather(
        *(appender(store, f"bench-{run}-{i}", per, lat) for i in range(concurrency))
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    loop = time.thread_time() - loop
    return {
        "appends_per_s": len(lat) / wall,
        "p50_ms": 1000 * statistics.median(lat),
        "cpu_us": 1e6 * cpu / len(lat),
        "loop_cpu_us": 1e6 * loop / len(lat),
    }


async def main_async(args: argparse.Namespace) -> dict[int, list[dict[str, float]]]:
    store = open_store(args.store)
    await store.open()
    runs: dict[int, list[dict[str, float]]] = {c: [] for c in args.concurrency}
    try:
        await round_(store, 4, 100)  # warm up (connections, prepared statements)
        for _ in range(args.repetitions):
            for c in args.concurrency:
                runs[c].append(await round_(store, c, args.calls))
    finally:
        await store.close()
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="a store URL (see open_store)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--calls", type=int, default=400, help="appends per round (about)")
    args = parser.parse_args()
    before = loadavg()
    runs = asyncio.run(main_async(args))
    print(f"load average before {before}, after {loadavg()} ({os.cpu_count()} CPUs); "
          f"medians of {args.repetitions} repetitions")  # fmt: skip
    print("| C | appends/s | p50 ms | client CPU us/append | event-loop thread CPU us/append |")
    print("|---|---|---|---|---|")
    for c, reps in runs.items():
        r = {k: statistics.median(x[k] for x in reps) for k in reps[0]}
        print(f"| {c} | {r['appends_per_s']:.0f} | {r['p50_ms']:.2f} | {r['cpu_us']:.0f} "
              f"| {r['loop_cpu_us']:.0f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
