"""The per-call cost of the interceptor (fields, metrics) and the access log, on its own timer.

    .venv/bin/python bench/overhead.py [--calls 20000]

Runs the interceptor's wrapper (`observe.observed`) around a SubmitMove handler that does
nothing, in-process with a fake ServicerContext, JSON logs written to /dev/null, and
subtracts the same number of direct handler calls. Reports the median over repetitions of
- "on the event loop": CPU time per call added on the loop's own thread (what delays calls;
  thread CPU time, so other processes on a shared machine do not inflate it);
- "total CPU": process CPU per call including any background log writer, measured after
  the log queue has drained (what costs throughput on a busy machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import moves_pb2, views_pb2  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402

from tarok_service.server.config import ServerConfig  # noqa: E402
from tarok_service.server.ops.logconf import configure_logging  # noqa: E402
from tarok_service.server.transport import observe  # noqa: E402
from tarok_service.server.usecases.context import Context  # noqa: E402
from tarok_service.store import open_store  # noqa: E402

METHOD = "/tarok.v1.TarokService/SubmitMove"


class FakeContext:
    """The parts of grpc.aio.ServicerContext the interceptor reads."""

    def code(self) -> None:
        return None

    def trailing_metadata(self) -> tuple[()]:
        return ()

    def invocation_metadata(self) -> tuple[()]:
        return ()


def drain() -> None:
    """Wait for a background access-log writer, if the server has one."""
    flush = getattr(observe, "flush_access_log", None)
    if flush is not None:
        flush()


async def measure(calls: int) -> tuple[float, float]:
    ctx = Context(open_store("memory:"), ServerConfig(secret=b"bench"))
    token, _ = ctx.tokens.issue("table-1", 2, ctx.clock())
    reply = svc.SubmitMoveResponse(
        version=42,
        move=moves_pb2.LegalMove(id="play:T21", label="Play T21", kind="play", value="T21"),
        status=views_pb2.TABLE_STATUS_PLAYING,
        turn=3,
    )

    async def handler(request: Any, context: Any) -> svc.SubmitMoveResponse:
        return reply

    wrapped = observe.observed(grpc.unary_unary_rpc_method_handler(handler), METHOD, ctx)
    behaviour: Any = wrapped.unary_unary
    requests = [
        svc.SubmitMoveRequest(token=token, move_id="play:T21", request_id=uuid.uuid4().hex)
        for _ in range(calls)
    ]
    context = FakeContext()
    for request in requests[:500]:  # warm up
        await behaviour(request, context)
    drain()

    cpu, own = time.process_time(), time.thread_time()
    for request in requests:
        await handler(request, context)
    base_own, base_cpu = time.thread_time() - own, time.process_time() - cpu

    cpu, own = time.process_time(), time.thread_time()
    for request in requests:
        await behaviour(request, context)
    loop_own = time.thread_time() - own
    drain()
    total_cpu = time.process_time() - cpu
    return 1e6 * (loop_own - base_own) / calls, 1e6 * (total_cpu - base_cpu) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--json", default=None, help="write the summary here ('-': stdout)")
    args = parser.parse_args()
    with open(os.devnull, "w") as sink:
        configure_logging("json", stream=sink)
        runs = [asyncio.run(measure(args.calls)) for _ in range(args.repetitions)]
    on_loop = statistics.median(r[0] for r in runs)
    total = statistics.median(r[1] for r in runs)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    print(f"interceptor + access log per SubmitMove call: {on_loop:.1f} us on the event loop, "
          f"{total:.1f} us CPU in all (median of {args.repetitions} x {args.calls} calls; "
          f"load {' '.join(load)})")  # fmt: skip
    summary = {
        "benchmark": "overhead",
        "on_loop_us": on_loop,
        "total_cpu_us": total,
        "calls": args.calls,
        "repetitions": args.repetitions,
        "load": " ".join(load),
    }
    if args.json == "-":
        json.dump(summary, sys.stdout, indent=2)
    elif args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
