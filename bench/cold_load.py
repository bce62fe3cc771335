"""Cold loads: the first move on a long table after a restart, and Ping latency meanwhile.

    .venv/bin/python bench/cold_load.py                     # SQLite file store
    .venv/bin/python bench/cold_load.py --store postgresql://postgres@127.0.0.1:5432/test

Tables of `--hands` played hands (Slovenian, 4 players) are written to the store the way the
server writes them (events and snapshots beside them), plus copies of their events without
snapshots (a table logged before snapshots existed). Then a fresh `tarok serve` subprocess is
started (a restart: nothing cached) and, per table, the first move is timed (cold) and then
several more moves of the same hand (warm). Then a client sends Pings one after another
while a restarted server cold-loads every table (from its snapshot; `--rounds` restarts),
and once more while it cold-loads the copies without snapshots (a full replay each); the
Ping latencies seen meanwhile are reported.

Targets: cold move <= 2x warm move (median); Ping p99 during cold loads < 20 ms. Each part
runs against its own freshly started server, so every table is cold in each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from serverproc import start_server  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.engine.moves import Move  # noqa: E402
from tarok_service.server.model import commands, events  # noqa: E402
from tarok_service.server.model.cache import TableCache  # noqa: E402
from tarok_service.server.model.fold import PLAYING, TableState, fold  # noqa: E402
from tarok_service.server.usecases.tokens import TokenSigner  # noqa: E402
from tarok_service.store import EventStore, NewEvent, open_store  # noqa: E402
from tarok_service.variants.registry import find_variant  # noqa: E402

SECRET = b"bench"  # start_server runs `tarok serve` with TAROK_SECRET=bench
WARM_MOVES = 8
T = TypeVar("T")


def choose(moves: list[Move], rng: random.Random) -> Move:
    passes = [m for m in moves if m.kind == "pass"]
    if passes and any(m.kind == "bid" for m in moves) and rng.random() < 0.7:
        return passes[0]
    return rng.choice(moves)


async def write_table(store: EventStore, hands: int, rng: random.Random) -> TableState:
    """A table with `hands` hands played and the next one under way (WARM_MOVES + 1 moves
    still to play in its trick play), written as the server writes it."""
    variant = find_variant("slovenian")
    cache = TableCache(store, 4)

    def shuffle(table: TableState) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        rng.shuffle(order)
        return order, False

    table_id = secrets.token_hex(8)
    created = commands.table_created(variant, 4, {}, hands + 10, [])
    table = fold(None, table_id, 1, created)
    await store.append(table_id, 0, events.encode([created]), time.time())
    batches = [commands.seat_player(table, 0, "p0", shuffle)]
    for seat in range(1, 4):
        batches.append(commands.seat_player(batches[-1].table, seat, f"p{seat}", shuffle))
    table = batches[-1].table
    while True:
        for batch in batches:
            before = batch.table.version - len(batch.payloads)
            await store.append(table_id, before, events.encode(batch.payloads), time.time())
            await cache.appended(before, batch.table)
        batches = []
        hand = table.hand
        assert table.status == PLAYING and hand is not None and hand.turn is not None
        if table.match.played >= hands and next_moves(table, WARM_MOVES + 1) is not None:
            return table
        move = choose(variant.legal_moves(hand), rng)
        after = variant.apply(hand, move, check=True)
        batches.append(commands.make_move(table, hand.turn, move, after, time.time(), shuffle))
        table = batches[-1].table


async def copy_without_snapshots(store: EventStore, table_id: str) -> str:
    copy = secrets.token_hex(8)
    old = [NewEvent(s.type, s.payload) for s in await store.read(table_id)]
    await store.append(copy, 0, old, time.time())
    return copy


async def prepare(url: str, tables: int, hands: int) -> list[tuple[TableState, str]]:
    store = open_store(url)
    await store.open()
    try:
        rng = random.Random(7)
        out = []
        for _ in range(tables):
            table = await write_table(store, hands, rng)
            out.append((table, await copy_without_snapshots(store, table.table_id)))
        return out
    finally:
        await store.close()


def next_moves(table: TableState, count: int) -> list[tuple[int, str]] | None:
    """The next `count` legal moves of the hand under way (seat, move id); None unless the
    hand goes on after them."""
    hand, rng, out = table.hand, random.Random(3), []
    for _ in range(count):
        if hand is None or hand.turn is None:
            return None
        move = rng.choice(table.variant.legal_moves(hand))
        out.append((hand.turn, move.id))
        hand = table.variant.apply(hand, move, check=True)
    return out if hand is not None and not hand.finished else None


async def timed_moves(
    stub: svc_grpc.TarokServiceAsyncStub, table_id: str, moves: list[tuple[int, str]]
) -> list[float]:
    signer, out = TokenSigner(SECRET, 3600), []
    tokens = {seat: signer.issue(table_id, seat, time.time())[0] for seat, _ in moves}
    for seat, move_id in moves:
        started = time.perf_counter()
        await stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move_id))
        out.append(time.perf_counter() - started)
    return out


async def ping_during(
    stub: svc_grpc.TarokServiceAsyncStub, work: asyncio.Task[object]
) -> list[float]:
    """Ping one call after another until `work` is done; the latencies."""
    request, out = svc.PingRequest(payload=b"x" * 64), []
    while not work.done():
        started = time.perf_counter()
        await stub.Ping(request)
        out.append(time.perf_counter() - started)
    await work
    return out


async def cold_views(stub: svc_grpc.TarokServiceAsyncStub, table_ids: list[str]) -> object:
    signer = TokenSigner(SECRET, 3600)
    for table_id in table_ids:
        token = signer.issue(table_id, None, time.time())[0]
        await stub.GetTableView(svc.GetTableViewRequest(token=token))
    return None


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def idle_pings(stub: svc_grpc.TarokServiceAsyncStub, count: int) -> list[float]:
    out = []
    for _ in range(count):
        started = time.perf_counter()
        await stub.Ping(svc.PingRequest(payload=b"x" * 64))
        out.append(time.perf_counter() - started)
    return out


async def moves_after_restart(
    target: str, prepared: list[tuple[TableState, str]]
) -> dict[str, float]:
    """Per table, the first move (cold) and WARM_MOVES more (warm)."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub: svc_grpc.TarokServiceAsyncStub = svc_grpc.TarokServiceStub(channel)
        idle = await idle_pings(stub, 300)  # warms the channel up too
        cold, warm = [], []
        for table, _ in prepared:
            moves = next_moves(table, WARM_MOVES + 1)
            assert moves is not None
            times = await timed_moves(stub, table.table_id, moves)
            cold.append(times[0])
            warm.extend(times[1:])
    return {
        "cold_move_ms": statistics.median(cold) * 1000,
        "warm_move_ms": statistics.median(warm) * 1000,
        "cold_over_warm": statistics.median(cold) / statistics.median(warm),
        "ping_p99_idle_ms": p99(idle) * 1000,
    }


