"""Latency of the same calls over native gRPC and over the HTTP port's protocols.

    .venv/bin/python bench/http_transports.py [--calls 500]

Starts `tarok serve --http-port 0` (in-memory store) and, one call at a time, measures
Ping and GetTableView over gRPC (main port), Connect JSON, Connect binary and gRPC-Web
(HTTP port, the Connect project's Python client). Prints median and p99 per transport.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from connectrpc.client import ConnectClientSync  # noqa: E402
from connectrpc.protocol import ProtocolType  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.server.transport.http.bridge import method_info  # noqa: E402

PING = "/tarok.v1.TarokService/Ping"
VIEW = "/tarok.v1.TarokService/GetTableView"


def _start() -> tuple[subprocess.Popen[str], int, int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tarok_client.cli", "serve", "--store", "sqlite:///:memory:",
         "--port", "0", "--http-port", "0", "--http-host", "127.0.0.1", "--secret", "bench"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None
    ports: list[int] = []
    for line in process.stdout:
        found = re.search(r":(\d+)\b", line)
        if found and ("listening on" in line or "HTTP" in line):
            ports.append(int(found.group(1)))
        if len(ports) == 2:
            return process, ports[0], ports[1]
    raise SystemExit("the server did not start")


def _measure(call: Callable[[], Any], calls: int) -> tuple[float, float]:
    for _ in range(20):
        call()
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99) - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    process, grpc_port, http_port = _start()
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
        stub = svc_grpc.TarokServiceStub(channel)
        table = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)).table_id
        token = ""
        for i in range(4):
            token = stub.JoinTable(svc.JoinTableRequest(table_id=table, name=f"p{i}")).token
        ping, view = svc.PingRequest(payload=b"x" * 16), svc.GetTableViewRequest(token=token)
        rows: dict[str, dict[str, Callable[[], Any]]] = {
            "gRPC (main port)": {
                PING: lambda: stub.Ping(ping),
                VIEW: lambda: stub.GetTableView(view),
            }
        }
        base = f"http://127.0.0.1:{http_port}"
        for name, protocol, json in (
            ("Connect JSON", ProtocolType.CONNECT, True),
            ("Connect binary", ProtocolType.CONNECT, False),
            ("gRPC-Web", ProtocolType.GRPC_WEB, False),
        ):
            client = ConnectClientSync(
                base, protocol=protocol, proto_json=json, send_compression=None
            )

            def over(path: str, request: Any, client: ConnectClientSync = client) -> Any:
                info = method_info(path)
                return lambda: client.execute_unary(request=request, method=info)

            rows[name] = {PING: over(PING, ping), VIEW: over(VIEW, view)}
        print(f"{'transport':<18} {'Ping median/p99 ms':>20} {'GetTableView median/p99 ms':>28}")
        for name, calls in rows.items():
            p = _measure(calls[PING], args.calls)
            v = _measure(calls[VIEW], args.calls)
            print(f"{name:<18} {p[0]:>9.2f} / {p[1]:>7.2f} {v[0]:>15.2f} / {v[1]:>8.2f}")
        channel.close()
    finally:
        process.terminate()
        process.wait(30)


if __name__ == "__main__":
    main()
