"""A bare grpc.aio echo server: the floor SubmitMove is compared against in bench/service.py.

It serves TarokService.Ping with no interceptor, no logging, no metrics and no store, and
answers every call with a payload of `--reply-bytes` bytes (bench/service.py passes the
size of a real SubmitMoveResponse). Prints `listening on 127.0.0.1:PORT` once ready.

The service is registered as a generic handler only (`server/generic.py`), as the tarok
server registers its own: grpc.aio waits on one pending request per *registered* method for
every call it accepts, so the generated `add_*Servicer_to_server` (which also registers the
methods) would make the floor dearer. `--registered` serves it that way instead.

    .venv/bin/python bench/echo_server.py --port 0 --reply-bytes 40
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.server.generic import generic_only  # noqa: E402


class Echo(svc_grpc.TarokServiceServicer):
    """Ping only; every other method is the generated UNIMPLEMENTED."""

    def __init__(self, reply_bytes: int) -> None:
        self.reply = svc.PingResponse(payload=b"x" * reply_bytes)

    async def Ping(self, request: svc.PingRequest, context: Any) -> svc.PingResponse:
        return self.reply


async def serve(port: int, reply_bytes: int, registered: bool) -> None:
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    echo = Echo(reply_bytes)  # type: ignore[abstract]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reply-bytes", type=int, default=40)
    parser.add_argument(
        "--registered", action="store_true", help="register the methods, as generated code does"
    )
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.reply_bytes, args.registered))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
