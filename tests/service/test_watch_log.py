"""WatchTable and GetTableLog: filtered history, live events, heartbeats, complete export."""

from __future__ import annotations

import json
import random
import threading

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from .harness import (
    FINISHED,
    ServerThread,
    config,
    expect_error,
    hang_up,
    new_table,
    play_out,
    step,
    view,
)

Stub = svc_grpc.TarokServiceStub


def log_of(stub: Stub, token: str) -> svc.GetTableLogResponse:
    return stub.GetTableLog(svc.GetTableLogRequest(token=token))


def test_log_is_filtered_during_play_and_complete_after(stub: Stub) -> None:
    _, tokens = new_table(stub)
    rng = random.Random(2)
    for _ in range(6):
        step(stub, tokens, rng)
    during = log_of(stub, tokens[1]).log
    assert not during.complete and during.version == view(stub, tokens[1]).version
    # The deal in play is hidden (an earlier deal thrown in without a tarok is revealed).
    dealt = [e.hand_dealt for e in during.events if e.HasField("hand_dealt")][-1]
    assert not dealt.order and not dealt.talon and [h.seat for h in dealt.hands] == [1]
    assert [e.version for e in during.events] == list(range(1, during.version + 1))
    play_out(stub, tokens, seed=2)
    after = log_of(stub, tokens[1]).log
    assert after.complete
    dealt = next(e.hand_dealt for e in after.events if e.HasField("hand_dealt"))
    assert len(dealt.order) == 54 and len(dealt.talon) == 6
    assert sorted(h.seat for h in dealt.hands) == [0, 1, 2, 3]
    assert not any(e.move_made.hidden for e in after.events if e.HasField("move_made"))
    assert after.events[-1].HasField("table_closed")


def test_log_as_json(stub: Stub) -> None:
    _, tokens = new_table(stub)
    reply = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0], format=svc.LOG_FORMAT_JSON))
    data = json.loads(reply.json)
    assert not reply.HasField("log") and data["tableId"] and data["events"][0]["tableCreated"]


def test_watch_sends_view_history_then_live_events(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub)
    call = stub.WatchTable(svc.WatchTableRequest(token=tokens[2], with_views=True))
    stream = iter(call)
    first = next(stream)
    assert first.WhichOneof("item") == "view" and first.view.seat == 2
    history = [next(stream) for _ in range(first.view.version)]
    assert [h.event.version for h in history] == list(range(1, first.view.version + 1))
    step(stub, tokens, random.Random(1))
    live = next(stream)
    while live.WhichOneof("item") == "heartbeat":
        live = next(stream)
    assert live.event.version == first.view.version + 1 and live.event.HasField("move_made")
    fresh = next(stream)
    assert fresh.WhichOneof("item") == "view" and fresh.view.version == live.event.version
    beat = next(stream)
    assert beat.WhichOneof("item") == "heartbeat" and beat.heartbeat.version == fresh.view.version
    hang_up(call)


def test_watch_from_version_and_end_of_table(stub: Stub) -> None:
    _, tokens = new_table(stub)
    spectator = stub.JoinTable(
        svc.JoinTableRequest(table_id=view(stub, tokens[0]).table_id, spectator=True)
    ).token
    received: list[svc.WatchTableResponse] = []
    watching = threading.Event()

    def follow() -> None:
        request = svc.WatchTableRequest(token=spectator, from_version=3)
        for item in stub.WatchTable(request, timeout=60):
            received.append(item)
            watching.set()

    thread = threading.Thread(target=follow)
    thread.start()
    assert watching.wait(60)  # the watch is open (its first item arrived) before the play
    play_out(stub, tokens, seed=5)
    thread.join(60)
    assert not thread.is_alive()  # the stream ends after TableClosed
    events = [r.event for r in received if r.WhichOneof("item") == "event"]
    assert received[0].WhichOneof("item") == "view"
    assert [e.version for e in events] == list(range(4, events[-1].version + 1))
    assert events[-1].HasField("table_closed")
    dealt = [e.hand_dealt for e in events if e.HasField("hand_dealt")]
    assert all(not d.hands and not d.order for d in dealt)
    final = view(stub, tokens[0])
    assert final.status == FINISHED and final.version == events[-1].version


def test_watch_errors(stub: Stub) -> None:
    _, tokens = new_table(stub)
    bad = svc.WatchTableRequest(token=tokens[0], from_version=-1)
    expect_error(
        lambda: list(stub.WatchTable(bad)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_FIELD",
        field="from_version",
    )
    expect_error(
        lambda: list(stub.WatchTable(svc.WatchTableRequest(token="x"))),
        grpc.StatusCode.UNAUTHENTICATED,
        "BAD_TOKEN",
    )


@pytest.fixture
def small_server() -> ServerThread:
    return ServerThread(config(max_watchers=1))


def test_too_many_watchers(small_server: ServerThread) -> None:
    try:
        stub = small_server.stub
        _, tokens = new_table(stub)
        first = stub.WatchTable(svc.WatchTableRequest(token=tokens[0]))
        next(iter(first))
        expect_error(
            lambda: next(iter(stub.WatchTable(svc.WatchTableRequest(token=tokens[1])))),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_WATCHERS",
        )
        hang_up(first)
    finally:
        small_server.stop()
