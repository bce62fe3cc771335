"""Free tables the server plays at: built-in bots in chosen seats, and the time per move."""

from __future__ import annotations

import grpc
from google.protobuf import duration_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.harness import FINISHED, SEATING, expect_error
from .helpers import play_seat

Stub = svc_grpc.TarokServiceStub
INVALID = grpc.StatusCode.INVALID_ARGUMENT
THREE_BOTS = [
    svc.BotSeat(seat=1, bot="heuristic"),
    svc.BotSeat(seat=2, bot="random"),
    svc.BotSeat(seat=3, bot="heuristic"),
]


def _create(stub: Stub, **fields: object) -> str:
    request = svc.CreateTableRequest(variant="slovenian", players=4, **fields)  # type: ignore[arg-type]
    return stub.CreateTable(request).table_id


def _events(stub: Stub, token: str) -> list[str]:
    log = stub.GetTableLog(svc.GetTableLogRequest(token=token)).log
    return [e.WhichOneof("body") or "" for e in log.events]


def test_a_person_plays_a_match_against_three_server_bots(stub: Stub) -> None:
    table_id = _create(stub, hands=2, bots=THREE_BOTS, display_name="me vs bots")
    seated = stub.GetTableView(
        svc.GetTableViewRequest(
            token=stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
        )
    ).view
    assert [s.bot for s in seated.seats] == ["", "heuristic", "random", "heuristic"]
    assert seated.status == SEATING and [s.taken for s in seated.seats] == [False, True, True, True]
    me = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name="ana"))
    assert me.seat == 0
    moved = play_seat(stub, me.token, 0, seed=4)
    final = stub.GetTableView(svc.GetTableViewRequest(token=me.token)).view
    assert final.status == FINISHED and final.hands_played == 2 and moved > 0
    kinds = _events(stub, me.token)
    assert kinds.count("move_made") > moved and "timed_out" not in kinds


def _silent_seat_table(stub: Stub, on_timeout: int) -> svc.JoinTableResponse:
    clock = duration_pb2.Duration(seconds=2)
    table_id = _create(stub, bots=THREE_BOTS, time_per_move=clock, on_timeout=on_timeout)
    return stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name="gone"))


def test_a_clocked_table_finishes_when_a_seat_stops_answering(stub: Stub) -> None:
    silent = _silent_seat_table(stub, svc.TIMEOUT_ACTION_BOT)
    watch = svc.WatchTableRequest(token=silent.token, with_views=True)
    deadlines = []
    for item in stub.WatchTable(watch, timeout=300):  # ends after TableClosed
        if item.WhichOneof("item") == "view" and item.view.HasField("deadline"):
            view = item.view
            assert view.HasField("server_time")
            deadlines.append(view.deadline.ToSeconds() - view.server_time.ToSeconds())
    final = stub.GetTableView(svc.GetTableViewRequest(token=silent.token)).view
    assert final.status == FINISHED
    assert final.seats[0].bot == "heuristic"  # the bot took the silent seat
    assert _events(stub, silent.token).count("timed_out") == 1
    assert deadlines and all(-1 <= d <= 2 for d in deadlines)


def test_a_timed_out_seat_gets_its_default_move(stub: Stub) -> None:
    silent = _silent_seat_table(stub, svc.TIMEOUT_ACTION_DEFAULT_MOVE)
    watch = svc.WatchTableRequest(token=silent.token)
    timeouts = 0
    for item in stub.WatchTable(watch, timeout=300):
        if item.WhichOneof("item") == "event" and item.event.HasField("timed_out"):
            assert item.event.timed_out.seat == 0 and not item.event.timed_out.bot
            timeouts += 1
            if timeouts == 2:
                break
    assert timeouts == 2
    view = stub.GetTableView(svc.GetTableViewRequest(token=silent.token)).view
    assert view.seats[0].bot == ""  # still the person's seat


def test_bot_seats_and_clock_are_checked(stub: Stub) -> None:
    bad = [
        ({"bots": [svc.BotSeat(seat=4, bot="random")]}, "bots[0].seat"),
        (
            {"bots": [svc.BotSeat(seat=1, bot="random"), svc.BotSeat(seat=1, bot="pimc")]},
            "bots[1].seat",
        ),
        ({"bots": [svc.BotSeat(seat=1, bot="deep-blue")]}, "bots[0].bot"),
        ({"time_per_move": duration_pb2.Duration(seconds=-1)}, "time_per_move"),
        ({"on_timeout": 9}, "on_timeout"),
    ]
    for fields, field in bad:
        expect_error(lambda f=fields: _create(stub, **f), INVALID, "INVALID_FIELD", field=field)  # type: ignore[misc]