@dataclass
class Loads:
    """Cold loads done while Pinging: how many, how long in all, the Ping latencies."""

    loads: int
    elapsed: float
    pings: list[float]

    def summary(self) -> dict[str, float]:
        return {
            "loads": self.loads,
            "load_ms_each": self.elapsed / self.loads * 1000,
            "pings": len(self.pings),
            "ping_p50_ms": statistics.median(self.pings) * 1000,
            "ping_p99_ms": p99(self.pings) * 1000,
        }


async def pings_during_loads(target: str, table_ids: list[str]) -> Loads:
    """Pings one after another while the (restarted) server cold-loads `table_ids`."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub: svc_grpc.TarokServiceAsyncStub = svc_grpc.TarokServiceStub(channel)
        await idle_pings(stub, 100)
        work = asyncio.ensure_future(cold_views(stub, table_ids))
        started = time.perf_counter()
        during = await ping_during(stub, work)
        return Loads(len(table_ids), time.perf_counter() - started, during)


def merged(rounds: list[Loads]) -> Loads:
    return Loads(
        sum(r.loads for r in rounds),
        sum(r.elapsed for r in rounds),
        [x for r in rounds for x in r.pings],
    )


def restarted(url: str, work: Callable[[str], Coroutine[Any, Any, T]]) -> T:
    """Run `work(target)` against a fresh server process (nothing cached)."""
    proc, target = start_server(url)
    try:
        return asyncio.run(work(target))
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="store URL (default: a temporary SQLite file)")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument(
        "--rounds", type=int, default=5, help="restarts for the Pings during snapshot loads"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.store or f"sqlite:///{tmp}/bench.db"
        prepared = asyncio.run(prepare(url, args.tables, args.hands))
        with_snapshots = [table.table_id for table, _ in prepared]
        without = [copy for _, copy in prepared]
        moves = restarted(url, lambda t: moves_after_restart(t, prepared))
        snap = merged(
            [
                restarted(url, lambda t: pings_during_loads(t, with_snapshots))
                for _ in range(args.rounds)
            ]
        ).summary()
        full = restarted(url, lambda t: pings_during_loads(t, without)).summary()
    result = {"moves": moves, "snapshot_loads": snap, "full_replays": full}
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{args.tables} tables of {args.hands} hands; first move after a restart "
        f"{moves['cold_move_ms']:.2f} ms vs warm move {moves['warm_move_ms']:.2f} ms "
        f"(median) -> {moves['cold_over_warm']:.2f}x (target <= 2x)"
    )
    for name, row in (("from snapshots", snap), ("full replays, no snapshot", full)):
        print(
            f"Ping p99 {row['ping_p99_ms']:.2f} ms (p50 {row['ping_p50_ms']:.2f} ms, "
            f"{row['pings']:.0f} pings) during {row['loads']:.0f} cold loads {name} "
            f"({row['load_ms_each']:.1f} ms each) (target < 20 ms)"
        )
    print(f"Ping p99 with nothing else going on: {moves['ping_p99_idle_ms']:.2f} ms")
    return 0

if __name__ == "__main__":
    sys.exit(main())
