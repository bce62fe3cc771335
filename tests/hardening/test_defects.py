"""One test per defect found by attacking the server as a hostile or careless client would.

Each of these failed on the server before the hardening work; the numbers are the defects'.
"""

from __future__ import annotations

import base64
import io
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from tarok_service.server.main import running
from tarok_service.server.usecases import watch as logs
from tarok_service.server.usecases.tokens import Claim, TokenSigner
from tests.service.harness import (
    PLAYING,
    SECRET,
    ServerThread,
    config,
    create,
    error_of,
    expect_error,
    new_table,
    play_out,
    view,
)

INVALID = grpc.StatusCode.INVALID_ARGUMENT
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
DENIED = grpc.StatusCode.PERMISSION_DENIED
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running_server = ServerThread(config())
    yield running_server
    running_server.stop()


def call(method: Callable[..., Any], request: Any) -> Callable[[], Any]:
    """A call of `method` with `request`, to be made later."""
    return lambda: method(request, timeout=60)


def first_of(stream: Any) -> Any:
    """The first message of a server stream."""
    for item in stream:
        return item
    raise AssertionError("the stream ended without a message")


def drained(streaming: Callable[..., Any]) -> Callable[..., Any]:
    """A server-streaming method as a call returning every message."""
    return lambda request, timeout: list(streaming(request, timeout=timeout))


def raised(error: BaseException) -> Callable[[], Any]:
    """A call that raises `error` (to inspect an error already caught)."""

    def again() -> Any:
        raise error

    return again


def claims_cached(server: ServerThread) -> int:
    return len(running(server.server).app.ctx._claims)


def turn_of(server: ServerThread, tokens: list[str]) -> tuple[int, str]:
    """(seat to move, a legal move id of that seat)."""
    seat = view(server.stub, tokens[0]).hand.turn
    legal = view(server.stub, tokens[seat]).hand.legal_moves
    return seat, legal[0].id


# 1. Tokens: strict, canonical, size-limited; the claim cache is bounded.


def test_1_padded_malleable_or_oversized_tokens_are_refused(server: ServerThread) -> None:
    stub = server.stub
    table_id = create(stub)
    token = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
    body, sig = token.split(".")
    flipped = "B" if sig[-1] == "A" else "A"  # another spelling of the same last bits, or not
    variants = [
        token + "==",
        token + "=",
        body + "=." + sig,
        body + "." + sig[:10] + "!" + sig[10:],
        body + "." + sig[:10] + "\n" + sig[10:],
        " " + token,
        token + "A",
        token[:-1] + flipped,
        token + "." + sig,
        token + "%" * 10_000,
        token + "A" * 900_000,
    ]
    before = claims_cached(server)
    for bad in variants:
        request = svc.GetTableViewRequest(token=bad)
        expect_error(call(stub.GetTableView, request), UNAUTHENTICATED, "BAD_TOKEN")
    assert view(stub, token).table_id == table_id
    assert claims_cached(server) <= before + 1


def test_1_claim_cache_is_bounded_by_entries_and_bytes() -> None:
    from tarok_service.server.usecases.tokens import ClaimCache

    cache = ClaimCache(max_entries=100, max_bytes=100 * ClaimCache.ENTRY_BYTES + 5_000)
    for i in range(5_000):
        cache.put(f"token-{i}", Claim("t" * 64, 0, 2**40))
    assert len(cache) <= 100 and cache.bytes <= cache.max_bytes
    assert cache.get("token-4999") is not None and cache.get("token-0") is None
    for i in range(5_000):  # long keys count: the bytes bound holds with them too
        cache.put(f"{i}-" + "k" * 500, Claim("t" * 64, 0, 2**40))
    assert cache.bytes <= cache.max_bytes and len(cache) < 100


def test_1_tokens_carry_a_key_id_and_old_keys_still_verify() -> None:
    old = TokenSigner(b"old secret", 60)
    token, _ = old.issue("abc", 1, 1_000.0)
    rotated = TokenSigner([b"new secret", b"old secret"], 60)
    assert rotated.verify(token, 1_001.0).seat == 1
    fresh, _ = rotated.issue("abc", 2, 1_000.0)
    assert TokenSigner(b"new secret", 60).verify(fresh, 1_001.0).seat == 2
    with pytest.raises(Exception, match="signature"):
        old.verify(fresh, 1_001.0)


