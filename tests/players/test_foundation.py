"""Guest sign-in, the caller's player on every call (both ports, streams included) and the
player recorded on its seats."""

from __future__ import annotations

import io
import json
from typing import Any

import grpc
import pytest
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running

from ..service.harness import ServerThread, config, create, expect_error
from .harness import PLAYERS, PORTS, TAROK, device_secret, guest, stub

UNAUTH = grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.parametrize("port", PORTS)
def test_guest_signs_in_again_as_the_same_player(server: ServerThread, port: str) -> None:
    secret = device_secret()
    players = stub(server, port, PLAYERS)
    ask = ps.SignInGuestRequest(device_secret=secret, display_name="Ana")
    first = players.SignInGuest(ask).session
    again = players.SignInGuest(
        ps.SignInGuestRequest(device_secret=secret, display_name="X")
    ).session
    assert first.created and not again.created
    assert first.player.player_id == again.player.player_id
    assert again.player.display_name == "Ana" and again.player.guest
    me = stub(server, port, PLAYERS, again.session_token).GetMe(ps.GetMeRequest())
    assert me.player.player_id == first.player.player_id
    other = guest(server, port)
    assert other.player.player_id != first.player.player_id


@pytest.mark.parametrize("port", PORTS)
def test_a_bad_bearer_token_fails_every_call(server: ServerThread, port: str) -> None:
    table_id = create(server.stub)
    spectator = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True))
    token = guest(server).session_token
    bad_ones = ["nonsense", token[:-2] + ("AA" if not token.endswith("AA") else "BB")]
    if port != "grpc-http":
        # "Bearer " (nothing after the space): HTTP/2 forbids a header value ending in a
        # space, so the HTTP port's HTTP/2 stack drops such a request before any RPC runs.
        bad_ones.append("")
    for bad in bad_ones:
        refused(stub(server, port, TAROK, bad), spectator.token)
    seat_token = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id)).token
    tarok = stub(server, port, TAROK, seat_token)  # a seat token is no bearer token
    expect_error(lambda: tarok.Ping(svc.PingRequest()), UNAUTH, "BAD_TOKEN")


def refused(tarok: Any, spectator: str) -> None:
    expect_error(lambda: tarok.Ping(svc.PingRequest()), UNAUTH, "BAD_TOKEN")
    watch = tarok.WatchTable(svc.WatchTableRequest(token=spectator))
    expect_error(lambda: next(iter(watch)), UNAUTH, "BAD_TOKEN")


@pytest.mark.parametrize("port", PORTS)
def test_sign_in_is_required_where_a_player_is(server: ServerThread, port: str) -> None:
    players = stub(server, port, PLAYERS)
    expect_error(lambda: players.GetMe(ps.GetMeRequest()), UNAUTH, "SIGN_IN_REQUIRED")
    expect_error(lambda: players.ListMyTables(ps.ListMyTablesRequest()), UNAUTH, "SIGN_IN_REQUIRED")


@pytest.mark.parametrize("port", PORTS)
def test_seats_are_bound_to_the_player(server: ServerThread, port: str) -> None:
    me = guest(server, port)
    pid = me.player.player_id
    tarok = stub(server, port, TAROK, me.session_token)
    table_id = create(server.stub)
    joined = tarok.JoinTable(svc.JoinTableRequest(table_id=table_id, name="Ana"))
    ctx = running(server.server).app.ctx
    table = server.run(ctx.cache.load(table_id))
    assert table.player_ids[joined.seat] == pid
    assert [p for i, p in enumerate(table.player_ids) if i != joined.seat] == ["", "", ""]
    # one seat per player per table
    expect_error(
        lambda: tarok.JoinTable(svc.JoinTableRequest(table_id=table_id)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "ALREADY_SEATED",
        seat=str(joined.seat),
    )
    server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id))  # anonymous: fine
    mine = stub(server, port, PLAYERS, me.session_token).ListMyTables(ps.ListMyTablesRequest())
    assert [(t.table_id, t.seat) for t in mine.tables] == [(table_id, joined.seat)]
    # from another device: the seat by identity, no seat token
    again = tarok.RejoinTable(svc.RejoinTableRequest(table_id=table_id))
    assert again.seat == joined.seat and again.token != joined.token
    expect_error(
        lambda: tarok.GetTableView(svc.GetTableViewRequest(token=joined.token)),
        UNAUTH,
        "TOKEN_REVOKED",
    )
    tarok.GetTableView(svc.GetTableViewRequest(token=again.token))
    stranger = stub(server, port, TAROK, guest(server, port).session_token)
    expect_error(
        lambda: stranger.RejoinTable(svc.RejoinTableRequest(table_id=table_id)),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )
    anonymous = stub(server, port, TAROK)
    expect_error(
        lambda: anonymous.RejoinTable(svc.RejoinTableRequest(table_id=table_id)),
        UNAUTH,
        "SIGN_IN_REQUIRED",
    )


