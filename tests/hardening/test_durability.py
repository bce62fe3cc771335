"""kill -9 under load: every acknowledged move is in the log, and play goes on.

A `tarok serve` process is killed with SIGKILL at random moments while a client plays;
after each kill a new process is started on the same store. The client retries a move that
got no answer with the same (random) request id, as the SDK does, so a move that was
written before the kill is answered from the log instead of being made twice.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import views_pb2

ROOT = Path(__file__).resolve().parents[2]
RESTARTS = 3
RETRY = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
}
PLAYING = views_pb2.TABLE_STATUS_PLAYING


def start(store: list[str]) -> tuple[subprocess.Popen[str], str]:
    """A `tarok serve` with `store` (its --store and any store options) on a free port."""
    script = Path(sys.executable).parent / "tarok"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tarok_client.cli"]
    command += ["serve", *store, "--host", "127.0.0.1", "--port", "0"]
    env = dict(os.environ, TAROK_SECRET="durability-test")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise AssertionError("the server did not start")
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained
    return proc, f"127.0.0.1:{found.group(1)}"


class Player(threading.Thread):
    """Plays random legal moves for every seat; records the moves acknowledged."""

    def __init__(self, target: str, tokens: list[str]) -> None:
        super().__init__(daemon=True)
        self.target = target
        self.tokens = tokens
        self.acked: list[tuple[int, int, str]] = []  # (version, seat, move id)
        self.stop = threading.Event()
        self.finished = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            self.finished.set()

    def _play(self) -> None:
        rng = random.Random(11)
        pending: tuple[int, str, str] | None = None
        target, channel = "", None
        while not self.stop.is_set():
            if target != self.target or channel is None:
                if channel is not None:
                    channel.close()
                target = self.target
                channel = grpc.insecure_channel(target)
                stub = svc_grpc.TarokServiceStub(channel)
            try:
                if pending is None:
                    public = stub.GetTableView(
                        svc.GetTableViewRequest(token=self.tokens[0]), timeout=10
                    ).view
                    if public.status != PLAYING:
                        return
                    seat = public.hand.turn
                    mine = stub.GetTableView(
                        svc.GetTableViewRequest(token=self.tokens[seat]), timeout=10
                    ).view
                    move = rng.choice(list(mine.hand.legal_moves)).id
                    pending = (seat, move, secrets.token_urlsafe(12))
                seat, move, rid = pending
                reply = stub.SubmitMove(
                    svc.SubmitMoveRequest(token=self.tokens[seat], move_id=move, request_id=rid),
                    timeout=10,
                )
                self.acked.append((reply.version, seat, move))
                pending = None
            except grpc.RpcError as error:
                assert isinstance(error, grpc.Call)
                if error.code() not in RETRY:
                    raise
                time.sleep(0.05)
        if channel is not None:
            channel.close()


@pytest.fixture(params=["sqlite", "sqlite-normal", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """The store options: SQLite FULL (the default), SQLite NORMAL - which promises to
    survive a crash of the server process, like this one - and PostgreSQL."""
    if request.param == "sqlite":
        yield ["--store", f"sqlite:///{tmp_path / 'durable.db'}"]
    elif request.param == "sqlite-normal":
        yield ["--store", f"sqlite:///{tmp_path / 'durable.db'}", "--sqlite-sync", "normal"]
    else:
        yield ["--store", request.getfixturevalue("postgres_dsn")]


def test_kill_9_under_load_loses_no_acknowledged_move(store_url: list[str]) -> None:
    proc, target = start(store_url)
    procs = [proc]
    try:
        with grpc.insecure_channel(target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            request = svc.CreateTableRequest(variant="slovenian", players=4, hands=4)
            table_id = stub.CreateTable(request, timeout=30).table_id
            tokens = [
                stub.JoinTable(svc.JoinTableRequest(table_id=table_id), timeout=30).token
                for _ in range(4)
            ]
        player = Player(target, tokens)
        player.start()
        rng = random.Random(5)
        for _ in range(RESTARTS):
            goal = len(player.acked) + rng.randint(5, 30)
            deadline = time.monotonic() + 120
            while len(player.acked) < goal and not player.finished.is_set():
                assert time.monotonic() < deadline, "no progress"
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.2))
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            proc, player.target = start(store_url)
            procs.append(proc)
        goal = len(player.acked) + 10
        deadline = time.monotonic() + 120
        while len(player.acked) < goal and not player.finished.is_set():
            assert time.monotonic() < deadline, "play did not go on after the restarts"
            time.sleep(0.01)
        player.stop.set()
        player.join(60)
        assert player.failure is None, repr(player.failure)
        assert len(player.acked) >= goal or player.finished.is_set()

        with grpc.insecure_channel(player.target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            made: dict[int, tuple[int, str]] = {}
            for seat, token in enumerate(tokens):
                page_token = ""
                while True:
                    page = stub.GetTableLog(
                        svc.GetTableLogRequest(token=token, page_token=page_token), timeout=30
                    )
                    for event in page.log.events:
                        if event.HasField("move_made") and event.move_made.seat == seat:
                            made[event.version] = (seat, event.move_made.move_id)
                    page_token = page.next_page_token
                    if not page_token:
                        break
        # The log holds each acknowledged move once, in order, at or before its answer's
        # version; at most one more (a move written but never answered) and no other.
        in_log = sorted(made.items())
        assert len(player.acked) <= len(in_log) <= len(player.acked) + 1
        i = 0
        for version, seat, move in player.acked:
            while i < len(in_log) and in_log[i][1] != (seat, move):
                i += 1
            assert i < len(in_log) and in_log[i][0] <= version, (version, seat, move)
            i += 1
    finally:
        for running in procs:
            if running.poll() is None:
                running.kill()
                running.wait(30)
