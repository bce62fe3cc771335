"""A bounded soak: mixed load on both ports of one `tarok serve`, sampled over time, with a
drift check.

    .venv/bin/python bench/soak.py --minutes 30 --report docs/soak.md

The server runs in its own process (in-memory SQLite). Load, each stream paced so the total
stays bounded:

- gRPC: Ping, ListVariants, tables created and seated, views read, watch streams opened and
  closed again;
- HTTP: Connect JSON and gRPC-Web Pings, and hostile requests (malformed messages, gzip
  bombs, bodies over the limit, stalled bodies).

Every `--interval` seconds it records the server's resident memory and open file descriptors
(from /proc) and, for that interval, the p50/p99 of Ping on each port and the event-loop lag
(estimated from outside: a gRPC Ping's round trip less the fastest one seen, the time a
trivial call waited for the server's loop). The drift check compares the last third of the
run with the middle third (the first third is warm-up): memory may grow by at most
`--max-growth-mib`, descriptors by at most 16, the Ping p99 by at most 2x. The report is
printed as Markdown (and written to `--report`); the exit status is 1 when a check fails.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python")]

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tests.hardening.subprocess_server import ServerProcess  # noqa: E402
from tests.hardening.wire import PING, envelope, outcome, post  # noqa: E402

BOMB = gzip.compress(bytes(64 << 20))  # 64 MiB inflated, about 64 KiB sent


@dataclass
class Window:
    """What one sampling interval saw."""

    grpc_ms: list[float] = field(default_factory=list)
    http_ms: list[float] = field(default_factory=list)
    calls: int = 0
    bad: int = 0  # answers `unknown` / `internal`, or failures of well-formed calls


class Soak:
    def __init__(self, server: ServerProcess, seconds: float) -> None:
        self.server = server
        self.until = time.monotonic() + seconds
        self.window = Window()
        self.lock = threading.Lock()
        self.fastest = float("inf")

    def running(self) -> bool:
        return time.monotonic() < self.until

    def take(self) -> Window:
        with self.lock:
            window, self.window = self.window, Window()
        return window

    def note(
        self, grpc_ms: float | None = None, http_ms: float | None = None, bad: bool = False
    ) -> None:
        with self.lock:
            self.window.calls += 1
            self.window.bad += bad
            if grpc_ms is not None:
                self.window.grpc_ms.append(grpc_ms)
                self.fastest = min(self.fastest, grpc_ms)
            if http_ms is not None:
                self.window.http_ms.append(http_ms)

    # Load streams ----------------------------------------------------------------------

    def pinger(self, stub: svc_grpc.TarokServiceStub) -> None:
        while self.running():
            start = time.perf_counter()
            stub.Ping(svc.PingRequest(payload=b"soak"), timeout=10)
            self.note(grpc_ms=(time.perf_counter() - start) * 1000)
            time.sleep(0.02)

    def tables(self, stub: svc_grpc.TarokServiceStub) -> None:
        while self.running():
            stub.ListVariants(svc.ListVariantsRequest(), timeout=10)
            create = svc.CreateTableRequest(variant="slovenian", players=4)
            table = stub.CreateTable(create, timeout=10)
            tokens = [
                stub.JoinTable(
                    svc.JoinTableRequest(table_id=table.table_id, name=f"p{i}"), timeout=10
                ).token
                for i in range(4)
            ]
            for token in tokens:
                stub.GetTableView(svc.GetTableViewRequest(token=token), timeout=10)
            watch = stub.WatchTable(svc.WatchTableRequest(token=tokens[0]), timeout=2)
            try:
                for _ in watch:
                    pass
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise
            self.note()
            time.sleep(0.2)

    def http(self) -> None:
        port = self.server.http_port
        while self.running():
            start = time.perf_counter()
            answer = post(port, PING, b"{}", "application/json")
            self.note(http_ms=(time.perf_counter() - start) * 1000, bad=answer.status != 200)
            web = "application/grpc-web+proto"
            answer = post(port, PING, envelope(b""), web)
            self.note(bad=outcome(answer, web) != ("ok", ""))
            time.sleep(0.05)

    def hostile(self) -> None:
        port = self.server.http_port
        rng = random.Random(7)
        cases: list[tuple[bytes, str, dict[str, str]]] = [
            (b'{"payload": 5}', "application/json", {}),
            (b"\xff\xff\xff", "application/proto", {}),
            (BOMB, "application/proto", {"Content-Encoding": "gzip"}),
            (envelope(BOMB, 1), "application/grpc-web+proto", {"Grpc-Encoding": "gzip"}),
            (json.dumps({"payload": "A" * (2 << 20)}).encode(), "application/json", {}),
            (envelope(b"\x0a\x00", 1), "application/grpc-web+proto", {}),
        ]
        while self.running():
            body, kind, headers = rng.choice(cases)
            answer = post(port, PING, body, kind, **headers)
            self.note(bad=outcome(answer, kind)[0] in ("unknown", "internal"))
            time.sleep(0.1)


def guarded(job: Callable[[], None], failures: list[str]) -> Callable[[], None]:
    def run() -> None:
        try:
            job()
        except Exception as exc:  # reported; the soak goes on without this stream
            failures.append(f"{job.__name__}: {exc!r}")

    return run


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="duration (default 30)")
    parser.add_argument("--interval", type=float, default=10.0, help="seconds per sample")
    parser.add_argument("--max-growth-mib", type=float, default=32.0)
    parser.add_argument("--report", type=Path, default=None, help="write the report here")
    args = parser.parse_args()

    server = ServerProcess()
    failures: list[str] = []
    rows: list[tuple[float, int, int, float, float, float, float, int, int]] = []
    try:
        soak = Soak(server, args.minutes * 60)
        with grpc.insecure_channel(server.grpc_target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            jobs = [
                lambda: soak.pinger(stub),
                lambda: soak.tables(stub),
                soak.http,
                soak.hostile,
            ]
            threads = [threading.Thread(target=guarded(j, failures), daemon=True) for j in jobs]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            while soak.running():
                time.sleep(min(args.interval, max(0.0, soak.until - time.monotonic())))
                w = soak.take()
                lag = [ms - soak.fastest for ms in w.grpc_ms]
                rows.append((
                    time.monotonic() - started, server.rss(), server.fds(),
                    percentile(w.grpc_ms, 0.5), percentile(w.grpc_ms, 0.99),
                    percentile(w.http_ms, 0.99), percentile(lag, 0.99), w.calls, w.bad,
                ))  # fmt: skip
                print(format_row(rows[-1]), flush=True)
            for thread in threads:
                thread.join(30)
        peak = server.peak_rss()
    finally:
        server.stop()
    report, ok = summarise(rows, peak, failures, args)
    print(report)
    if args.report is not None:
        args.report.write_text(report)
    return 0 if ok else 1


HEADER = (
    "| t (s) | RSS (MiB) | fds | gRPC Ping p50 (ms) | gRPC Ping p99 (ms) "
    "| HTTP Ping p99 (ms) | loop lag p99 (ms) | calls | bad |\n"
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def format_row(row: tuple[float, int, int, float, float, float, float, int, int]) -> str:
    t, rss, fds, p50, p99, http99, lag99, calls, bad = row
    return (
        f"| {t:.0f} | {rss / 2**20:.1f} | {fds} | {p50:.2f} | {p99:.2f} | {http99:.2f} "
        f"| {lag99:.2f} | {calls} | {bad} |"
    )


def summarise(
    rows: list[tuple[float, int, int, float, float, float, float, int, int]],
    peak: int,
    failures: list[str],
    args: argparse.Namespace,
) -> tuple[str, bool]:
    third = max(1, len(rows) // 3)
    middle, last = rows[third : 2 * third] or rows, rows[-third:]
    growth = (max(r[1] for r in last) - max(r[1] for r in middle)) / 2**20
    fd_growth = max(r[2] for r in last) - max(r[2] for r in middle)
    p99_middle = statistics.median(r[4] for r in middle)
    p99_last = statistics.median(r[4] for r in last)
    bad = sum(r[8] for r in rows)
    checks = [
        (f"memory growth, last third vs middle third: {growth:+.1f} MiB "
         f"(limit {args.max_growth_mib:.0f})", growth <= args.max_growth_mib),
        (f"file descriptors growth: {fd_growth:+d} (limit 16)", fd_growth <= 16),
        (f"gRPC Ping p99 (median of windows): middle {p99_middle:.2f} ms, last "
         f"{p99_last:.2f} ms (limit 2x)", p99_last <= 2 * max(p99_middle, 1.0)),
        (f"answers unknown/internal or failed well-formed calls: {bad}", bad == 0),
        (f"load streams that failed: {len(failures)} {failures[:3]}", not failures),
    ]  # fmt: skip
    ok = all(passed for _, passed in checks)
    lines = [
        f"Soak: {args.minutes:g} minutes, samples every {args.interval:g} s, "
        f"{sum(r[7] for r in rows)} calls; server peak RSS {peak / 2**20:.1f} MiB.",
        "",
        HEADER,
        *(format_row(r) for r in rows),
        "",
        *(f"- {'PASS' if passed else 'FAIL'}: {text}" for text, passed in checks),
        "",
    ]
    return "\n".join(lines), ok


if __name__ == "__main__":
    raise SystemExit(main())
