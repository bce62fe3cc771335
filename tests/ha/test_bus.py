"""The cross-node bus on a NATS cluster of three: replicas wake each other's watchers over
it, and stopping NATS nodes during play costs no watcher an event (the store is the truth:
a replica that reconnects re-reads its tables' versions)."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.store._natsbus import NatsBus
from tarok_service.store._wakeup import TableSignals
from tarok_service.store.postgres import PostgresEventStore

from ..service.harness import FINISHED, ServerThread, config, new_table, step, view
from .natscluster import NatsCluster, nats_server
from .procs import Proc, free_port

WATCHERS = 6


@pytest.fixture
def nats_cluster(tmp_path: Path) -> Iterator[NatsCluster]:
    if nats_server() is None:
        if os.environ.get("CI"):
            pytest.fail("nats-server is not installed (.ci/run installs it)")
        pytest.skip("nats-server is not installed")
    cluster = NatsCluster(tmp_path)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def _watch(stub: object, token: str, seen: list[int], done: threading.Event) -> None:
    call = stub.WatchTable(svc.WatchTableRequest(token=token), timeout=120)  # type: ignore[attr-defined]
    try:
        for item in call:
            if item.WhichOneof("item") == "event":
                seen.append(item.event.version)
    except grpc.RpcError as exc:
        seen.append(-int(exc.code().value[0]))
    finally:
        done.set()


def _linked_node(cluster: NatsCluster, stores: list[PostgresEventStore]) -> int:
    """A running node that a replica's bus is connected to now (the hosts of a multi-host
    address are tried in random order, so which one is not known in advance); stopping it
    cuts that replica's link. With no link up, the first running node."""
    running = [i for i, proc in enumerate(cluster.procs) if proc is not None]
    for store in stores:
        nc = store._bus._nc if store._bus is not None else None
        url = nc.connected_url if nc is not None and nc.is_connected else None
        port = url.port if url is not None else None
        if port in cluster.ports and cluster.ports.index(port) in running:
            return cluster.ports.index(port)
    return running[0]


def test_watchers_on_another_replica_miss_nothing_when_nats_nodes_stop(
    postgres_dsn: str, nats_cluster: NatsCluster
) -> None:
    stores = [PostgresEventStore(postgres_dsn, bus_url=nats_cluster.url) for _ in range(2)]
    players, watching = (ServerThread(config(store_url=postgres_dsn), s) for s in stores)
    try:
        _, tokens = new_table(players.stub)
        seen: list[list[int]] = [[] for _ in range(WATCHERS)]
        done = [threading.Event() for _ in range(WATCHERS)]
        for i in range(WATCHERS):
            args = (watching.stub, tokens[i % len(tokens)], seen[i], done[i])
            threading.Thread(target=_watch, args=args, daemon=True).start()
        rng, moves, started = random.Random(11), 0, time.monotonic()
        while step(players.stub, tokens, rng) is not None:
            moves += 1
            if moves in (10, 30):  # two of the three NATS nodes stop during play, each one
                nats_cluster.stop_node(_linked_node(nats_cluster, stores))  # a link in use
        final = view(players.stub, tokens[0])
        assert final.status == FINISHED
        for event in done:
            assert event.wait(60), "a watcher's stream did not end with the table"
        for versions in seen:
            assert versions == list(range(1, final.version + 1))
        reconnects = sum(s._bus.reconnects for s in stores if s._bus is not None)
        assert reconnects >= 1  # a replica's link was cut and came back
        assert time.monotonic() - started < 90
    finally:
        watching.stop()
        players.stop()


def test_a_bus_that_is_down_at_start_is_joined_later(tmp_path: Path) -> None:
    """The server starts without NATS (waiters recheck the store) and uses the bus as soon
    as a server answers; the tables watched meanwhile are subscribed then."""
    if nats_server() is None:
        pytest.skip("nats-server is not installed")
    port = free_port()
    url = f"nats://127.0.0.1:{port}"

    async def body() -> None:
        heard, told = TableSignals(), TableSignals()
        late, teller = NatsBus(url, heard, timeout=0.5), NatsBus(url, told, timeout=0.5)
        await late.open()  # nothing listens: returns, connects in the background
        assert late.subscribed() == 0
        await late.watch("t-1")
        server = Proc("nats", [str(nats_server()), "-a", "127.0.0.1", "-p", str(port)],
                      tmp_path / "nats.log")  # fmt: skip
        try:
            async with asyncio.timeout(60):
                while late.subscribed() == 0:
                    await asyncio.sleep(0.05)  # polls the bus's own state, bounded
                await teller.open()
                with heard.subscribe("t-1") as waiter:
                    await teller.publish("t-1", 7)
                    await waiter.event.wait()
                assert waiter.seen == 7
        finally:
            late.unwatch("t-1")
            await teller.close()
            await late.close()
            server.stop()

    asyncio.run(body())