def test_1_a_rotated_server_accepts_tokens_of_its_previous_secret() -> None:
    old = ServerThread(config(secret=b"old secret"))
    try:
        table_id, tokens = new_table(old.stub)
    finally:
        old.stop()
    store_less = ServerThread(config(secret=b"new secret", previous_secrets=(b"old secret",)))
    try:
        code, reason, _ = error_of(lambda: view(store_less.stub, tokens[0]))
        assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "TABLE_NOT_FOUND")  # verified
    finally:
        store_less.stop()
    strict = ServerThread(config(secret=b"new secret"))
    try:
        expect_error(lambda: view(strict.stub, tokens[0]), UNAUTHENTICATED, "BAD_TOKEN")
    finally:
        strict.stop()
    assert table_id


# 2. A JoinTable request id is not a password.


def test_2_repeating_a_join_request_id_never_hands_out_the_seat_token(
    server: ServerThread,
) -> None:
    stub = server.stub
    table_id = create(stub)
    first = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, request_id="join-1"))
    for _ in range(3):
        stub.JoinTable(svc.JoinTableRequest(table_id=table_id))
    stolen = lambda: stub.JoinTable(  # noqa: E731
        svc.JoinTableRequest(table_id=table_id, request_id="join-1")
    )
    meta = expect_error(stolen, PRECONDITION, "ALREADY_JOINED")
    assert meta["seat"] == str(first.seat)
    other = lambda: stub.JoinTable(  # noqa: E731
        svc.JoinTableRequest(table_id=table_id, request_id="join-1", seat=3)
    )
    expect_error(other, INVALID, "REQUEST_ID_REUSED", field="request_id")


# 3. Request ids are scoped to the seat and bound to the request.


def test_3_a_seat_cannot_squat_the_next_seats_request_id(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub)
    seat, move = turn_of(server, tokens)
    stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move, request_id="bot-r1"))
    nxt, nxt_move = turn_of(server, tokens)
    assert nxt != seat
    reply = stub.SubmitMove(
        svc.SubmitMoveRequest(token=tokens[nxt], move_id=nxt_move, request_id="bot-r1")
    )
    assert reply.move.id == nxt_move
    assert view(stub, tokens[0]).version == reply.version


def test_3_same_request_id_with_another_move_is_request_id_reused(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub)
    seat, move = turn_of(server, tokens)
    first = stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move, request_id="r"))
    again = stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move, request_id="r"))
    assert again == first
    other = lambda: stub.SubmitMove(  # noqa: E731
        svc.SubmitMoveRequest(token=tokens[seat], move_id="pass:zzz", request_id="r")
    )
    expect_error(other, INVALID, "REQUEST_ID_REUSED", field="request_id")
    assert view(stub, tokens[0]).version == first.version


def test_3_bot_runner_request_ids_are_unpredictable() -> None:
    from tarok_client import runner

    source = Path(runner.__file__).read_text()
    assert "secrets.token_urlsafe" in source and "bot:{" not in source


# 4. Store failures are UNAVAILABLE with RetryInfo (the PostgreSQL outage: test_store_outage).


def retry_info(error: grpc.RpcError) -> list[Any]:
    assert isinstance(error, grpc.Call)
    status = rpc_status.from_call(error)
    assert status is not None
    out = []
    for detail in status.details:
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            out.append(retry)
    return out


def test_4_sqlite_lock_past_the_busy_timeout_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    server = ServerThread(config(store_url=f"sqlite:///{path}", store_timeout_seconds=0.2))
    try:
        table_id = create(server.stub)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(grpc.RpcError) as caught:
                server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id))
            code, reason, _ = error_of(raised(caught.value))
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
            assert retry_info(caught.value)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id)).seat == 0
    finally:
        server.stop()


