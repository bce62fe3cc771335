"""A loopback load test of several replicas on PostgreSQL, against the capacity model.

    .venv/bin/python bench/cluster.py --postgres postgresql://postgres@127.0.0.1:5432/bench \
        --replicas 5 --interval 2 --start 50 --factor 1.5 --step-seconds 30

Starts `--replicas` `tarok serve` processes (`--workers 1` each) on one PostgreSQL store and
plays tables through them, each table's moves `--interval` seconds apart (the pace of play
of docs/scaling.md's model), its calls sent to the replicas in turn as a load balancer
would. With `--store URL` instead of `--postgres`, and `--workers-each N`, any store and N
workers per replica (one SQLite file: `--replicas 1 --workers-each 2`). The moves are
computed in advance from preset deals (bench/service.py's `script`);
a table that finishes is replaced by a new one (set-up not timed). The load ramps: each step
plays `--start` x `--factor`^k tables for `--step-seconds`, until a step's SubmitMove p99
passes `--p99-ms` (100) or it falls short of the offered rate by 10% (saturated).

Prints, per step, the offered and achieved moves/s, p50 and p99, and the replicas' CPU per
move; then the measured plateau (the best rate of a step within the p99 bound) beside the
model's prediction: `cores x 1e6 / --cpu-us` (`--cpu-us`: the server CPU per move the model
assumes, from docs/performance.md), and the same with the CPU the replicas actually got
at the last step (on loopback the load generator and PostgreSQL share the cores).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from serverproc import start_server  # noqa: E402
from service import cpu_seconds, script, setup_table  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.variants.registry import find_variant  # noqa: E402


@dataclass
class Load:
    """The latencies of the current step and the moves made in it."""

    lat: list[float] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)


async def table_player(
    stubs: list[svc_grpc.TarokServiceAsyncStub], interval: float, load: Load, rng: random.Random
) -> None:
    """One table after another, a move every `interval` s, calls spread over the replicas."""
    variant = find_variant("slovenian")
    turn = itertools.cycle(range(len(stubs)))
    await asyncio.sleep(rng.random() * interval)  # spread the tables' moves over the interval
    while not load.stop.is_set():
        plan = script(variant, rng)
        tokens = await setup_table(stubs[next(turn)], plan)
        due = time.perf_counter()
        for seat, move_id in plan[1]:
            due += interval
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if load.stop.is_set():
                return
            request = svc.SubmitMoveRequest(token=tokens[seat], move_id=move_id)
            started = time.perf_counter()
            await stubs[next(turn)].SubmitMove(request)
            load.lat.append(time.perf_counter() - started)


async def step(
    stubs: list[svc_grpc.TarokServiceAsyncStub],
    pids: list[int],
    tables: int,
    args: argparse.Namespace,
    rng: random.Random,
) -> dict[str, float]:
    load = Load()
    players = [asyncio.create_task(table_player(stubs, args.interval, load, rng))
               for _ in range(tables)]  # fmt: skip
    await asyncio.sleep(args.interval)  # let every table make its first move
    load.lat.clear()
    tree = [c for p in pids for c in family(p)]
    cpu, started = sum(cpu_seconds(p) for p in tree), time.perf_counter()
    await asyncio.sleep(args.step_seconds)
    wall, lat = time.perf_counter() - started, list(load.lat)
    used = sum(cpu_seconds(p) for p in tree) - cpu
    load.stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    moves = len(lat)
    cuts = statistics.quantiles(lat, n=100) if moves >= 2 else [0.0] * 99
    return {
        "tables": tables,
        "offered": tables / args.interval,
        "moves_per_s": moves / wall,
        "p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
        "p99_ms": 1000 * cuts[98],
        "cpu_us": 1e6 * used / moves if moves else 0.0,
        "server_cores": used / wall,
    }


def family(pid: int) -> list[int]:
    """`pid` and its children (the workers of `--workers N`)."""
    out = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


async def ramp(targets: list[str], pids: list[int], args: argparse.Namespace) -> list[Any]:
    channels = [grpc.aio.insecure_channel(t) for t in targets]
    stubs = [svc_grpc.TarokServiceStub(c) for c in channels]
    rng, steps = random.Random(5), []
    try:
        tables = args.start
        for _ in range(args.max_steps):
            result = await step(stubs, pids, tables, args, rng)
            steps.append(result)
            print(f"  {tables} tables: offered {result['offered']:.0f} moves/s, achieved "
                  f"{result['moves_per_s']:.0f}, p50 {result['p50_ms']:.1f} ms, p99 "
                  f"{result['p99_ms']:.1f} ms, {result['cpu_us']:.0f} us CPU per move",
                  file=sys.stderr, flush=True)  # fmt: skip
            if result["p99_ms"] > args.p99_ms or result["moves_per_s"] < 0.9 * result["offered"]:
                break
            tables = max(tables + 1, round(tables * args.factor))
    finally:
        for channel in channels:
            await channel.close(None)
    return steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TAROK_BENCH_POSTGRES_DSN"),
        help="PostgreSQL DSN (default: $TAROK_BENCH_POSTGRES_DSN)",
    )
    parser.add_argument("--store", default=None, help="any store URL instead of --postgres")
    parser.add_argument("--workers-each", type=int, default=1, help="--workers of each replica")
    parser.add_argument("--replicas", type=int, default=5)
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds between a table's moves"
    )
    parser.add_argument("--start", type=int, default=50, help="tables in the first step")
    parser.add_argument("--factor", type=float, default=1.5, help="tables grow by this per step")
    parser.add_argument("--step-seconds", type=float, default=30.0)
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--p99-ms", type=float, default=100.0)
    parser.add_argument(
        "--cpu-us", type=float, default=885.0,
        help="server CPU per move the model assumes (docs/performance.md: 631-1,139 on "
        "PostgreSQL; default their middle)",
    )  # fmt: skip
    parser.add_argument("--json", default=None, help="write the result here")
    args = parser.parse_args()
    store = args.store or args.postgres
    if not store:
        parser.error("give --postgres (or $TAROK_BENCH_POSTGRES_DSN) or --store")
    workers = ("--workers", str(args.workers_each))
    procs = [start_server(store, *workers) for _ in range(args.replicas)]
    try:
        steps = asyncio.run(ramp([t for _, t in procs], [p.pid for p, _ in procs], args))
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            proc.wait(30)
    within = [s for s in steps if s["p99_ms"] <= args.p99_ms] or steps[:1]
    plateau = max(s["moves_per_s"] for s in within)
    cores = len(os.sched_getaffinity(0))
    predicted = cores * 1e6 / args.cpu_us
    got = steps[-1]["server_cores"] * 1e6 / args.cpu_us
    print(f"measured plateau: {plateau:.0f} moves/s ({args.replicas} replicas, p99 <= "
          f"{args.p99_ms:.0f} ms, a move every {args.interval:g} s per table: "
          f"{plateau * args.interval:.0f} tables)")  # fmt: skip
    print(f"model: {predicted:.0f} moves/s on {cores} cores at {args.cpu_us:.0f} us per move "
          f"(measured / model {plateau / predicted:.2f}); with the "
          f"{steps[-1]['server_cores']:.2f} cores the replicas got at the last step: "
          f"{got:.0f} moves/s (measured / model {plateau / got if got else 0.0:.2f})")  # fmt: skip
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        result = {"benchmark": "cluster", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "replicas": args.replicas, "interval_s": args.interval, "steps": steps,
                  "plateau_moves_per_s": plateau, "model_moves_per_s": predicted,
                  "model_with_cores_got": got}  # fmt: skip
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
