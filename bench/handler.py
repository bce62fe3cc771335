"""SubmitMove's whole handler in process, without gRPC: what a move costs beyond the transport.

    .venv/bin/python bench/handler.py                       # SQLite file, sync "normal"
    .venv/bin/python bench/handler.py --store sqlite:///:memory: --tables 100

Builds the server's app (`TarokApp`) on a store, creates `--tables` Slovenian tables with
preset deals and joins four players to each, then calls SubmitMove for every move of every
table's hand the way grpc.aio would: through the call hook (metrics, log context, access
log) and the servicer's error mapping, with a stand-in call context. Tokens are verified,
every move is validated by the rules engine, folded, appended and answered, and the access
line is written (to a JSON log on stderr, which the script discards). Reports the process's
CPU per move (the log writer thread included), and wall-clock p50 / p99 per call; table
setup is not counted. `bench/service.py` measures the same moves over gRPC beside a bare and
a durable echo: the difference between a move and the durable echo is about this handler.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

import grpc  # noqa: E402
from overhead import METHOD, FakeContext  # noqa: E402
from service import script  # noqa: E402
from tarok_proto.tarok.v1 import cards_pb2  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402

from tarok_service.server.config import ServerConfig  # noqa: E402
from tarok_service.server.main import configure_logging  # noqa: E402
from tarok_service.server.transport.interceptors import CallHook  # noqa: E402
from tarok_service.server.transport.servicer import TarokServicer  # noqa: E402
from tarok_service.server.usecases.app import TarokApp  # noqa: E402
from tarok_service.store import open_store  # noqa: E402
from tarok_service.variants.registry import find_variant  # noqa: E402


async def measure(url: str, sync: str, tables: int, seed: int) -> dict[str, float]:
    store = open_store(url, sync)
    await store.open()
    try:
        app = TarokApp(store, ServerConfig(store_url=url, secret=b"bench-handler-secret"))
        handler = grpc.unary_unary_rpc_method_handler(TarokServicer(app).SubmitMove)
        call = CallHook(app.ctx).wrapped(handler, METHOD).unary_unary
        assert call is not None
        rng, variant = random.Random(seed), find_variant("slovenian")
        requests = []
        for _ in range(tables):
            deal, moves = script(variant, rng)
            created = await app.create_table(
                svc.CreateTableRequest(
                    variant="slovenian", players=4, hands=1,
                    preset_deals=[cards_pb2.Deal(cards=deal)],
                )
            )  # fmt: skip
            join = svc.JoinTableRequest(table_id=created.table_id)
            tokens = [(await app.join_table(join)).token for _ in range(4)]
            requests += [
                svc.SubmitMoveRequest(token=tokens[s], move_id=m, request_id=uuid.uuid4().hex)
                for s, m in moves
            ]
        context: Any = FakeContext()
        latencies = []
        cpu = time.process_time()
        for request in requests:
            started = time.perf_counter()
            await call(request, context)
            latencies.append(time.perf_counter() - started)
        cpu = time.process_time() - cpu
    finally:
        await store.close()
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "moves": len(requests),
        "cpu_us": 1e6 * cpu / len(requests),
        "p50_us": 1e6 * statistics.median(latencies),
        "p99_us": 1e6 * cuts[98],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None, help="store URL (default: a temporary file)")
    parser.add_argument("--sqlite-sync", choices=("full", "normal"), default="normal")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # the access log goes to stderr: discarded
    configure_logging("json")
    runs = []
    for rep in range(args.repetitions):
        with tempfile.TemporaryDirectory() as tmp:
            url = args.store or f"sqlite:///{tmp}/handler.db"
            runs.append(asyncio.run(measure(url, args.sqlite_sync, args.tables, args.seed + rep)))
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(
        f"{args.store or 'sqlite file'} ({args.sqlite_sync}): {med['moves']:.0f} moves, "
        f"CPU {med['cpu_us']:.0f} us per move, p50 {med['p50_us']:.0f} us, "
        f"p99 {med['p99_us']:.0f} us (medians of {args.repetitions}; "
        f"load {os.getloadavg()[0]:.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
