"""Issue 29, third round: seat capabilities, bounded work, atomic limits, idempotency and
verification. Each test failed on the server this work started from."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from tests.service.harness import ServerThread, config, create, expect_error

UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
INVALID = grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running_server = ServerThread(config())
    yield running_server
    running_server.stop()


def test_stream_my_turns_refuses_a_revoked_seat_token(server: ServerThread) -> None:
    stub = server.stub
    table_id = create(stub, players=3)
    first = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, seat=0, name="first"))
    stub.LeaveTable(svc.LeaveTableRequest(token=first.token))
    stub.JoinTable(svc.JoinTableRequest(table_id=table_id, seat=0, name="second"))
    turns = ts_grpc.TournamentServiceStub(server.channel)
    request = ts.StreamMyTurnsRequest(tokens=[first.token])
    expect_error(
        lambda: next(iter(turns.StreamMyTurns(request, timeout=30))),
        UNAUTHENTICATED,
        "TOKEN_REVOKED",
    )
