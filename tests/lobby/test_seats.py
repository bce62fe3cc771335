"""Leaving a seat before play, taking it back with the token, and revoked tokens."""

from __future__ import annotations

import grpc
from google.protobuf import duration_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.harness import PLAYING, SEATING, expect_error, view

Stub = svc_grpc.TarokServiceStub
UNAUTH = grpc.StatusCode.UNAUTHENTICATED


def _table(stub: Stub, **fields: object) -> str:
    request = svc.CreateTableRequest(variant="slovenian", players=4, **fields)  # type: ignore[arg-type]
    return stub.CreateTable(request).table_id


def _join(stub: Stub, table_id: str, name: str, seat: int | None = None) -> svc.JoinTableResponse:
    return stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name=name, seat=seat))


def test_leave_frees_the_seat_and_the_token_takes_it_back(stub: Stub) -> None:
    table_id = _table(stub)
    ana = _join(stub, table_id, "ana")
    left = stub.LeaveTable(svc.LeaveTableRequest(token=ana.token))
    assert left.version == ana.version + 1
    again = stub.LeaveTable(svc.LeaveTableRequest(token=ana.token))  # leaving twice: no-op
    assert again.version == left.version
    seats = view(stub, ana.token).seats
    assert not seats[0].taken and seats[0].name == ""
    back = stub.RejoinTable(svc.RejoinTableRequest(token=ana.token))
    assert back.seat == 0 and back.token != ana.token
    assert view(stub, back.token).seats[0].name == "Player 1"
    renamed = stub.RejoinTable(svc.RejoinTableRequest(token=back.token, name="ana"))
    assert view(stub, renamed.token).seats[0].name == "ana"
    for old in (ana.token, back.token):  # every older token of the seat is revoked
        expect_error(
            lambda t=old: view(stub, t),  # type: ignore[misc]
            UNAUTH,
            "TOKEN_REVOKED",
            seat="0",
        )
        expect_error(
            lambda t=old: stub.RejoinTable(svc.RejoinTableRequest(token=t)),  # type: ignore[misc]
            UNAUTH,
            "TOKEN_REVOKED",
        )


def test_a_left_seat_taken_by_someone_else_revokes_the_old_token(stub: Stub) -> None:
    table_id = _table(stub)
    ana = _join(stub, table_id, "ana")
    stub.LeaveTable(svc.LeaveTableRequest(token=ana.token))
    bor = _join(stub, table_id, "bor", seat=0)
    assert bor.seat == 0
    expect_error(lambda: view(stub, ana.token), UNAUTH, "TOKEN_REVOKED")
    expect_error(
        lambda: stub.RejoinTable(svc.RejoinTableRequest(token=ana.token)), UNAUTH, "TOKEN_REVOKED"
    )
    assert view(stub, bor.token).seats[0].name == "bor"


def test_no_leaving_once_play_has_started(stub: Stub) -> None:
    table_id = _table(stub)
    tokens = [_join(stub, table_id, f"p{i}").token for i in range(4)]
    assert view(stub, tokens[0]).status == PLAYING
    expect_error(
        lambda: stub.LeaveTable(svc.LeaveTableRequest(token=tokens[1])),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_STARTED",
    )
    spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
    expect_error(
        lambda: stub.LeaveTable(svc.LeaveTableRequest(token=spectator)),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATOR_CANNOT_MOVE",
    )


def test_the_last_seat_taken_back_starts_play(stub: Stub) -> None:
    table_id = _table(stub)
    first = [_join(stub, table_id, f"r{i}") for i in range(3)]
    stub.LeaveTable(svc.LeaveTableRequest(token=first[0].token))
    _join(stub, table_id, "r3", seat=3)
    assert view(stub, first[1].token).status == SEATING
    back = stub.RejoinTable(svc.RejoinTableRequest(token=first[0].token))
    assert view(stub, back.token).status == PLAYING


def test_a_seat_handed_to_a_bot_on_timeout_is_taken_back(stub: Stub) -> None:
    table_id = _table(
        stub,
        time_per_move=duration_pb2.Duration(seconds=2),
        on_timeout=svc.TIMEOUT_ACTION_BOT,
    )
    joined = [_join(stub, table_id, f"p{i}") for i in range(4)]
    spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
    timed_out = None
    for item in stub.WatchTable(svc.WatchTableRequest(token=spectator), timeout=120):
        if item.WhichOneof("item") == "event" and item.event.HasField("timed_out"):
            timed_out = item.event.timed_out
            break
    assert timed_out is not None and timed_out.bot == "heuristic"
    seat = timed_out.seat
    assert view(stub, spectator).seats[seat].bot == "heuristic"
    back = stub.RejoinTable(svc.RejoinTableRequest(token=joined[seat].token))
    assert back.seat == seat
    mine = view(stub, back.token)
    assert mine.seats[seat].bot == "" and mine.seats[seat].name == f"p{seat}"
    expect_error(lambda: view(stub, joined[seat].token), UNAUTH, "TOKEN_REVOKED")
