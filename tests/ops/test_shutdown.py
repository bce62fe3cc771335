"""Graceful shutdown of a `tarok serve` process on SIGTERM.

Health flips to NOT_SERVING at once, the server keeps serving through the drain period
(a move still succeeds), open WatchTable streams then end with status OK, and the process
exits 0. Also the container health probe (`python -m tarok_service.server.transport.healthcheck`).
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.harness import choose, view
from .conftest import subprocess_env, tarok_command

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
DRAIN_SECONDS = 20


def start(tmp: Path) -> tuple[subprocess.Popen[str], str]:
    command = [*tarok_command(), "serve", "--store", f"sqlite:///{tmp / 'tarok.db'}"]
    command += ["--host", "127.0.0.1", "--port", "0", "--heartbeat", "30", "--log-format", "json"]
    # The drain must outlast the checks made while draining (one spawns a Python process).
    command += ["--drain-seconds", str(DRAIN_SECONDS), "--grace-seconds", "5"]
    env = subprocess_env(TAROK_SECRET="shutdown-test")
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise AssertionError(f"server did not start: {proc.communicate()[1]}")
    return proc, f"127.0.0.1:{found.group(1)}"


def probe(target: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tarok_service.server.transport.healthcheck", "--addr", target]
    return subprocess.run(command, capture_output=True, text=True, env=subprocess_env(), timeout=60)


@pytest.mark.slow
def test_sigterm_flips_health_ends_streams_cleanly_and_exits_0(tmp_path: Path) -> None:
    proc, target = start(tmp_path)
    channel = grpc.insecure_channel(target)
    try:
        stub = svc_grpc.TarokServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        assert probe(target).returncode == 0
        table = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)).table_id
        tokens = [stub.JoinTable(svc.JoinTableRequest(table_id=table)).token for _ in range(4)]
        spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table, spectator=True)).token

        items: list[svc.WatchTableResponse] = []
        errors: list[grpc.RpcError] = []
        first = threading.Event()

        def watch() -> None:
            try:
                for item in stub.WatchTable(svc.WatchTableRequest(token=spectator), timeout=60):
                    items.append(item)
                    first.set()
            except grpc.RpcError as error:
                errors.append(error)

        watcher = threading.Thread(target=watch)
        watcher.start()
        statuses: list[int] = []
        health_stream = health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=60)
        statuses.append(next(health_stream).status)
        assert statuses == [SERVING] and first.wait(60)

        proc.send_signal(signal.SIGTERM)
        statuses.append(next(health_stream).status)  # pushed to watchers at once
        assert statuses == [SERVING, NOT_SERVING]
        health_stream.cancel()
        assert health.Check(health_pb2.HealthCheckRequest()).status == NOT_SERVING
        assert probe(target).returncode == 1
        # Still serving while draining: a move is made and reaches the open watch stream.
        turn = view(stub, tokens[0]).hand.turn
        move = choose(view(stub, tokens[turn]), random.Random(1))
        made = stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=move))

        watcher.join(DRAIN_SECONDS + 60)
        assert not watcher.is_alive() and not errors, errors  # ended with status OK
        assert any(i.event.version == made.version for i in items if i.HasField("event"))
        assert proc.wait(60) == 0
        _, stderr = proc.communicate()
        assert '"shutting down: health NOT_SERVING"' in stderr and '"stopped"' in stderr
    finally:
        channel.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_probe_reports_an_unreachable_server() -> None:
    result = probe("127.0.0.1:1")
    assert result.returncode == 1 and result.stdout.strip() == "UNAVAILABLE"