def test_the_access_line_names_the_signed_in_player(captured: io.StringIO) -> None:
    running = ServerThread(config())
    try:
        me = guest(running)
        stub(running, "grpc", TAROK, me.session_token).Ping(svc.PingRequest())
        stub(running, "grpc", TAROK).Ping(svc.PingRequest())
    finally:
        running.stop()
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    pings = [x for x in lines if x.get("method") == "/tarok.v1.TarokService/Ping"]
    assert [x.get("player") for x in pings] == [me.player.player_id, None]
    assert me.session_token not in captured.getvalue()  # tokens never logged


def test_one_seat_per_player_through_every_way_to_a_seat(server: ServerThread) -> None:
    me = guest(server)
    tarok = stub(server, "grpc", TAROK, me.session_token)
    table_id = create(server.stub)
    mine = tarok.JoinTable(svc.JoinTableRequest(table_id=table_id))
    other = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id))  # anonymous
    # taking the anonymous seat back with its token, signed in: the player's second seat
    server.stub.LeaveTable(svc.LeaveTableRequest(token=other.token))
    expect_error(
        lambda: tarok.RejoinTable(svc.RejoinTableRequest(token=other.token)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "ALREADY_SEATED",
    )
    # leaving frees the player: its table is no longer listed, and it may sit again
    tarok.LeaveTable(svc.LeaveTableRequest(token=mine.token))
    players = stub(server, "grpc", PLAYERS, me.session_token)
    assert list(players.ListMyTables(ps.ListMyTablesRequest()).tables) == []
    expect_error(
        lambda: tarok.RejoinTable(svc.RejoinTableRequest(table_id=table_id)),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )
    back = tarok.RejoinTable(svc.RejoinTableRequest(token=other.token))  # now it may
    table = server.run(running(server.server).app.ctx.cache.load(table_id))
    assert table.player_ids[back.seat] == me.player.player_id
    assert table.player_ids.count(me.player.player_id) == 1


def test_per_caller_limits_count_the_signed_in_player() -> None:
    running_server = ServerThread(config(max_bot_tables_per_caller=1))
    try:
        bots = [svc.BotSeat(seat=s, bot="random") for s in (1, 2, 3)]
        ask = svc.CreateTableRequest(variant="slovenian", players=4, bots=bots)
        running_server.stub.CreateTable(ask)  # this address's one table with bots
        expect_error(
            lambda: running_server.stub.CreateTable(ask),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_TABLES",
        )
        signed = stub(running_server, "grpc", TAROK, guest(running_server).session_token)
        signed.CreateTable(ask)  # the player's own one, from the same address
        expect_error(
            lambda: signed.CreateTable(ask), grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_TABLES"
        )
    finally:
        running_server.stop()


@pytest.mark.parametrize("port", ["grpc", "connect-json"])
def test_guest_sign_ins_are_rate_limited_per_address(port: str) -> None:
    limited = ServerThread(config(guest_sign_ins_per_minute=3, http_port=0, http_host="127.0.0.1"))
    try:
        for _ in range(3):
            guest(limited, port)
        players = stub(limited, port, PLAYERS)
        ask = ps.SignInGuestRequest(device_secret=device_secret())
        expect_error(
            lambda: players.SignInGuest(ask),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_REQUESTS",
        )
    finally:
        limited.stop()
