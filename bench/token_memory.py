"""Server memory under a flood of padded and malformed tokens (Linux: reads /proc).

    .venv/bin/python bench/token_memory.py [--count 1000] [--pad 900000]

Starts a `tarok serve` subprocess, takes a valid spectator token, then sends `--count`
GetTableView calls whose token is that token padded with `--pad` junk characters (or
otherwise malformed: "==", a character changed, junk in the signature). Prints the server's
resident memory (VmRSS) before and after, after a short warm-up so that the transport's own
buffers are already allocated. Every call must be refused with BAD_TOKEN.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from serverproc import rss_kib, start_server  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402


def hostile(token: str, i: int, pad: int) -> str:
    body, sig = token.split(".")
    kinds = [
        token + "=" * (i % 3 + 1),
        token + "A" * (pad - i),
        body + "." + sig[:5] + "!" * (i % 50 + 1) + sig[5:],
        token + "%" * (pad // 2 + i),
        token[:-1] + chr(ord("A") + i % 26),
    ]
    return kinds[i % len(kinds)]


def flood(stub: svc_grpc.TarokServiceStub, token: str, count: int, pad: int) -> int:
    refused = 0
    for i in range(count):
        try:
            stub.GetTableView(svc.GetTableViewRequest(token=hostile(token, i, pad)), timeout=30)
        except grpc.RpcError as error:
            assert isinstance(error, grpc.Call)
            refused += error.code() == grpc.StatusCode.UNAUTHENTICATED
    return refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--pad", type=int, default=900_000)
    parser.add_argument("--warmup", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, target = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}")
        try:
            options = [("grpc.max_send_message_length", 4 << 20)]
            with grpc.insecure_channel(target, options=options) as channel:
                stub = svc_grpc.TarokServiceStub(channel)
                table = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
                join = svc.JoinTableRequest(table_id=table.table_id, spectator=True)
                token = stub.JoinTable(join).token
                flood(stub, token, args.warmup, args.pad)  # warm-up: transport buffers, arenas
                time.sleep(1)
                before = rss_kib(proc.pid)
                started = time.perf_counter()
                refused = flood(stub, token, args.count, args.pad)
                elapsed = time.perf_counter() - started
                time.sleep(1)
                after = rss_kib(proc.pid)
                stub.GetTableView(svc.GetTableViewRequest(token=token))  # still serving
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"{args.count} hostile tokens (pad {args.pad}) in {elapsed:.1f} s: {refused} refused")
    print(f"server RSS {before / 1024:.1f} MiB -> {after / 1024:.1f} MiB: "
          f"grew {(after - before) / 1024:.2f} MiB")


if __name__ == "__main__":
    main()