@pytest.mark.postgres
def test_4_terminated_backends_are_unavailable_never_internal(postgres_dsn: str) -> None:
    import psycopg

    marked = postgres_dsn + ("&" if "?" in postgres_dsn else "?") + "application_name=tarok-kill"
    server = ServerThread(config(store_url=marked, store_timeout_seconds=2.0))
    try:
        stub = server.stub
        _, tokens = new_table(stub)
        codes: list[grpc.StatusCode] = []
        for _ in range(4):
            with psycopg.connect(postgres_dsn, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'tarok-kill' AND pid <> pg_backend_pid()"
                )
            for _ in range(3):
                try:
                    view(stub, tokens[0])
                    stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
                    codes.append(grpc.StatusCode.OK)
                except grpc.RpcError as error:
                    assert isinstance(error, grpc.Call)
                    codes.append(error.code())
                    assert error.code() == grpc.StatusCode.UNAVAILABLE, error.details()
                    assert retry_info(error)
        assert codes[-1] == grpc.StatusCode.OK
    finally:
        server.stop()


# 5. NUL bytes never reach the store.


def test_5_nul_in_table_id_or_request_id_is_invalid(any_server: ServerThread) -> None:
    stub = any_server.stub
    table_id = create(stub)
    expect_error(
        lambda: stub.JoinTable(svc.JoinTableRequest(table_id=table_id + "\x00")),
        INVALID,
        "INVALID_FIELD",
        field="table_id",
    )
    expect_error(
        lambda: stub.JoinTable(svc.JoinTableRequest(table_id=table_id, request_id="a\x00b")),
        INVALID,
        "INVALID_FIELD",
        field="request_id",
    )
    _, tokens = new_table(stub)
    before = view(stub, tokens[0]).version  # 6, or more after a deal thrown in
    seat = view(stub, tokens[0]).hand.turn
    legal = view(stub, tokens[seat]).hand.legal_moves[0].id
    expect_error(
        lambda: stub.SubmitMove(
            svc.SubmitMoveRequest(token=tokens[seat], move_id=legal, request_id="\x00")
        ),
        INVALID,
        "INVALID_FIELD",
        field="request_id",
    )
    assert view(stub, tokens[0]).version == before  # nothing written
    ratings = ts_grpc.TournamentServiceStub(any_server.channel)
    expect_error(
        lambda: ratings.GetRatings(ts.GetRatingsRequest(variant="slovenian\x00")),
        INVALID,
        "UNKNOWN_VARIANT",
        field="variant",
    )


# 6. Logs come in pages, built off the event loop.


def test_6_log_pages_join_up_to_the_whole_log(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub)
    play_out(stub, tokens, seed=3)
    whole = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[1], page_size=1000)).log
    events: list[Any] = []
    token, pages = "", 0
    while True:
        page = stub.GetTableLog(
            svc.GetTableLogRequest(token=tokens[1], page_size=7, page_token=token)
        )
        events.extend(page.log.events)
        assert page.log.version == whole.version and page.log.complete == whole.complete
        pages += 1
        token = page.next_page_token
        if not token:
            break
    assert list(events) == list(whole.events) and pages == -(-len(whole.events) // 7)
    for bad in ("x", "cDE6MTow", base64.urlsafe_b64encode(b"p1:9999:99999").decode(), "=" * 99):
        expect_error(
            call(stub.GetTableLog, svc.GetTableLogRequest(token=tokens[1], page_token=bad)),
            INVALID,
            "INVALID_FIELD",
            field="page_token",
        )
    expect_error(
        lambda: stub.GetTableLog(svc.GetTableLogRequest(token=tokens[1], page_size=-1)),
        INVALID,
        "INVALID_FIELD",
        field="page_size",
    )


def test_6_a_log_page_being_built_does_not_hold_up_other_calls(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub = server.stub
    _, tokens = new_table(stub)
    pinged = threading.Event()
    inner = logs._page

    def slow_page(*args: Any) -> Any:
        assert pinged.wait(60), "a Ping could not be answered while a log page was built"
        return inner(*args)

    monkeypatch.setattr(logs, "_page", slow_page)
    result: list[Any] = []
    reader = threading.Thread(
        target=lambda: result.append(stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])))
    )
    reader.start()
    assert stub.Ping(svc.PingRequest(payload=b"x"), timeout=60).payload == b"x"
    pinged.set()
    reader.join(60)
    assert result and len(result[0].log.events) == 6


# 7. Watch slots are shared out per caller.


