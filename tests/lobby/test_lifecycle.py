"""A table's life after its match (rematch) and before it (abandoned open tables expire)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.main import running

from ..service.harness import (
    FINISHED,
    PLAYING,
    SEATING,
    ServerThread,
    config,
    expect_error,
    new_table,
    play_out,
    view,
)
from .helpers import play_seat

Stub = svc_grpc.TarokServiceStub


def test_rematch_gives_every_seat_the_same_new_table(stub: Stub) -> None:
    old_id, tokens = new_table(stub)
    expect_error(
        lambda: stub.Rematch(svc.RematchRequest(token=tokens[0])),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_NOT_FINISHED",
    )
    play_out(stub, tokens, seed=3)
    assert view(stub, tokens[0]).status == FINISHED
    first = stub.Rematch(svc.RematchRequest(token=tokens[2]))
    again = stub.Rematch(svc.RematchRequest(token=tokens[2]))  # asking twice: the same answer
    assert first.table_id != old_id and first.seat == 2
    assert (again.table_id, again.seat) == (first.table_id, first.seat)
    fresh = view(stub, first.token)
    assert fresh.rematch_of == old_id and fresh.status == SEATING
    assert [s.name for s in fresh.seats] == ["", "", "p2", ""]
    others = [stub.Rematch(svc.RematchRequest(token=t)) for t in (tokens[0], tokens[1], tokens[3])]
    assert {o.table_id for o in others} == {first.table_id}
    assert [o.seat for o in others] == [0, 1, 3]
    assert view(stub, first.token).status == PLAYING  # everyone is back: dealt
    spectator = stub.JoinTable(svc.JoinTableRequest(table_id=old_id, spectator=True)).token
    expect_error(
        lambda: stub.Rematch(svc.RematchRequest(token=spectator)),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATOR_CANNOT_MOVE",
    )


def test_rematch_keeps_the_bots_and_the_lobby_settings(stub: Stub) -> None:
    request = svc.CreateTableRequest(
        variant="slovenian",
        players=4,
        display_name="again?",
        bots=[svc.BotSeat(seat=s, bot="random") for s in (0, 1, 2)],
    )
    table_id = stub.CreateTable(request).table_id
    me = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name="ana"))
    assert play_seat(stub, me.token, me.seat, seed=1) > 0  # the server plays the other seats
    assert view(stub, me.token).status == FINISHED
    new = stub.Rematch(svc.RematchRequest(token=me.token))
    seen = view(stub, new.token)
    assert seen.display_name == "again?" and seen.rematch_of == table_id
    assert [s.bot for s in seen.seats] == ["random", "random", "random", ""]
    listed = stub.ListTables(svc.ListTablesRequest(page_size=500))
    assert new.table_id in {t.table_id for t in listed.tables}


@pytest.fixture
def expiring() -> Iterator[ServerThread]:
    server = ServerThread(config(open_table_ttl_seconds=600))
    yield server
    server.stop()


def test_an_abandoned_open_table_expires(expiring: ServerThread) -> None:
    stub = expiring.stub
    idle = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)).table_id
    stub.JoinTable(svc.JoinTableRequest(table_id=idle, name="ana"))
    full, _ = new_table(stub)
    listed = {t.table_id for t in stub.ListTables(svc.ListTablesRequest()).tables}
    assert {idle, full} <= listed
    ctx = running(expiring.server).app.ctx
    ctx.clock = lambda: time.time() + 601  # ten minutes later
    listed = {t.table_id for t in stub.ListTables(svc.ListTablesRequest()).tables}
    assert idle not in listed and full in listed  # a table in play never expires
    expect_error(
        lambda: stub.JoinTable(svc.JoinTableRequest(table_id=idle, name="bor")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_EXPIRED",
    )
