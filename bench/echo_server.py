"""A bare grpc.aio echo server: the floor SubmitMove is compared against in bench/service.py.

It serves TarokService.Ping with no interceptor, no logging, no metrics and no store, and
answers every call with a payload of `--reply-bytes` bytes (bench/service.py passes the
size of a real SubmitMoveResponse). Prints `listening on 127.0.0.1:PORT` once ready.

The service is registered as a generic handler only (`server/transport/generic.py`), as the tarok
server registers its own: grpc.aio waits on one pending request per *registered* method for
every call it accepts, so the generated `add_*Servicer_to_server` (which also registers the
methods) would make the floor dearer. `--registered` serves it that way instead.

With `--store URL` it is the *durable* echo: every Ping also appends one event (the
request's payload) to the event store at that URL through the server's own store class
(`open_store`, with `--sqlite-sync`), and answers after the append is committed - grpc.aio
plus the one durable write a move needs, and nothing else (no token, rules, fold, log or
metrics). bench/service.py measures SubmitMove against it too: the part of a move's cost
that is neither the transport nor the durable write.

    .venv/bin/python bench/echo_server.py --port 0 --reply-bytes 40
    .venv/bin/python bench/echo_server.py --port 0 --store sqlite:///floor.db --sqlite-sync full
    .venv/bin/python bench/echo_server.py --port 0 --plain-sqlite plain.db --sqlite-sync full

With `--plain-sqlite PATH` it is the *independent* durable echo, which uses nothing of ours
below grpc.aio: one thread owns a plain `sqlite3` connection (WAL journal, `synchronous`
from `--sqlite-sync`) and writes every Ping's payload as one row; the rows that arrive while
it commits go into its next transaction (group commit), and each call is answered once the
commit holding its row has returned. It is the floor of any server that stores a move before
answering, measured without our store class.
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import signal
import sqlite3
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.server.transport.generic import generic_only  # noqa: E402
from tarok_service.store import EventStore, NewEvent, open_store  # noqa: E402

TABLES = 256  # appends rotate over this many tables: far more than calls in flight


class Echo(svc_grpc.TarokServiceServicer):
    """Ping only; every other method is the generated UNIMPLEMENTED."""

    def __init__(self, reply_bytes: int) -> None:
        self.reply = svc.PingResponse(payload=b"x" * reply_bytes)

    async def Ping(self, request: svc.PingRequest, context: Any) -> svc.PingResponse:
        return self.reply


class DurableEcho(Echo):
    """Ping that appends the request's payload as one event before it answers."""

    def __init__(self, reply_bytes: int, store: EventStore) -> None:
        super().__init__(reply_bytes)
        self.store = store
        run = uuid.uuid4().hex[:12]
        self.tables = [f"floor-{run}-{i}" for i in range(TABLES)]
        self.versions = [0] * TABLES
        self.calls = 0

    async def Ping(self, request: svc.PingRequest, context: Any) -> svc.PingResponse:
        slot = self.calls % TABLES
        self.calls += 1
        version = self.versions[slot]
        self.versions[slot] = version + 1
        event = NewEvent("Ping", request.payload, uuid.uuid4().hex)
        await self.store.append(self.tables[slot], version, [event], time.time())
        return self.reply


Waiting = tuple[bytes, asyncio.Future[None]]


class PlainDurableEcho(Echo):
    """Ping that has a plain sqlite3 writer thread commit its payload as one row (group
    commit: every row waiting when a transaction starts goes into it) before it answers."""

    def __init__(self, reply_bytes: int, path: str, sync: str) -> None:
        super().__init__(reply_bytes)
        self.path, self.sync = path, sync
        self.waiting: queue.SimpleQueue[Waiting | None] = queue.SimpleQueue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._write, name="plain-sqlite", daemon=True)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread.start()

    def stop(self) -> None:
        self.waiting.put(None)
        self.thread.join()

    async def Ping(self, request: svc.PingRequest, context: Any) -> svc.PingResponse:
        assert self.loop is not None
        done: asyncio.Future[None] = self.loop.create_future()
        self.waiting.put((request.payload, done))
        await done
        return self.reply

    def _write(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.sync.upper()}")
        conn.execute("CREATE TABLE IF NOT EXISTS pings (id INTEGER PRIMARY KEY, payload BLOB)")
        try:
            while True:
                first = self.waiting.get()
                if first is None:
                    return
                batch = [first]
                while not self.waiting.empty():
                    more = self.waiting.get()
                    if more is None:
                        self.waiting.put(None)  # stop after this batch
                        break
                    batch.append(more)
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT INTO pings (payload) VALUES (?)", [(p,) for p, _ in batch])
                conn.execute("COMMIT")
                assert self.loop is not None
                self.loop.call_soon_threadsafe(_answer, [done for _, done in batch])
        finally:
            conn.close()


def _answer(waiting: list[asyncio.Future[None]]) -> None:
    for done in waiting:
        if not done.done():
            done.set_result(None)


async def serve(
    port: int,
    reply_bytes: int,
    registered: bool,
    store_url: str | None,
    sync: str,
    plain_sqlite: str | None = None,
) -> None:
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    store = None if store_url is None else open_store(store_url, sync)
    if store is not None:
        await store.open()
    plain = None
    echo: Echo
    if plain_sqlite is not None:
        echo = plain = PlainDurableEcho(reply_bytes, plain_sqlite, sync)
        plain.start(asyncio.get_running_loop())
    elif store is not None:
        echo = DurableEcho(reply_bytes, store)
    else:
        echo = Echo(reply_bytes)
    target = server if registered else generic_only(server)
    svc_grpc.add_TarokServiceServicer_to_server(echo, target)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"listening on 127.0.0.1:{bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)
    if store is not None:
        await store.close()
    if plain is not None:
        plain.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reply-bytes", type=int, default=40)
    parser.add_argument(
        "--registered", action="store_true", help="register the methods, as generated code does"
    )
    parser.add_argument("--store", default=None, help="durable echo: append each call here")
    parser.add_argument(
        "--plain-sqlite",
        default=None,
        metavar="PATH",
        help="independent durable echo: commit each call to this SQLite file with plain sqlite3",
    )
    parser.add_argument("--sqlite-sync", choices=("full", "normal"), default="full")
    args = parser.parse_args()
    if args.store and args.plain_sqlite:
        parser.error("--store and --plain-sqlite are two different floors: give one")
    asyncio.run(
        serve(
            args.port,
            args.reply_bytes,
            args.registered,
            args.store,
            args.sqlite_sync,
            args.plain_sqlite,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