def test_7_one_caller_cannot_take_every_watch_slot() -> None:
    server = ServerThread(config(max_watchers=10, max_watchers_per_principal=2))
    try:
        stub = server.stub
        table_id, tokens = new_table(stub)
        spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True))
        streams = [stub.WatchTable(svc.WatchTableRequest(token=spectator.token)) for _ in range(2)]
        for stream in streams:
            assert first_of(stream).HasField("view")
        extra = stub.WatchTable(svc.WatchTableRequest(token=spectator.token))
        expect_error(lambda: first_of(extra), EXHAUSTED, "TOO_MANY_WATCHERS")
        mine = stub.WatchTable(svc.WatchTableRequest(token=tokens[2]))
        assert first_of(mine).view.seat == 2
        for stream in [*streams, mine]:
            stream.cancel()  # type: ignore[no-untyped-call]
    finally:
        server.stop()


# 8. Undecodable requests are INVALID_ARGUMENT with an ErrorInfo.


@pytest.mark.parametrize(
    "raw", [b"\xff\xff\xff\xff", b"\x0a\x02\xff\xfe", b"\x0a\x05ab", b"\x12\x80"]
)
def test_8_undecodable_requests_are_invalid_argument(server: ServerThread, raw: bytes) -> None:
    for method in ("JoinTable", "GetTableView", "SubmitMove", "CreateTable", "WatchTable"):
        path = f"/tarok.v1.TarokService/{method}"
        if method == "WatchTable":
            streaming = server.channel.unary_stream(path, None, None)
            code, reason, _ = error_of(call(drained(streaming), raw))
        else:
            unary = server.channel.unary_unary(path, None, None)
            code, reason, _ = error_of(call(unary, raw))
        assert (code, reason) == (INVALID, "MALFORMED_REQUEST"), method


# 9. Bad input is never echoed without a bound, nor logged raw.


def test_9_huge_or_binary_input_is_refused_with_a_short_message(
    server: ServerThread, captured: io.StringIO
) -> None:
    stub = server.stub
    huge = "\x00v" * 150_000
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: stub.CreateTable(svc.CreateTableRequest(variant=huge, players=4)), "variant"),
        (lambda: stub.JoinTable(svc.JoinTableRequest(table_id=huge)), "table_id"),
        (
            lambda: stub.CreateTable(
                svc.CreateTableRequest(variant="slovenian", players=4, options={huge: huge})
            ),
            "options",
        ),
        (lambda: stub.JoinTable(svc.JoinTableRequest(table_id="abc", name=huge)), "name"),
    ]
    for make, field in calls:
        with pytest.raises(grpc.RpcError) as caught:
            make()
        error = caught.value
        assert isinstance(error, grpc.Call)
        assert error.code() == INVALID, (field, error.code(), error.details())
        assert len(error.details() or "") <= 300
        _, _, meta = error_of(raised(error))
        assert meta.get("field") == field and all(len(v) <= 128 for v in meta.values())
    deadline = time.monotonic() + 30
    while captured.getvalue().count('"rpc"') < len(calls) and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    assert len([x for x in lines if x["event"] == "rpc"]) >= len(calls)
    for line in lines:
        text = json.dumps(line)
        assert len(text) < 2_000 and "\\u0000" not in text, text[:200]


# 10. A signed token is trusted only within its table's shape.


def test_10_a_token_for_a_seat_the_table_does_not_have_is_denied(server: ServerThread) -> None:
    stub = server.stub
    table_id, tokens = new_table(stub)
    forged, _ = TokenSigner(SECRET, 3600).issue(table_id, 9, time.time())
    expect_error(lambda: view(stub, forged), DENIED, "BAD_TOKEN")
    expect_error(
        lambda: stub.SubmitMove(svc.SubmitMoveRequest(token=forged, move_id="pass")),
        DENIED,
        "BAD_TOKEN",
    )
    expect_error(
        lambda: first_of(stub.WatchTable(svc.WatchTableRequest(token=forged))), DENIED, "BAD_TOKEN"
    )
    expect_error(
        lambda: stub.GetTableLog(svc.GetTableLogRequest(token=forged)), DENIED, "BAD_TOKEN"
    )
    assert view(stub, tokens[0]).status == PLAYING
