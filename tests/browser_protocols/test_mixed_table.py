"""One table, four clients on three protocols: Connect, gRPC-Web and native gRPC (twice)."""

from __future__ import annotations

import random
import threading
from typing import Any

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

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
