"""`tarok serve --workers 2`: two processes on the same gRPC and HTTP ports and one store.

Each worker answers on both ports (the access log's `worker` field says which one did);
SIGTERM to the parent stops every worker; a worker killed with SIGKILL during play loses no
acknowledged move: the client retries the call in flight with the same request id and gets
the first answer, and the parent starts the worker again.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import structlog
from prometheus_client.parser import text_string_to_metric_families
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import views_pb2

from tarok_service.server.ops.accesslog import _to_pipe, _whole_lines
from tarok_service.server.workers import check_workers, default_workers

from .harness import FINISHED, PLAYING, choose, seat_all

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow
WAIT = 60.0  # seconds any one expected event may take on a loaded machine
UNPARSED = "<not a JSON line>"


@dataclass
class Served:
    """The parent process, its ports, and the log lines its workers write."""

    proc: subprocess.Popen[str]
    port: int
    http_port: int
    metrics_port: int
    lines: queue.Queue[dict[str, object]]

    def workers(self) -> list[int]:
        """The pids of the parent's live workers (children started by multiprocessing's
        spawn; its resource tracker is a child too)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                    command = (entry / "cmdline").read_bytes()
                except OSError:
                    continue
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                if parent == self.proc.pid and b"spawn_main" in command:
                    found.append(int(entry.name))
        return found

    def wait_line(self, wanted: dict[str, object]) -> dict[str, object]:
        """The next log line holding every key and value of `wanted`."""
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line.get("event") != UNPARSED, line
            if all(line.get(k) == v for k, v in wanted.items()):
                return line


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    metrics_port = _free_port()
    env = dict(os.environ, TAROK_SECRET="workers-secret")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    command = [
        sys.executable, "-m", "tarok_client.cli", "serve", "--workers", "2",
        "--store", f"sqlite:///{tmp_path / 'tarok.db'}", "--host", "127.0.0.1", "--port", "0",
        "--http-host", "127.0.0.1", "--http-port", "0", "--log-format", "json",
        "--metrics-host", "127.0.0.1", "--metrics-port", str(metrics_port),
    ]  # fmt: skip
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    lines: queue.Queue[dict[str, object]] = queue.Queue()
    errors = proc.stderr

    def read() -> None:
        for text in errors:
            if text.startswith("{"):
                try:
                    lines.put(json.loads(text))
                except ValueError:  # two workers' lines mixed up: a bug, shown as such
                    lines.put({"event": UNPARSED, "text": text})

    threading.Thread(target=read, daemon=True).start()
    try:
        found = re.search(r"listening on \S+:(\d+) .*2 workers", proc.stdout.readline())
        assert found is not None, "the server did not start"
        http_found = re.search(r"HTTP .* on \S+:(\d+)", proc.stdout.readline())
        assert http_found is not None
        yield Served(proc, int(found.group(1)), int(http_found.group(1)), metrics_port, lines)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(WAIT)


def _served_by(served: Served, method: str, call: object) -> set[int]:
    """Call on fresh connections until both workers have answered `method`."""
    seen: set[int] = set()
    for _ in range(200):
        assert callable(call)
        call()
        line = served.wait_line({"event": "rpc", "method": method})
        seen.add(int(str(line["worker"])))
        if seen == {0, 1}:
            break
    return seen


