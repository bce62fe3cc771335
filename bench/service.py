"""SubmitMove against a bare grpc.aio echo server, side by side in one run.

    .venv/bin/python bench/service.py                                   # SQLite full + normal
    .venv/bin/python bench/service.py --postgres postgresql://postgres@127.0.0.1:5432/bench \
        --repetitions 5 --json bench/results/service.json

Starts, each in its own process on a free port: one `tarok serve` per store (SQLite with
`--sqlite-sync full`, SQLite with `--sqlite-sync normal`, PostgreSQL if `--postgres` is given)
and one bare echo server (bench/echo_server.py: Ping with no interceptor, log, metrics or
store, answering as many bytes as a SubmitMoveResponse, sent as many as a SubmitMoveRequest).
Beside each store, unless skipped, its durable echo (`echo_server.py --store`: one append
through our own store class per call) and, for SQLite, the independent durable echo
(`echo_server.py --plain-sqlite`: a plain sqlite3 writer thread, group commit, WAL, the same
`synchronous`; nothing of ours below grpc.aio) - the floors SubmitMove is measured against.

Each repetition runs, for every concurrency C and every store, a move round immediately
followed by an echo round (interleaved, so both see the same machine load): C callers each
play whole preset hands with SubmitMove (moves computed in advance with the rules engine,
every one still validated by the server; a fresh request id per call, as the SDK sends), then
C callers make as many echo calls. Reported per store and C: medians over the repetitions of
throughput, p50 and p99 latency, server CPU per call, and of the per-repetition ratios
SubmitMove / echo. On a shared machine the CPU ratio is the steadiest figure: a saturated
server's throughput ratio tends to its inverse. The CPU of the server's main thread (the
event loop's: what a single-loop server saturates first) is reported on its own too.
Also prints the machine load (/proc/loadavg) before and after: the numbers are only as quiet
as the machine. Table setup (create, join) is not timed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from serverproc import drain  # noqa: E402
from tables import floor_table, plain_floor_table  # noqa: E402
from tarok_proto.tarok.v1 import cards_pb2, moves_pb2, views_pb2  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.engine.moves import Move  # noqa: E402
from tarok_service.engine.variant import Variant  # noqa: E402
from tarok_service.variants.registry import find_variant  # noqa: E402

Script = tuple[list[str], list[tuple[int, str]]]  # (deal order, [(seat, move id)])
Round = Callable[[], Awaitable[tuple[list[float], float, float]]]
PLAYERS = 4
ENV = dict(os.environ, TAROK_SECRET="bench")
ENV["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])


def script(variant: Variant, rng: random.Random) -> Script:
    """A preset deal and a full hand of legal moves for it (random, passing often)."""
    rules = variant.make_rules(PLAYERS)
    deck = variant.deck(rules)
    while True:
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, 0)
        if not state.finished:
            break
    moves = []
    while not state.finished:
        legal = variant.legal_moves(state)
        passes = [m for m in legal if m.kind == "pass"]
        bidding = any(m.kind == "bid" for m in legal)
        move = passes[0] if passes and bidding and rng.random() < 0.8 else rng.choice(legal)
        assert state.turn is not None
        moves.append((state.turn, move.id))
        state = variant.apply(state, Move.parse(move.id))
    return [deck.codes[c] for c in order], moves


def message_sizes() -> tuple[int, int]:
    """Typical serialized sizes of a SubmitMoveRequest (SDK-style) and a SubmitMoveResponse."""
    request = svc.SubmitMoveRequest(
        token="x" * 120, move_id="play:T21", request_id=uuid.uuid4().hex
    )
    response = svc.SubmitMoveResponse(
        version=42,
        move=moves_pb2.LegalMove(id="play:T21", label="Play T21", kind="play", value="T21"),
        status=views_pb2.TABLE_STATUS_PLAYING,
        turn=2,
    )
    return request.ByteSize(), response.ByteSize()


def start(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    """Start a server process that prints `listening on HOST:PORT`; return it and its target."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, text=True
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise SystemExit(f"server did not start: {' '.join(command)}")
    drain(proc)  # the echo server prints nothing more; the tarok server its access log
    return proc, f"127.0.0.1:{found.group(1)}"


