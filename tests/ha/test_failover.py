"""The failover test (`make test-ha`): three PostgreSQL nodes under Patroni with synchronous
replication, a NATS cluster of three, three `tarok serve` replicas; bots play tables and
watchers follow them on other replicas while, one after the other:

1. the primary is killed (kill -9 of its Patroni and PostgreSQL), then brought back;
2. the primary is frozen (SIGSTOP, as a partition or a stalled disk looks), then thawed;
3. a NATS node is stopped;
4. a replica is killed.

It prints, and checks: acknowledged moves lost (0), tables that did not finish (0),
watcher events missed (0), and the write-unavailability window of rounds 1 and 2, from the
last acknowledged move before the fault to the first acknowledged move sent after it.
Runs only with TAROK_HA=1 (`make test-ha` sets it): it takes a few minutes.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from .load import Load
from .natscluster import NatsCluster, nats_server
from .pgcluster import PatroniCluster, tools_missing
from .procs import Proc, accepts, free_port, wait_until

SLOTS = 20  # tables in play at once (a slot starts a new table when its table finishes)
WATCHERS_PER_TABLE = 5  # 100 watchers in all
WINDOW_TARGET = 15.0  # seconds of write unavailability allowed for a kill and a freeze
SECRET = b"ha-test-secret-ha-test-secret-32"

pytestmark = pytest.mark.skipif(
    os.environ.get("TAROK_HA") != "1", reason="the failover test runs with TAROK_HA=1"
)


@pytest.fixture
def pg() -> Iterator[PatroniCluster]:
    missing = tools_missing() or (None if nats_server() else "nats-server is not installed")
    if missing:
        pytest.fail(missing)
    cluster = PatroniCluster()
    try:
        cluster.start()
        yield cluster
    except BaseException:
        for node in cluster.nodes:
            if node is not None:
                print(f"--- {node.name} log ---\n{node.tail()}")
        raise
    finally:
        cluster.stop()
        cluster.remove()


@pytest.fixture
def nats(tmp_path: Path) -> Iterator[NatsCluster]:
    cluster = NatsCluster(tmp_path)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def _replica(i: int, pg: PatroniCluster, nats: NatsCluster, logs: Path) -> tuple[Proc, int]:
    port = free_port()
    argv = [
        str(Path(sys.executable).parent / "tarok"), "serve",
        "--store", pg.dsn, "--nats", nats.url,
        "--host", "127.0.0.1", "--port", str(port),
        "--secret", SECRET.decode(), "--store-timeout", "2", "--heartbeat", "2",
        "--max-watchers-per-principal", "1000", "--log-format", "json",
        "--workers", "1",  # one process per replica: the replicas are what this test kills
    ]  # fmt: skip
    return Proc(f"tarok-{i}", argv, logs / f"tarok-{i}.log"), port


def _window(load: Load, fault: float) -> float:
    """From the last acknowledged move before `fault` to the first acknowledged move
    committed after it: the first whose answered attempt was sent after the fault (a
    response in flight at the fault does not count as writes working again)."""
    before = max(a.acked for a in load.acks if a.acked <= fault)
    after = min(a.acked for a in load.acks if a.sent > fault)
    return after - before


def _lost(dsn: str, load: Load) -> int:
    """Acknowledged moves whose request id is not in the store at or before the version
    the answer gave (a move that ends a hand is followed by the hand's own events)."""
    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as db:
        rows = db.execute(
            "SELECT table_id, request_id, seq FROM events WHERE table_id = ANY(%s)",
            (load.tables,),
        ).fetchall()
    stored = {(t, r): int(s) for t, r, s in rows}
    return sum(
        1 for a in load.acks if not 0 < stored.get((a.table_id, a.request_id), 0) <= a.version
    )


def _finals(dsn: str, load: Load) -> dict[str, int]:
    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as db:
        rows = db.execute(
            "SELECT table_id, MAX(seq) FROM events WHERE table_id = ANY(%s) GROUP BY table_id",
            (load.tables,),
        ).fetchall()
    return {t: int(v) for t, v in rows}


def test_failover(pg: PatroniCluster, nats: NatsCluster, tmp_path: Path) -> None:
    started = time.monotonic()
    replicas = [_replica(i, pg, nats, tmp_path) for i in range(3)]
    try:
        for proc, port in replicas:
            wait_until(functools.partial(accepts, port), f"{proc.name} port", 60)
        results = asyncio.run(_scenario(pg, nats, replicas))
    except BaseException:
        for proc, _ in replicas:
            print(f"--- {proc.name} log ---\n{proc.tail(5)}")
        print(f"--- Patroni members ---\n{pg.members()}")
        for i in range(pg.size):
            print(f"--- pg{i} log ---\n{pg.log_tail(i)}")
        raise
    finally:
        for proc, _ in replicas:
            proc.stop()
    results["total seconds"] = round(time.monotonic() - started, 1)
    print("\nfailover test:")
    for key, value in results.items():
        print(f"  {key}: {value}")
    assert results["acknowledged moves lost"] == 0
    assert results["tables not finished"] == 0
    assert results["watcher events missed"] == 0
    assert results["unavailable after kill (s)"] <= WINDOW_TARGET
    assert results["unavailable after freeze (s)"] <= WINDOW_TARGET


async def _promoted(pg: PatroniCluster, old: int) -> float:
    """Seconds until another node than `old` is the running primary."""
    return await asyncio.to_thread(
        wait_until, lambda: pg.leader() not in (None, old), "a new primary", 120
    )


async def _scenario(
    pg: PatroniCluster, nats: NatsCluster, replicas: list[tuple[Proc, int]]
) -> dict[str, float]:
    load = Load([f"127.0.0.1:{p}" for _, p in replicas], SECRET, WATCHERS_PER_TABLE)
    out: dict[str, float] = {}
    try:
        load.start(SLOTS)
        await load.acks_after(300)

        # 1. kill -9 the primary under load, then bring the node back as a replica.
        victim = pg.leader()
        assert victim is not None
        fault = time.monotonic()
        pg.kill_node(victim)
        out["kill: new primary after (s)"] = round(await _promoted(pg, victim), 1)
        await load.acks_after(200)
        out["unavailable after kill (s)"] = round(_window(load, fault), 2)
        pg.start_node(victim)
        out["kill: cluster whole again after (s)"] = round(
            await asyncio.to_thread(pg.wait_healthy, 180), 1
        )
        await load.acks_after(200)

        # 2. freeze the primary (every process of the node), thaw it once writes go on.
        victim = pg.leader()
        assert victim is not None
        fault = time.monotonic()
        pg.freeze_node(victim, True)
        try:
            out["freeze: new primary after (s)"] = round(await _promoted(pg, victim), 1)
            await load.acks_after(200)
        finally:
            pg.freeze_node(victim, False)
        out["unavailable after freeze (s)"] = round(_window(load, fault), 2)
        out["freeze: cluster whole again after (s)"] = round(
            await asyncio.to_thread(pg.wait_healthy, 180), 1
        )
        await load.acks_after(200)

        # 3. stop a NATS node; 4. kill a replica.
        nats.stop_node(0)
        await load.acks_after(200)
        load.dead.add(2)
        replicas[2][0].signal_group(signal.SIGKILL)
        await load.acks_after(200)

        await load.drain(180)
        dsn = pg.dsn
        finals = await asyncio.to_thread(_finals, dsn, load)
        missed = 0
        for watch in load.watches:
            gaps = set(range(1, finals[watch.table_id] + 1)) - set(watch.versions)
            if gaps and missed < 20:  # what went wrong, for the log
                print(f"watcher of {watch.table_id} missed {sorted(gaps)[:10]} (of {len(gaps)})"
                      f" after {watch.resumed} resumes, ended={watch.ended}")  # fmt: skip
            missed += len(gaps)
        out.update(
            {
                "tables played": len(load.tables),
                "watchers": len(load.watches),
                "acknowledged moves": len(load.acks),
                "acknowledged moves lost": await asyncio.to_thread(_lost, dsn, load),
                "tables not finished": len(set(load.tables) - load.finished),
                "watcher events missed": missed,
                "watch streams resumed": sum(w.resumed for w in load.watches),
                "call attempts retried": load.retries,
                "moves refused after a retry": load.refused,
            }
        )
        return out
    finally:
        await load.close()
