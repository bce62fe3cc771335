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
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
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


async def serve(
    port: int, reply_bytes: int, registered: bool, store_url: str | None, sync: str
) -> None:
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    store = None if store_url is None else open_store(store_url, sync)
    if store is not None:
        await store.open()
    echo = Echo(reply_bytes) if store is None else DurableEcho(reply_bytes, store)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reply-bytes", type=int, default=40)
    parser.add_argument(
        "--registered", action="store_true", help="register the methods, as generated code does"
    )
    parser.add_argument("--store", default=None, help="durable echo: append each call here")
    parser.add_argument("--sqlite-sync", choices=("full", "normal"), default="full")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.reply_bytes, args.registered, args.store, args.sqlite_sync))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
