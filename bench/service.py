"""SubmitMove throughput and latency against a trivial echo RPC (Ping), in one run.

    .venv/bin/python bench/service.py                       # SQLite file store
    .venv/bin/python bench/service.py --store postgresql://postgres@127.0.0.1:5432/test

A `tarok serve` subprocess is started on a free port. Each table's moves are computed in
advance with the rules engine from a preset deal, so the measured loop is SubmitMove
alone (every move is still validated by the server). Ping runs with the same number of
concurrent callers. Prints throughput, the ratio, and SubmitMove latency median / p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import cards_pb2  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.engine.moves import Move  # noqa: E402
from tarok_service.engine.variant import Variant, find_variant  # noqa: E402

Script = tuple[list[str], list[tuple[int, str]]]  # (deal order, [(seat, move id)])


def script(variant: Variant, players: int, rng: random.Random) -> Script:
    """A preset deal and a full hand of legal moves for it (random, passing often)."""
    rules = variant.make_rules(players)
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


def start_server(store: str) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, TAROK_SECRET="bench")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    command = [sys.executable, "-m", "tarok_client.cli", "serve", "--store", store]
    proc = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        raise SystemExit("server did not start")
    return proc, f"127.0.0.1:{found.group(1)}"


async def setup_table(
    stub: svc_grpc.TarokServiceAsyncStub, plan: Script, players: int
) -> list[str]:
    request = svc.CreateTableRequest(
        variant="slovenian", players=players, hands=1, preset_deals=[cards_pb2.Deal(cards=plan[0])]
    )
    table = (await stub.CreateTable(request)).table_id
    return [
        (await stub.JoinTable(svc.JoinTableRequest(table_id=table))).token for _ in range(players)
    ]


async def play(
    stub: svc_grpc.TarokServiceAsyncStub, tokens: list[str], plan: Script, latencies: list[float]
) -> None:
    for seat, move_id in plan[1]:
        started = time.perf_counter()
        await stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move_id))
        latencies.append(time.perf_counter() - started)


async def pings(stub: svc_grpc.TarokServiceAsyncStub, count: int, latencies: list[float]) -> None:
    request = svc.PingRequest(payload=b"x" * 64)
    for _ in range(count):
        started = time.perf_counter()
        await stub.Ping(request)
        latencies.append(time.perf_counter() - started)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0.0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    target: str, pid: int, tables: int, rounds: int, players: int
) -> dict[str, float]:
    variant, rng = find_variant("slovenian"), random.Random(1)
    async with grpc.aio.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        await pings(stub, 200, [])  # warm up
        move_lat: list[float] = []
        move_time, move_cpu = 0.0, 0.0
        for _ in range(rounds):
            plans = [script(variant, players, rng) for _ in range(tables)]
            seats = [await setup_table(stub, p, players) for p in plans]
            started, cpu = time.perf_counter(), cpu_seconds(pid)
            await asyncio.gather(
                *(play(stub, s, p, move_lat) for s, p in zip(seats, plans, strict=True))
            )
            move_time += time.perf_counter() - started
            move_cpu += cpu_seconds(pid) - cpu
        ping_lat: list[float] = []
        per_caller = max(1, len(move_lat) // tables)
        started, cpu = time.perf_counter(), cpu_seconds(pid)
        await asyncio.gather(*(pings(stub, per_caller, ping_lat) for _ in range(tables)))
        ping_time = time.perf_counter() - started
        ping_cpu = cpu_seconds(pid) - cpu
    return {
        "moves": len(move_lat),
        "move_rps": len(move_lat) / move_time,
        "ping_rps": len(ping_lat) / ping_time,
        "move_p50_ms": 1000 * statistics.median(move_lat),
        "move_p99_ms": 1000 * statistics.quantiles(move_lat, n=100)[98],
        "ping_p50_ms": 1000 * statistics.median(ping_lat),
        "move_cpu_us": 1e6 * move_cpu / len(move_lat),
        "ping_cpu_us": 1e6 * ping_cpu / len(ping_lat),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None, help="store URL (default: a temp SQLite file)")
    parser.add_argument(
        "--concurrency",
        type=int,
        nargs="+",
        default=[1, 8],
        help="concurrent tables (and ping callers)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="tables per caller")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or f"sqlite:///{tmp}/bench.db"
        proc, target = start_server(store)
        try:
            print(f"store {store.split('@')[-1]}")
            for concurrency in args.concurrency:
                r = asyncio.run(measure(target, proc.pid, concurrency, args.rounds, args.players))
                print(
                    f"concurrency {concurrency:>2}: {r['moves']:.0f} moves; SubmitMove "
                    f"{r['move_rps']:.0f}/s vs Ping {r['ping_rps']:.0f}/s -> ratio "
                    f"{r['move_rps'] / r['ping_rps']:.2f}; SubmitMove latency median "
                    f"{r['move_p50_ms']:.2f} ms, p99 {r['move_p99_ms']:.2f} ms "
                    f"(Ping median {r['ping_p50_ms']:.2f} ms); server CPU per call "
                    f"SubmitMove {r['move_cpu_us']:.0f} us, Ping {r['ping_cpu_us']:.0f} us"
                )
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
