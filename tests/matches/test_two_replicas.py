"""Two `tarok serve` processes on one store (a SQLite file; PostgreSQL when reachable): two
callers of FindMatch, one on each process, are seated at the same table (the queue is in the
store, not in a process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import match_service_pb2_grpc as ms_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.test_two_processes import start
from .helpers import sign_in
from .test_findmatch import find_together

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def channels(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[grpc.Channel]]:
    if request.param == "postgres":
        store = request.getfixturevalue("postgres_dsn")
    else:
        store = f"sqlite:///{tmp_path / 'shared.db'}"
    procs, out = [], []
    try:
        for _ in range(2):
            proc, target = start(store)
            procs.append(proc)
            out.append(grpc.insecure_channel(target))
        yield out
    finally:
        for channel in out:
            channel.close()
        for proc in procs:
            proc.terminate()
            proc.wait(60)


def test_two_callers_on_two_replicas_sit_at_one_table(channels: list[grpc.Channel]) -> None:
    a, b = channels
    signed = [sign_in(a, "ana")[1], sign_in(b, "bor")[1]]
    wait, most = Duration(), Duration()
    wait.FromSeconds(4)  # the two tickets meet long before; then bots fill the other seats
    most.FromSeconds(60)
    request = ms.FindMatchRequest(
        variant="slovenian", players=4, bots_after=wait, max_wait=most, name="p"
    )
    stubs = [ms_grpc.MatchServiceStub(c) for c in channels]
    seats = find_together(stubs, request, signed)
    assert all(isinstance(s, ms.MatchFound) for s in seats), seats
    got = [s for s in seats if isinstance(s, ms.MatchFound)]
    assert got[0].table_id == got[1].table_id and got[0].seat != got[1].seat
    for channel, seat in zip(channels, reversed(got), strict=True):  # each token on the other
        table = (
            svc_grpc.TarokServiceStub(channel)
            .GetTableView(svc.GetTableViewRequest(token=seat.token))
            .view
        )
        humans = [s for s in table.seats if s.name and not s.bot]
        assert len(humans) == 2 and sum(1 for s in table.seats if s.bot) == 2
