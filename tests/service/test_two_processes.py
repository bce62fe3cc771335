"""Two `tarok serve` processes on one PostgreSQL serve the same table correctly.

Includes racing conflicting moves sent to different processes (exactly one wins, the
other gets ABORTED/STALE_VERSION) and a watcher on one process seeing moves made on the
other. Needs PostgreSQL: TAROK_TEST_POSTGRES_DSN (default postgresql://postgres@127.0.0.1:5432/test);
skipped when unreachable unless TAROK_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from .harness import FINISHED, PLAYING, choose, race, reason_of, submitting, view

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture(scope="module")
def dsn(postgres_dsn: str) -> str:
    return postgres_dsn


def tarok_command() -> list[str]:
    script = Path(sys.executable).parent / "tarok"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tarok_client.cli"]


def start(dsn: str) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, TAROK_SECRET="two-process-secret")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    proc = subprocess.Popen(
        [*tarok_command(), "serve", "--store", dsn, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise AssertionError(f"server did not start: exit {proc.wait()}")
    return proc, f"127.0.0.1:{found.group(1)}"


@pytest.fixture(scope="module")
def stubs(dsn: str) -> Iterator[list[svc_grpc.TarokServiceStub]]:
    procs, channels = [], []
    try:
        for _ in range(2):
            proc, target = start(dsn)
            procs.append(proc)
            channels.append(grpc.insecure_channel(target))
        yield [svc_grpc.TarokServiceStub(c) for c in channels]
    finally:
        for channel in channels:
            channel.close()
        for proc in procs:
            proc.terminate()
            proc.wait(60)


def test_two_servers_one_table(stubs: list[svc_grpc.TarokServiceStub]) -> None:
    a, b = stubs
    table = a.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4, hands=1)).table_id
    tokens = [
        (a if i % 2 else b).JoinTable(svc.JoinTableRequest(table_id=table)).token for i in range(4)
    ]
    spectator = b.JoinTable(svc.JoinTableRequest(table_id=table, spectator=True)).token
    seen: list[svc.WatchTableResponse] = []
    watcher = threading.Thread(
        target=lambda: seen.extend(
            b.WatchTable(svc.WatchTableRequest(token=spectator), timeout=120)
        )
    )
    watcher.start()
    rng, races, moves = random.Random(11), 0, 0
    while True:
        public = view(stubs[moves % 2], tokens[0])
        if public.status != PLAYING:
            break
        seat = public.hand.turn
        mine = view(stubs[(moves + 1) % 2], tokens[seat])
        legal = [m.id for m in mine.hand.legal_moves]
        if races < 6 and len(legal) >= 2:
            picked = rng.sample(legal, 2)
            requests = [
                svc.SubmitMoveRequest(token=tokens[seat], move_id=m, expected_version=mine.version)
                for m in picked
            ]
            outcomes = race(
                [submitting(s, r, timeout=20) for s, r in zip(stubs, requests, strict=True)]
            )
            wins = [o for o in outcomes if isinstance(o, int)]
            assert wins == [mine.version + 1], outcomes
            lost = next(o for o in outcomes if isinstance(o, grpc.RpcError))
            code, reason, meta = reason_of(lost)
            assert (code, reason) == (grpc.StatusCode.ABORTED, "STALE_VERSION")
            assert int(meta["current_version"]) >= mine.version + 1
            races += 1
        else:
            stubs[moves % 2].SubmitMove(
                svc.SubmitMoveRequest(token=tokens[seat], move_id=choose(mine, rng))
            )
        moves += 1
    watcher.join(60)
    assert not watcher.is_alive() and races == 6
    final = [view(s, tokens[0]) for s in stubs]
    assert final[0] == final[1] and final[0].status == FINISHED
    versions = [r.event.version for r in seen if r.WhichOneof("item") == "event"]
    assert versions == list(range(1, final[0].version + 1))
