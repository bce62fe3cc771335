"""While compressed bombs, oversized bodies and slow requests arrive on the HTTP port, the
server's memory stays under its ceiling and the gRPC port keeps answering Ping quickly.

The server runs in its own process (`subprocess_server.py`): its peak resident memory
(VmHWM) is the kernel's count. The attack runs in another process (its threads would
slow the timing thread here) until `SAMPLES` Pings have been
timed on the gRPC port; their p99 must stay under `P99` (and is printed, with the memory).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import select
import socket
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from .subprocess_server import ServerProcess
from .wire import PING, connect, envelope, head, post, read_answer

pytestmark = pytest.mark.slow

SAMPLES = 2000  # Pings timed on the gRPC port
P99 = 0.050  # seconds
CEILING = 160 << 20  # bytes the server's peak resident memory may exceed its idle size by
INFLATED = 256 << 20  # bytes one bomb inflates to (the bomb was 512 MiB)
SLOW = 40  # connections that send a head and then nothing, held through the run


def bomb() -> bytes:
    """A gzip member of INFLATED zero bytes (about INFLATED / 1000 bytes on the wire)."""
    deflater = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [deflater.compress(block) for _ in range(INFLATED >> 20)]
    return b"".join(parts) + deflater.flush()


def attack(port: int, payload: bytes, stop: Any, sent: Counter[str]) -> list[Callable[[], None]]:

    def bombs() -> None:
        while not stop.is_set():
            post(port, PING, payload, "application/proto", **{"Content-Encoding": "gzip"})
            post(port, PING, envelope(payload, 1), "application/grpc-web+proto",
                 **{"Grpc-Encoding": "gzip"})  # fmt: skip
            sent["bombs"] += 2

    def oversized() -> None:
        while not stop.is_set():
            with connect(port) as sock:  # a declared 200 MiB, then 1 MiB of it sent
                headers = {"Content-Type": "application/json", "Content-Length": str(200 << 20)}
                sock.sendall(head(PING, headers))
                with contextlib.suppress(OSError):
                    sock.sendall(bytes(1 << 20))
                read_answer(sock)
            with connect(port) as sock:  # a 4 GiB envelope, chunked
                headers = {"Content-Type": "application/grpc-web+proto"}
                sock.sendall(head(PING, {**headers, "Transfer-Encoding": "chunked"}))
                data = b"\x00\xff\xff\xff\xff" + bytes(1 << 16)
                sock.sendall(b"%x\r\n%s\r\n" % (len(data), data))
                read_answer(sock)
            sent["oversized"] += 2

    def slow() -> None:
        held: list[socket.socket] = []
        try:
            while not stop.is_set():
                while len(held) < SLOW:  # a head, four bytes of a 100-byte body, then nothing
                    sock = connect(port)
                    headers = {"Content-Type": "application/json", "Content-Length": "100"}
                    sock.sendall(head(PING, headers) + b'{"pa')
                    held.append(sock)
                    sent["slow"] += 1
                answered, _, _ = select.select(held, [], [], 0.5)
                for sock in answered:  # refused by the server (the body timeout): open anew
                    held.remove(sock)
                    sock.close()
        finally:
            for sock in held:
                sock.close()

    return [bombs, oversized, slow]


def run_guarded(job: Callable[[], None], errors: list[BaseException], stop: Any) -> None:
    while not stop.is_set():
        try:
            job()
        except (OSError, ConnectionError) as exc:  # refused connections are part of the load
            errors.append(exc)


def attacker(port: int, payload: bytes, started: Any, stop: Any, report: Any) -> None:
    """The attack, in a process of its own (its threads do not slow the timed Pings)."""
    errors: list[BaseException] = []
    sent: Counter[str] = Counter()
    threads = [
        threading.Thread(target=run_guarded, args=(job, errors, stop), daemon=True)
        for job in attack(port, payload, stop, sent)
    ]
    for thread in threads:
        thread.start()
    started.set()
    for thread in threads:
        thread.join()
    report.put((dict(sent), len(errors)))


def test_memory_and_grpc_latency_under_http_attack() -> None:
    server = ServerProcess()
    try:
        with grpc.insecure_channel(server.grpc_target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            for _ in range(200):
                stub.Ping(svc.PingRequest(payload=b"warm"), timeout=10)
            post(server.http_port, PING, b"{}", "application/json")
            idle = server.rss()
            processes = multiprocessing.get_context("fork")
            started, stop, report = processes.Event(), processes.Event(), processes.Queue()
            args = (server.http_port, bomb(), started, stop, report)
            attacking = processes.Process(target=attacker, args=args)
            attacking.start()
            assert started.wait(60)
            times = []
            try:
                for _ in range(SAMPLES):
                    start = time.perf_counter()
                    stub.Ping(svc.PingRequest(payload=b"x"), timeout=10)
                    times.append(time.perf_counter() - start)
            finally:
                stop.set()
                sent, refused = report.get(timeout=120)
                attacking.join(60)
            peak = server.peak_rss()
        times.sort()
        p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
        print(
            f"\nPing over gRPC during the attack: {SAMPLES} samples, p50 {p50 * 1000:.1f} ms, "
            f"p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms; server RSS idle "
            f"{idle >> 20} MiB, peak {peak >> 20} MiB (ceiling idle + {CEILING >> 20} MiB); "
            f"attack requests {sent}, {refused} refused or reset"
        )
        assert sent["bombs"] and sent["oversized"] and sent["slow"] >= SLOW
        assert peak < idle + CEILING
        assert p99 < P99
    finally:
        server.stop()
