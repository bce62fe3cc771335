"""History: a signed-in player's finished tables, newest first and paged; nobody else's; the
full log of one's own past table; and the bad input of MatchService on both ports."""

from __future__ import annotations

import grpc
import pytest
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..service.harness import ServerThread, expect_error, play_out
from .helpers import Metadata, bearer, connect, connect_reason, matches, sign_in


def _play(server: ServerThread, md: Metadata, seed: int) -> str:
    """An unrated 3-player table with the signed-in caller on seat 0 and two anonymous seats,
    played to the end; its id."""
    request = svc.CreateTableRequest(variant="slovenian", players=3, hands=1)
    table_id = server.stub.CreateTable(request).table_id
    first = svc.JoinTableRequest(table_id=table_id, seat=0, name="me")
    tokens = [server.stub.JoinTable(first, metadata=md).token]
    for seat in (1, 2):
        join = svc.JoinTableRequest(table_id=table_id, seat=seat, name=f"anon{seat}")
        tokens.append(server.stub.JoinTable(join).token)
    play_out(server.stub, tokens, seed=seed)
    return table_id


@pytest.fixture(scope="module")
def played(server: ServerThread) -> tuple[str, Metadata, list[str]]:
    pid, md = sign_in(server.channel, "me")
    return pid, md, [_play(server, md, seed) for seed in (1, 2, 3)]


def test_history_pages_newest_first(
    server: ServerThread, played: tuple[str, Metadata, list[str]]
) -> None:
    _, md, tables = played
    stub = matches(server)
    first = stub.ListHistory(ms.ListHistoryRequest(page_size=2), metadata=md)
    assert [t.table_id for t in first.tables] == tables[::-1][:2]
    assert first.next_page_token
    second = stub.ListHistory(
        ms.ListHistoryRequest(page_size=2, page_token=first.next_page_token), metadata=md
    )
    assert [t.table_id for t in second.tables] == tables[:1] and not second.next_page_token
    whole = stub.ListHistory(ms.ListHistoryRequest(), metadata=md)
    assert [t.table_id for t in whole.tables] == tables[::-1] and not whole.next_page_token
    assert all(not t.rated and not t.HasField("rating_after") for t in whole.tables)
    assert all(t.seats[0].name == "me" and t.seats[1].player_id == "" for t in whole.tables)


def test_a_player_sees_only_its_own_history_and_logs(
    server: ServerThread, played: tuple[str, Metadata, list[str]]
) -> None:
    _, md, tables = played
    _, other = sign_in(server.channel, "other")
    stub = matches(server)
    assert not stub.ListHistory(ms.ListHistoryRequest(), metadata=other).tables
    request = ms.OpenPlayedTableRequest(table_id=tables[0])
    expect_error(
        lambda: stub.OpenPlayedTable(request, metadata=other),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_TABLE",
        table_id=tables[0],
    )
    token = stub.OpenPlayedTable(request, metadata=md).token
    log = server.stub.GetTableLog(svc.GetTableLogRequest(token=token)).log
    kinds = {e.WhichOneof("body") for e in log.events}
    assert {"table_created", "hand_dealt", "table_closed"} <= kinds
    dealt = next(e.hand_dealt for e in log.events if e.HasField("hand_dealt"))
    assert all(h.cards for h in dealt.hands)  # finished: every hand is shown
    expect_error(
        lambda: stub.ListHistory(ms.ListHistoryRequest()),
        grpc.StatusCode.UNAUTHENTICATED,
        "SIGN_IN_REQUIRED",
    )


BAD = [
    ("ListHistory", ms.ListHistoryRequest(page_token="not-a-token"), "INVALID_FIELD", "page_token"),
    ("ListHistory", ms.ListHistoryRequest(page_size=-1), "INVALID_FIELD", "page_size"),
    ("ListLeaderboard", ms.ListLeaderboardRequest(variant="nope", players=4), "UNKNOWN_VARIANT",
     "variant"),
    ("ListLeaderboard", ms.ListLeaderboardRequest(variant="slovenian", players=9),
     "BAD_PLAYER_COUNT", "players"),
    ("ListLeaderboard", ms.ListLeaderboardRequest(variant="slovenian", players=4,
     page_token="eA"), "INVALID_FIELD", "page_token"),
]  # fmt: skip


@pytest.mark.parametrize(("rpc", "request_", "reason", "field"), BAD, ids=[b[2] for b in BAD])
def test_bad_input_is_invalid_argument_with_a_reason_on_both_ports(
    server: ServerThread, rpc: str, request_: object, reason: str, field: str
) -> None:
    _, md = sign_in(server.channel, "asker")
    call = getattr(matches(server), rpc)
    expect_error(
        lambda: call(request_, metadata=md), grpc.StatusCode.INVALID_ARGUMENT, reason, field=field
    )
    from google.protobuf import json_format

    payload = json_format.MessageToDict(request_)  # type: ignore[arg-type]
    status, body = connect(server, rpc, payload, bearer(md))
    assert status == 400
    assert connect_reason(body) == ("invalid_argument", reason, {"field": field})


def test_find_match_refuses_bad_input_before_queueing(server: ServerThread) -> None:
    _, md = sign_in(server.channel, "finder")
    stub = matches(server)
    for request, reason, field in (
        (ms.FindMatchRequest(variant="nope", players=4), "UNKNOWN_VARIANT", "variant"),
        (ms.FindMatchRequest(variant="slovenian", players=2), "BAD_PLAYER_COUNT", "players"),
        (ms.FindMatchRequest(variant="slovenian", players=4, rated=True, rating_window=-1),
         "INVALID_FIELD", "rating_window"),
        (ms.FindMatchRequest(variant="slovenian", players=4, name="x" * 41), "INVALID_FIELD",
         "name"),
    ):  # fmt: skip
        expect_error(
            lambda r=request: list(stub.FindMatch(r, metadata=md, timeout=30)),  # type: ignore[misc]
            grpc.StatusCode.INVALID_ARGUMENT,
            reason,
            field=field,
        )
    expect_error(
        lambda: list(stub.FindMatch(ms.FindMatchRequest(variant="slovenian", players=4))),
        grpc.StatusCode.UNAUTHENTICATED,
        "SIGN_IN_REQUIRED",
    )
    status, body = connect(server, "ListHistory", {})
    assert status == 401 and connect_reason(body)[:2] == ("unauthenticated", "SIGN_IN_REQUIRED")
