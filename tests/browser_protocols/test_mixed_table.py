"""One table, four clients on three protocols: Connect, gRPC-Web and native gRPC (twice); and
the turn stream (StreamMyTurns) over the browser protocols."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts

from ..service.harness import FINISHED, PLAYING, ServerThread, choose
from .conftest import http_url
from .harness import HttpStub


def _watch(stub: Any, token: str, out: list[svc.WatchTableResponse]) -> None:
    """Follow the table until its stream ends (after TableClosed)."""
    out.extend(stub.WatchTable(svc.WatchTableRequest(token=token, with_views=True), timeout=120))


def test_a_full_table_over_connect_grpc_web_and_grpc(server: ServerThread) -> None:
    connect = HttpStub(http_url(server), "connect-json")
    grpc_web = HttpStub(http_url(server), "grpc-web")
    stubs: list[Any] = [connect, grpc_web, server.stub, server.stub]
    table_id = connect.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)).table_id
    tokens = []
    for seat, stub in enumerate(stubs):
        joined = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, seat=seat, name=f"p{seat}"))
        assert joined.seat == seat
        tokens.append(joined.token)
    watched: list[list[svc.WatchTableResponse]] = [[], []]
    watchers = [
        threading.Thread(target=_watch, args=(stubs[i], tokens[i], watched[i])) for i in (0, 1)
    ]
    for watcher in watchers:
        watcher.start()
    rng, moves = random.Random(16), 0
    while True:
        public = stubs[moves % 4].GetTableView(svc.GetTableViewRequest(token=tokens[moves % 4]))
        if public.view.status != PLAYING:
            break
        seat = public.view.hand.turn
        mine = stubs[seat].GetTableView(svc.GetTableViewRequest(token=tokens[seat])).view
        stubs[seat].SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=choose(mine, rng)))
        moves += 1
    for watcher in watchers:
        watcher.join(120)
        assert not watcher.is_alive()
    final = server.stub.GetTableView(svc.GetTableViewRequest(token=tokens[2])).view
    assert final.status == FINISHED and moves > 0
    for seat, items in enumerate(watched):
        events = [i.event for i in items if i.WhichOneof("item") == "event"]
        views = [i.view for i in items if i.WhichOneof("item") == "view"]
        assert events[-1].HasField("table_closed") and events[-1].version == final.version
        assert sum(e.HasField("move_made") for e in events) == moves
        # Each watcher's views are its own seat's: its cards, nobody else's.
        assert all(v.seat == seat for v in views) and views[-1].version == final.version


@pytest.mark.parametrize("transport", ["connect-json", "grpc-web"])
def test_the_turn_stream_over_browser_protocols(server: ServerThread, transport: str) -> None:
    """StreamMyTurns (TournamentService) with seat tokens: a turn, then the end of the table."""
    turns = HttpStub(http_url(server), transport, "tarok.v1.TournamentService")
    stub = HttpStub(http_url(server), transport)
    table_id = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)).table_id
    tokens = [
        stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name=f"p{i}")).token
        for i in range(4)
    ]
    rng, moves, done = random.Random(2), 0, False
    request = ts.StreamMyTurnsRequest(tokens=tokens)
    for item in turns.StreamMyTurns(request, timeout=120):
        kind = item.WhichOneof("item")
        if kind == "done":
            done = True
            break
        if kind != "turn":
            continue
        turn = item.turn
        assert turn.table_id == table_id and turn.view.seat == turn.seat
        move = svc.SubmitMoveRequest(
            token=turn.token, move_id=choose(turn.view, rng), expected_version=turn.view.version
        )
        stub.SubmitMove(move)
        moves += 1
    final = stub.GetTableView(svc.GetTableViewRequest(token=tokens[0])).view
    assert done and final.status == FINISHED and moves > 0