def tarok_server(store: str, sync: str) -> list[str]:
    return [
        sys.executable, "-m", "tarok_client.cli", "serve", "--store", store,
        "--sqlite-sync", sync, "--host", "127.0.0.1", "--port", "0", "--log-format", "json",
        "--workers", "1",  # one process: its CPU is what the figures count
    ]  # fmt: skip


def cpu_seconds(pid: int, thread: bool = False) -> float:
    """User + system CPU time so far of a process, or (`thread`) of its main thread - the one
    running the event loop (Linux /proc); 0.0 elsewhere."""
    path = f"/proc/{pid}/task/{pid}/stat" if thread else f"/proc/{pid}/stat"
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


@dataclass
class Target:
    """One server under test: a tarok store, or the echo server."""

    name: str
    proc: subprocess.Popen[str]
    address: str
    channel: grpc.aio.Channel | None = None
    rounds: dict[int, list[dict[str, float]]] = field(default_factory=dict)
    floor: Target | None = None  # the durable echo on the same kind of store
    plain: Target | None = None  # the independent durable echo (plain sqlite3), SQLite only

    @property
    def stub(self) -> svc_grpc.TarokServiceAsyncStub:
        assert self.channel is not None
        return svc_grpc.TarokServiceStub(self.channel)


async def setup_table(stub: svc_grpc.TarokServiceAsyncStub, plan: Script) -> list[str]:
    request = svc.CreateTableRequest(
        variant="slovenian", players=PLAYERS, hands=1, preset_deals=[cards_pb2.Deal(cards=plan[0])]
    )
    table = (await stub.CreateTable(request)).table_id
    return [
        (await stub.JoinTable(svc.JoinTableRequest(table_id=table))).token for _ in range(PLAYERS)
    ]


async def play(
    stub: svc_grpc.TarokServiceAsyncStub, games: list[tuple[list[str], Script]], lat: list[float]
) -> None:
    """One caller: its tables' moves in order, each with a new request id (as the SDK does)."""
    for tokens, plan in games:
        for seat, move_id in plan[1]:
            request = svc.SubmitMoveRequest(
                token=tokens[seat], move_id=move_id, request_id=uuid.uuid4().hex
            )
            started = time.perf_counter()
            await stub.SubmitMove(request)
            lat.append(time.perf_counter() - started)


async def echo(
    stub: svc_grpc.TarokServiceAsyncStub, count: int, size: int, lat: list[float]
) -> None:
    request = svc.PingRequest(payload=b"x" * size)
    for _ in range(count):
        started = time.perf_counter()
        await stub.Ping(request)
        lat.append(time.perf_counter() - started)


async def timed(target: Target, calls: list[Awaitable[None]]) -> tuple[float, float, float]:
    """Run the callers together; (wall seconds, server CPU seconds, of which on the event
    loop's thread)."""
    pid = target.proc.pid
    cpu, loop, started = cpu_seconds(pid), cpu_seconds(pid, True), time.perf_counter()
    await asyncio.gather(*calls)
    wall = time.perf_counter() - started
    return wall, cpu_seconds(pid) - cpu, cpu_seconds(pid, True) - loop


def summary(lat: list[float], wall: float, cpu: float, loop: float) -> dict[str, float]:
    cuts = statistics.quantiles(lat, n=100)
    return {
        "calls": len(lat),
        "rps": len(lat) / wall,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * cuts[98],
        "cpu_us": 1e6 * cpu / len(lat),
        "loop_cpu_us": 1e6 * loop / len(lat),
    }


async def move_round(
    target: Target, concurrency: int, tables_each: int, rng: random.Random
) -> dict[str, float]:
    variant = find_variant("slovenian")
    stub = target.stub
    callers = []
    for _ in range(concurrency):
        plans = [script(variant, rng) for _ in range(tables_each)]
        callers.append([(await setup_table(stub, p), p) for p in plans])
    lat: list[float] = []
    return summary(lat, *await timed(target, [play(stub, games, lat) for games in callers]))


async def echo_round(
    target: Target, concurrency: int, per_caller: int, size: int
) -> dict[str, float]:
    lat: list[float] = []
    stub = target.stub
    callers: list[Awaitable[None]] = [echo(stub, per_caller, size, lat) for _ in range(concurrency)]
    return summary(lat, *await timed(target, callers))


