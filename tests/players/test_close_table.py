"""Operators end a table now (PlayerService.CloseTable): the log ends with a TableClosed
naming the operator, play stops, the complete log still verifies, a rated table is not
rated, and the audit trail says so once."""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest
from tarok_client.verify import read_log, verify_log
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..matches.helpers import matches, sign_in
from ..service.harness import FINISHED, PLAYING, ServerThread, config, create, expect_error, step
from ..service.harness import view as view_of

OPERATOR_KEY = "an-operator-key-for-closing"


@pytest.fixture
def server() -> Iterator[ServerThread]:
    server = ServerThread(config(operator_key=OPERATOR_KEY))
    yield server
    server.stop()


def _players(server: ServerThread) -> ps_grpc.PlayerServiceStub:
    return ps_grpc.PlayerServiceStub(server.channel)


def test_an_operator_closes_a_table_in_play(server: ServerThread) -> None:
    table_id = create(server.stub, hands=4)
    tokens = [
        server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id)).token for _ in range(4)
    ]
    rng = random.Random(2)
    for _ in range(12):  # into the first hand
        assert step(server.stub, tokens, rng) is not None
    before = view_of(server.stub, tokens[0])
    assert before.status == PLAYING
    close = ps.CloseTableRequest(operator_key=OPERATOR_KEY, table_id=table_id, reason="spam")
    done = _players(server).CloseTable(close)
    assert done.closed and done.version == before.version + 1
    after = view_of(server.stub, tokens[0])
    assert after.status == FINISHED and list(after.totals) == list(before.totals)
    turn = before.hand.turn
    mine = server.stub.GetTableView(svc.GetTableViewRequest(token=tokens[turn])).view
    move = svc.SubmitMoveRequest(token=tokens[turn], move_id=mine.hand.legal_moves[0].id)
    expect_error(
        lambda: server.stub.SubmitMove(move), grpc.StatusCode.FAILED_PRECONDITION, "TABLE_FINISHED"
    )
    again = _players(server).CloseTable(close)  # already over: nothing more is written
    assert (again.closed, again.version) == (False, done.version)
    audit = (
        _players(server)
        .ListAuditEvents(ps.ListAuditEventsRequest(operator_key=OPERATOR_KEY))
        .events
    )
    assert [(a.action, a.table_id, a.reason) for a in audit] == [("close_table", table_id, "spam")]
    logged = server.stub.GetTableLog(
        svc.GetTableLogRequest(token=tokens[0], format=svc.LOG_FORMAT_JSON)
    )
    log = read_log(logged.json)
    assert log.complete and log.events[-1].table_closed.closed_by
    assert log.events[-1].table_closed.reason == "spam"
    report = verify_log(log)
    assert report.ok, report.problems


def test_closing_needs_the_operator_key_and_a_table(server: ServerThread) -> None:
    table_id = create(server.stub)
    unauth = grpc.StatusCode.UNAUTHENTICATED
    expect_error(
        lambda: _players(server).CloseTable(ps.CloseTableRequest(table_id=table_id)),
        unauth,
        "OPERATOR_KEY_REQUIRED",
    )
    wrong = ps.CloseTableRequest(operator_key="not-it", table_id=table_id)
    expect_error(lambda: _players(server).CloseTable(wrong), unauth, "BAD_OPERATOR_KEY")
    missing = ps.CloseTableRequest(operator_key=OPERATOR_KEY, table_id="0" * 18)
    expect_error(
        lambda: _players(server).CloseTable(missing), grpc.StatusCode.NOT_FOUND, "TABLE_NOT_FOUND"
    )
    bad = ps.CloseTableRequest(operator_key=OPERATOR_KEY, table_id="x\n")
    expect_error(
        lambda: _players(server).CloseTable(bad), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"
    )
    assert (
        not _players(server)
        .ListAuditEvents(ps.ListAuditEventsRequest(operator_key=OPERATOR_KEY))
        .events
    )


def test_a_rated_table_an_operator_closed_is_not_rated(server: ServerThread) -> None:
    request = svc.CreateTableRequest(variant="slovenian", players=3, hands=1, rated=True)
    table_id = server.stub.CreateTable(request).table_id
    tokens, signed = [], []
    for seat in range(3):
        _, md = sign_in(server.channel, f"guest{seat}")
        join = svc.JoinTableRequest(table_id=table_id, seat=seat, name=f"seat{seat}")
        tokens.append(server.stub.JoinTable(join, metadata=md).token)
        signed.append(md)
    close = ps.CloseTableRequest(operator_key=OPERATOR_KEY, table_id=table_id)
    assert _players(server).CloseTable(close).closed
    board = matches(server).ListLeaderboard(
        ms.ListLeaderboardRequest(variant="slovenian", players=3)
    )
    assert list(board.entries) == []
    for md in signed:  # in the history, not rated
        [played] = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md).tables
        assert played.table_id == table_id and not played.HasField("rating_after")