def _scrape(port: int, name: str, **labels: str) -> dict[str, float]:
    """The samples called `name` with `labels` on the metrics port, by worker."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=WAIT) as reply:
        text = reply.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and labels.items() <= sample.labels.items():
                worker = sample.labels["worker"]
                out[worker] = out.get(worker, 0.0) + sample.value
    return out


def test_two_workers_serve_both_ports_and_stop_on_sigterm(served: Served) -> None:
    assert len(served.workers()) == 2

    def grpc_ping() -> None:
        with grpc.insecure_channel(f"127.0.0.1:{served.port}") as channel:
            svc_grpc.TarokServiceStub(channel).Ping(svc.PingRequest(payload=b"x"), timeout=WAIT)

    def http_list() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", served.http_port, timeout=WAIT)
        try:
            conn.request("POST", "/tarok.v1.TarokService/ListVariants", b"{}",
                         {"Content-Type": "application/json"})  # fmt: skip
            assert conn.getresponse().status == 200
        finally:
            conn.close()

    assert _served_by(served, "/tarok.v1.TarokService/Ping", grpc_ping) == {0, 1}
    assert _served_by(served, "/tarok.v1.TarokService/ListVariants", http_list) == {0, 1}
    # One /metrics for both: each worker's series, labelled with its index, add up to the
    # calls made (each access line above is one call answered).
    pings = _scrape(served.metrics_port, "tarok_rpc_requests_total",
                    method="/tarok.v1.TarokService/Ping")  # fmt: skip
    assert set(pings) == {"0", "1"} and all(n >= 1 for n in pings.values())
    with grpc.insecure_channel(f"127.0.0.1:{served.port}") as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        for _ in range(5):
            stub.Ping(svc.PingRequest(payload=b"x"), timeout=WAIT)
    after = _scrape(served.metrics_port, "tarok_rpc_requests_total",
                    method="/tarok.v1.TarokService/Ping")  # fmt: skip
    assert sum(after.values()) == sum(pings.values()) + 5
    pids = served.workers()
    served.proc.send_signal(signal.SIGTERM)
    assert served.proc.wait(WAIT) == 0
    stopped = {int(str(served.wait_line({"event": "stopped"})["worker"])) for _ in range(2)}
    assert stopped == {0, 1}
    assert not [pid for pid in pids if Path(f"/proc/{pid}").exists()]


def _submit(target: str, request: svc.SubmitMoveRequest) -> svc.SubmitMoveResponse:
    """SubmitMove on a fresh connection, retried with the same request while it is
    UNAVAILABLE (the worker that had the connection was killed)."""
    for _ in range(20):
        with grpc.insecure_channel(target) as channel:
            try:
                return svc_grpc.TarokServiceStub(channel).SubmitMove(
                    request, timeout=WAIT, wait_for_ready=True
                )
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
    raise AssertionError("SubmitMove stayed UNAVAILABLE")


def _view(stub: svc_grpc.TarokServiceStub, token: str) -> views_pb2.TableView:
    """The table's view, asked again while the connection's worker is being replaced."""
    for _ in range(20):
        try:
            request = svc.GetTableViewRequest(token=token)
            return stub.GetTableView(request, timeout=WAIT, wait_for_ready=True).view
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE:
                raise
    raise AssertionError("GetTableView stayed UNAVAILABLE")


def test_a_killed_worker_loses_no_acknowledged_move(served: Served) -> None:
    target = f"127.0.0.1:{served.port}"
    channel = grpc.insecure_channel(target)
    stub = svc_grpc.TarokServiceStub(channel)
    table = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4, hands=1))
    tokens = seat_all(stub, table.table_id, 4)
    rng = random.Random(3)
    acknowledged: list[tuple[svc.SubmitMoveRequest, svc.SubmitMoveResponse]] = []
    killed = 0
    while True:
        public = _view(stub, tokens[0])
        if public.status != PLAYING:
            break
        seat = public.hand.turn
        mine = _view(stub, tokens[seat])
        request = svc.SubmitMoveRequest(
            token=tokens[seat], move_id=choose(mine, rng), request_id=uuid.uuid4().hex
        )
        answer = _submit(target, request)
        acknowledged.append((request, answer))
        if len(acknowledged) in (5, 15):  # kill -9 a worker: mid-auction, and mid-play
            victim = served.workers()[0]
            os.kill(victim, signal.SIGKILL)
            killed += 1
            served.wait_line({"event": "worker exited, starting it again"})
            served.wait_line({"event": "worker ready"})  # the next kill finds it serving
            # The acknowledged move, sent again with its request id, is answered as before.
            again = _submit(target, request)
            assert again.version == answer.version and again.move.id == answer.move.id
    channel.close()
    assert killed == 2 and public.status == FINISHED
    # Each acknowledged move holds its own version (a lost one would see its version
    # taken again by a later move), and the table played on past every one of them.
    versions = [answer.version for _, answer in acknowledged]
    assert versions == sorted(set(versions)) and public.version >= versions[-1]
    assert len(served.workers()) == 2


def test_default_workers_one_per_core_on_postgresql_one_on_sqlite(tmp_path: Path) -> None:
    cores = len(os.sched_getaffinity(0))
    none = tmp_path / "absent"
    assert default_workers("sqlite:///tarok.db", none) == 1
    assert default_workers("postgresql://db/tarok", none) == cores
    limit = tmp_path / "cpu.max"
    limit.write_text("max 100000\n")
    assert default_workers("postgresql://db/tarok", limit) == cores
    limit.write_text("50000 100000\n")  # half a core: still one worker
    assert default_workers("postgresql://db/tarok", limit) == 1
    limit.write_text(f"{100000 * (cores + 4)} 100000\n")  # a quota above the cores
    assert default_workers("postgresql://db/tarok", limit) == cores


def test_in_memory_sqlite_cannot_have_workers() -> None:
    with pytest.raises(SystemExit, match="in-memory"):
        check_workers("sqlite:///:memory:", 2)
    with pytest.raises(SystemExit, match="at least 1"):
        check_workers("sqlite:///tarok.db", 0)
    check_workers("sqlite:///:memory:", 1)


def test_workers_that_cannot_start_stop_the_server(tmp_path: Path) -> None:
    env = dict(os.environ, TAROK_SECRET="workers-secret")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    missing = tmp_path / "no-such-directory" / "tarok.db"
    done = subprocess.run(
        [sys.executable, "-m", "tarok_client.cli", "serve", "--workers", "2", "--store",
         f"sqlite:///{missing}", "--host", "127.0.0.1", "--port", "0"],
        capture_output=True, text=True, env=env, timeout=WAIT * 2, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and "listening" not in done.stdout
    assert "worker failed to start" in done.stderr


def test_access_log_bursts_are_written_in_pieces_a_pipe_keeps_whole() -> None:
    texts = [json.dumps({"event": "rpc", "n": i, "pad": "x" * (i % 300)}) for i in range(400)]
    texts.append("y" * 5000)  # a line longer than the limit goes alone
    chunks = _whole_lines(texts, 4096)
    assert "\n".join(chunks) == "\n".join(texts)
    assert all(len(c.encode()) <= 4096 or "\n" not in c for c in chunks)
    assert len(chunks) < len(texts) / 10  # still bursts, not a write per line


def test_only_pipes_and_sockets_get_pieces(tmp_path: Path) -> None:
    read, write = os.pipe()
    with os.fdopen(write, "w") as pipe, open(tmp_path / "log", "w") as file:
        assert _to_pipe(structlog.PrintLogger(pipe))
        assert not _to_pipe(structlog.PrintLogger(file))
    os.close(read)