async def run(
    stores: list[Target], bare: Target, args: argparse.Namespace, sizes: tuple[int, int]
) -> None:
    rng = random.Random(1)
    floors = [f for t in stores for f in (t.floor, t.plain) if f is not None]
    for target in [*stores, bare, *floors]:
        target.channel = grpc.aio.insecure_channel(target.address)
    try:
        for target in stores:  # warm up: imports, caches, first connections
            await move_round(target, 2, 1, rng)
        for target in [bare, *floors]:
            await echo_round(target, 2, 200, sizes[0])
        for rep in range(args.repetitions):
            for concurrency in args.concurrency:
                tables_each = max(1, math.ceil(args.calls / (concurrency * 55)))
                for target in stores:
                    moved = await move_round(target, concurrency, tables_each, rng)
                    per_caller = max(1, int(moved["calls"]) // concurrency)
                    echoed = await echo_round(bare, concurrency, per_caller, sizes[0])
                    target.rounds.setdefault(concurrency, []).append(moved)
                    bare.rounds.setdefault(concurrency, []).append(echoed)
                    moved["echo_rps"], moved["echo_p50_ms"] = echoed["rps"], echoed["p50_ms"]
                    moved["echo_p99_ms"], moved["echo_cpu_us"] = echoed["p99_ms"], echoed["cpu_us"]
                    moved["echo_loop_cpu_us"] = echoed["loop_cpu_us"]
                    for key, floor in (("floor", target.floor), ("plain", target.plain)):
                        if floor is not None:
                            got = await echo_round(floor, concurrency, per_caller, sizes[0])
                            for figure in ("rps", "p50_ms", "cpu_us"):
                                moved[f"{key}_{figure}"] = got[figure]
            print(f"  repetition {rep + 1}/{args.repetitions} done (load {loadavg()})",
                  file=sys.stderr, flush=True)  # fmt: skip
    finally:
        for target in [*stores, bare, *floors]:
            if target.channel is not None:
                await target.channel.close(None)


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    """Medians over repetitions of every figure and of the per-repetition ratios."""
    keys = rounds[0].keys()
    out = {k: statistics.median(r[k] for r in rounds) for k in keys}
    out["rps_ratio"] = statistics.median(r["rps"] / r["echo_rps"] for r in rounds)
    out["p50_ratio"] = statistics.median(r["p50_ms"] / r["echo_p50_ms"] for r in rounds)
    out["p99_ratio"] = statistics.median(r["p99_ms"] / r["echo_p99_ms"] for r in rounds)
    out["cpu_ratio"] = statistics.median(r["cpu_us"] / r["echo_cpu_us"] for r in rounds)
    loops = [r["loop_cpu_us"] / r["echo_loop_cpu_us"] for r in rounds if r["echo_loop_cpu_us"]]
    out["loop_cpu_ratio"] = statistics.median(loops) if loops else 0.0
    for key in ("floor", "plain"):  # the durable echoes, where the run measured them
        if f"{key}_rps" in rounds[0]:
            rps, p50 = f"{key}_rps", f"{key}_p50_ms"
            out[f"{key}_rps_ratio"] = statistics.median(r["rps"] / r[rps] for r in rounds)
            out[f"{key}_p50_ratio"] = statistics.median(r["p50_ms"] / r[p50] for r in rounds)
            out[f"{key}_echo_ratio"] = statistics.median(r[rps] / r["echo_rps"] for r in rounds)
    out["repetitions"] = len(rounds)
    return out


def report(stores: list[Target], load: tuple[str, str], args: argparse.Namespace) -> dict[str, Any]:
    results = {t.name: {str(c): medians(rounds) for c, rounds in t.rounds.items()} for t in stores}
    print(f"load average before {load[0]}, after {load[1]} ({os.cpu_count()} CPUs); "
          f"medians of {args.repetitions} repetitions")  # fmt: skip
    print(
        "| store | C | moves/s | echo/s | throughput ratio | p50 ms (echo) | p50 ratio "
        "| p99 ms (echo) | p99 ratio | server CPU/call us (echo) | CPU ratio "
        "| loop-thread CPU/call us (echo) | loop CPU ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, by_c in results.items():
        for c, r in by_c.items():
            print(
                f"| {name} | {c} | {r['rps']:.0f} | {r['echo_rps']:.0f} | {r['rps_ratio']:.2f} "
                f"| {r['p50_ms']:.2f} ({r['echo_p50_ms']:.2f}) | {r['p50_ratio']:.2f} "
                f"| {r['p99_ms']:.2f} ({r['echo_p99_ms']:.2f}) | {r['p99_ratio']:.2f} "
                f"| {r['cpu_us']:.0f} ({r['echo_cpu_us']:.0f}) | {r['cpu_ratio']:.2f} "
                f"| {r['loop_cpu_us']:.0f} ({r['echo_loop_cpu_us']:.0f}) "
                f"| {r['loop_cpu_ratio']:.2f} |"
            )
    print("\n".join(floor_table(results)))
    print("\n".join(plain_floor_table(results)))
    return {
        "benchmark": "service",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpus": os.cpu_count(),
        "load_before": load[0],
        "load_after": load[1],
        "repetitions": args.repetitions,
        "concurrency": args.concurrency,
        "results": results,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TAROK_BENCH_POSTGRES_DSN"),
        help="PostgreSQL DSN to include (default: $TAROK_BENCH_POSTGRES_DSN)",
    )
    parser.add_argument("--no-sqlite-full", action="store_true", help="skip SQLite FULL")
    parser.add_argument("--no-sqlite-normal", action="store_true", help="skip SQLite NORMAL")
    parser.add_argument(
        "--no-floors", action="store_true", help="skip the durable echo servers (--store)"
    )
    parser.add_argument(
        "--no-plain-floors",
        action="store_true",
        help="skip the independent durable echo servers (--plain-sqlite, SQLite stores only)",
    )
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--calls", type=int, default=300, help="moves per round (about)")
    parser.add_argument("--dir", default=None, help="where the SQLite files go (default: temp)")
    parser.add_argument("--json", default=None, help="write the summary here ('-': stdout)")
    parser.add_argument(
        "--echo-registered",
        action="store_true",
        help="the echo server registers its methods as generated code does (dearer per call)",
    )
    args = parser.parse_args()
    sizes = message_sizes()
    procs: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        configs: list[tuple[str, str, str]] = []
        if not args.no_sqlite_full:
            configs.append(("sqlite-full", f"sqlite:///{tmp}/full.db", "full"))
        if not args.no_sqlite_normal:
            configs.append(("sqlite-normal", f"sqlite:///{tmp}/normal.db", "normal"))
        if args.postgres:
            configs.append(("postgres", args.postgres, "full"))
        try:
            stores = []
            echo_cmd = [sys.executable, str(ROOT / "bench" / "echo_server.py"), "--reply-bytes",
                        str(sizes[1])]  # fmt: skip
            for name, url, sync in configs:
                proc, address = start(tarok_server(url, sync))
                procs.append(proc)
                stores.append(Target(name, proc, address))
                if not args.no_floors:
                    floor_url = url.replace(".db", "-floor.db")
                    proc, address = start([*echo_cmd, "--store", floor_url, "--sqlite-sync", sync])
                    procs.append(proc)
                    stores[-1].floor = Target(f"{name}-floor", proc, address)
                if not args.no_plain_floors and url.startswith("sqlite:"):
                    plain_path = url.removeprefix("sqlite:///").replace(".db", "-plain.db")
                    proc, address = start(
                        [*echo_cmd, "--plain-sqlite", plain_path, "--sqlite-sync", sync]
                    )
                    procs.append(proc)
                    stores[-1].plain = Target(f"{name}-plain-floor", proc, address)
            if args.echo_registered:
                echo_cmd.append("--registered")
            proc, address = start(echo_cmd)
            procs.append(proc)
            bare = Target("echo", proc, address)
            before = loadavg()
            asyncio.run(run(stores, bare, args, sizes))
            summary_ = report(stores, (before, loadavg()), args)
            summary_["message_bytes"] = {"request": sizes[0], "response": sizes[1]}
            summary_["echo_registration"] = "registered" if args.echo_registered else "generic"
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(10)
    if args.json == "-":
        json.dump(summary_, sys.stdout, indent=2)
    elif args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary_, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
