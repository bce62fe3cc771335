"""Hostile values for every field of every request, against a live server on each store.

For each generated example one request of every RPC is sent. Whatever comes back must be
OK with a bounded response, or an error with a stable ErrorInfo (domain tarok.v1) and a
short message, never UNKNOWN or INTERNAL; when every write of an example was refused,
nothing was written to the store.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import grpc
import psycopg
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql
from tarok_proto.tarok.v1 import cards_pb2, moves_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from tarok_service.store.postgres import PostgresEventStore
from tests.service.harness import ServerThread, config, new_table, view

# x 11 requests: more than 2,000 requests per store (TAROK_FUZZ_EXAMPLES for a longer hunt)
EXAMPLES = int(os.environ.get("TAROK_FUZZ_EXAMPLES", "300"))
MAX_RESPONSE = 1 << 20
MAX_DETAILS = 300
FORBIDDEN = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
POOL = 10  # PostgreSQL connections of the server under test (the store's default maximum)

HOSTILE = st.one_of(
    st.text(max_size=40),
    st.text(max_size=300),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    st.sampled_from(
        [
            "",
            "\x00",
            "a\x00b",
            "x" * 300_000,
            "é" * 70,
            "../../etc/passwd",
            "%s%n{0}",
            "tournaments",
            "T" + "0" * 16,
            "\u202e\u200b",
            "==",
            "pass",
            "bid:3",
            "play:T21",
            "slovenian",
            "-1",
            "99999999999999999999999",
        ]
    ),
)
INT32 = st.one_of(st.integers(-(2**31), 2**31 - 1), st.sampled_from([0, -1, 1, 3, 4, 5, 9]))
INT64 = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-2, 80))


class Store:
    """The live server under test and a way to count the events it has stored."""

    def __init__(self, name: str, server: ServerThread, count: Callable[[], int]) -> None:
        self.name = name
        self.server = server
        self.count = count
        self.tournaments = ts_grpc.TournamentServiceStub(server.channel)
        table_id, self.tokens = new_table(server.stub)
        self.table_id = table_id
        spectator = svc.JoinTableRequest(table_id=table_id, spectator=True)
        self.spectator = server.stub.JoinTable(spectator).token


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
        server = ServerThread(config(store_url=f"sqlite:///{path}"))

        def count() -> int:
            with sqlite3.connect(path) as conn:
                return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])

    else:  # a database of its own: another test run on the same server must not be counted
        admin: str = request.getfixturevalue("postgres_dsn")
        name = f"fuzz_{secrets.token_hex(6)}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        dsn = urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
        # The pool opens full and never grows while examples are drawn: psycopg_pool draws a
        # new connection's expiry jitter from the global `random` module (in the server's
        # thread), which Hypothesis reports as a strategy using `random`.
        pool = PostgresEventStore(dsn, min_size=POOL, max_size=POOL)
        server = ServerThread(config(store_url=dsn), pool)

        def count() -> int:
            with psycopg.connect(dsn) as conn:
                row = conn.execute("SELECT count(*) FROM events").fetchone()
                return 0 if row is None else int(row[0])

    try:
        yield Store(request.param, server, count)
    finally:
        server.stop()
        if request.param == "postgres":
            with psycopg.connect(admin, autocommit=True) as conn:
                drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                conn.execute(drop.format(sql.Identifier(name)))


@st.composite
def tokens(draw: st.DrawFn, store: Store) -> str:
    valid = draw(st.sampled_from([*store.tokens, store.spectator]))
    return draw(
        st.one_of(
            st.just(valid),
            HOSTILE,
            st.builds(lambda junk: valid + junk, HOSTILE),
            st.integers(0, len(valid)).map(lambda k: valid[:k]),
            st.integers(0, len(valid) - 1).map(lambda k: valid[:k] + "A" + valid[k + 1 :]),
        )
    )


SENT = {"requests": 0}


def checked(call: Callable[[], Any]) -> bool:
    """Make the call; True if it succeeded. Fails the test on a forbidden answer."""
    SENT["requests"] += 1
    try:
        response = call()
    except grpc.RpcError as error:
        assert isinstance(error, grpc.Call)
        assert error.code() not in FORBIDDEN, (error.code(), error.details())
        assert len(error.details() or "") <= MAX_DETAILS, error.details()
        status = rpc_status.from_call(error)
        assert status is not None, (error.code(), error.details())
        reasons = []
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reasons.append(info)
        assert len(reasons) == 1 and reasons[0].domain == "tarok.v1" and reasons[0].reason
        assert all(len(v) <= 128 for v in reasons[0].metadata.values())
        return False
    for message in response if isinstance(response, list) else [response]:
        assert message.ByteSize() <= MAX_RESPONSE
    return True


def first(stream: Any) -> list[Any]:
    """The first message of a stream (then cancelled), as a list."""
    try:
        for item in stream:
            return [item]
        return []
    finally:
        stream.cancel()


@st.composite
def move_request(draw: st.DrawFn, store: Store) -> svc.SubmitMoveRequest:
    request = svc.SubmitMoveRequest(token=draw(tokens(store)), request_id=draw(HOSTILE))
    if draw(st.booleans()):
        request.move_id = draw(HOSTILE)
    else:
        spec = moves_pb2.MoveSpec(kind=draw(HOSTILE))
        argument = draw(st.sampled_from(["contract", "card", "announcement", "value", None]))
        if argument is not None:
            setattr(spec, argument, draw(HOSTILE))
        request.spec.CopyFrom(spec)
    if draw(st.booleans()):
        request.expected_version = draw(INT64)
    return request


def join_request(data: st.DataObject, store: Store) -> svc.JoinTableRequest:
    """A JoinTableRequest of hostile values, with or without a seat."""
    request = svc.JoinTableRequest(
        table_id=data.draw(st.one_of(st.just(store.table_id), HOSTILE)),
        name=data.draw(HOSTILE),
        spectator=data.draw(st.booleans()),
        request_id=data.draw(HOSTILE),
    )
    if data.draw(st.booleans()):
        request.seat = data.draw(INT32)
    return request


def fuzz_once(store: Store, data: st.DataObject) -> None:
    stub = store.server.stub
    before = store.count()
    writes = [
        lambda: stub.CreateTable(
            svc.CreateTableRequest(
                variant=data.draw(st.one_of(HOSTILE, st.sampled_from(["slovenian", "taroky"]))),
                players=data.draw(INT32),
                options=data.draw(st.dictionaries(HOSTILE, HOSTILE, max_size=3)),
                hands=data.draw(INT32),
                preset_deals=[
                    cards_pb2.Deal(cards=d)
                    for d in data.draw(st.lists(st.lists(HOSTILE, max_size=5), max_size=2))
                ],
            ),
            timeout=30,
        ),
        lambda: stub.JoinTable(join_request(data, store), timeout=30),
        lambda: stub.SubmitMove(data.draw(move_request(store)), timeout=30),
    ]
    wrote = [checked(call) for call in writes]
    if not any(wrote):
        assert store.count() == before, "a refused request wrote to the store"
    reads = [
        lambda: stub.GetTableView(svc.GetTableViewRequest(token=data.draw(tokens(store)))),
        lambda: first(
            stub.WatchTable(
                svc.WatchTableRequest(
                    token=data.draw(tokens(store)),
                    from_version=data.draw(INT64),
                    with_views=data.draw(st.booleans()),
                ),
                timeout=30,
            )
        ),
        lambda: stub.GetTableLog(
            svc.GetTableLogRequest(
                token=data.draw(tokens(store)),
                format=data.draw(st.integers(-3, 9)),  # type: ignore[arg-type]
                page_size=data.draw(INT32),
                page_token=data.draw(HOSTILE),
            ),
            timeout=30,
        ),
        lambda: stub.Ping(svc.PingRequest(payload=data.draw(st.binary(max_size=64))), timeout=30),
        lambda: store.tournaments.GetTournament(
            ts.GetTournamentRequest(tournament_id=data.draw(HOSTILE)), timeout=30
        ),
        lambda: store.tournaments.ExportTournament(
            ts.ExportTournamentRequest(tournament_id=data.draw(HOSTILE)), timeout=30
        ),
        lambda: store.tournaments.GetRatings(
            ts.GetRatingsRequest(variant=data.draw(HOSTILE)), timeout=30
        ),
        lambda: first(
            store.tournaments.StreamMyTurns(
                ts.StreamMyTurnsRequest(
                    tokens=data.draw(st.lists(tokens(store), max_size=3)),
                    seen=data.draw(st.dictionaries(HOSTILE, INT64, max_size=2)),
                ),
                timeout=30,
            )
        ),
    ]
    for call in reads:
        checked(call)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def run_fuzz(store: Store, data: st.DataObject) -> None:
    fuzz_once(store, data)


def test_hostile_requests_get_clear_errors_and_write_nothing(store: Store) -> None:
    sent = SENT["requests"]
    run_fuzz(store)
    assert SENT["requests"] - sent >= 2_000
    assert view(store.server.stub, store.tokens[0]).table_id == store.table_id


def test_undecodable_bytes_for_every_method_are_invalid_argument(store: Store) -> None:
    from google.protobuf.descriptor import FieldDescriptor
    from tarok_proto.tarok.v1 import tarok_service_pb2, tournament_service_pb2

    junk = [b"\xff\xff\xff\xff", b"\x0a\x05ab", b"\x08" + b"\xff" * 11]
    bad_utf8 = b"\x0a\x02\xff\xfe"  # field 1 holding bytes that are not UTF-8
    for module in (tarok_service_pb2, tournament_service_pb2):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                path = f"/{service.full_name}/{method.name}"
                field = method.input_type.fields_by_number.get(1)
                string = field is not None and field.type == FieldDescriptor.TYPE_STRING
                for raw in [*junk, bad_utf8] if string else junk:
                    if method.server_streaming:
                        streaming = store.server.channel.unary_stream(path, None, None)
                        assert not checked(call_with(drained(streaming), raw)), path
                    else:
                        unary = store.server.channel.unary_unary(path, None, None)
                        assert not checked(call_with(unary, raw)), path


def call_with(method: Callable[..., Any], request: Any) -> Callable[[], Any]:
    return lambda: method(request, timeout=30)


def drained(streaming: Callable[..., Any]) -> Callable[..., Any]:
    return lambda request, timeout: first(streaming(request, timeout=timeout))
