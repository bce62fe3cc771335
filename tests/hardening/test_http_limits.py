"""The HTTP port limits what it reads while it reads it, and answers bad input as the gRPC
port does (issue 29, the HTTP port's class).

Each test sends raw bytes (`wire.py`) so that it controls what a client library would hide:
heads without bodies, bodies that never end, envelope prefixes that lie, corrupt messages.
"""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import time
import tracemalloc
from collections.abc import Iterator

import grpc
import pytest
from connectrpc.compression.gzip import GzipCompression
from connectrpc.errors import ConnectError
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running
from tarok_service.server.transport.http.decode import BoundedGzip
from tests.service.harness import ServerThread, config, new_table

from .wire import PING, Answer, connect, envelope, exchange, head, outcome, post, read_answer

LIMIT = 64 << 10  # the server's max_message_bytes here
JOIN = "/tarok.v1.TarokService/JoinTable"
WATCH = "/tarok.v1.TarokService/WatchTable"
JSON = "application/json"
PROTO = "application/proto"
WEB = "application/grpc-web+proto"
WEB_JSON = "application/grpc-web+json"
STREAM_JSON = "application/connect+json"
BOMB = gzip.compress(svc.PingRequest(payload=bytes(16 << 20)).SerializeToString())


def http_port(server: ServerThread) -> int:
    http = running(server.server).http
    assert http is not None
    return http.port


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running_server = ServerThread(
        config(
            http_port=0,
            http_host="127.0.0.1",
            max_message_bytes=LIMIT,
            http_body_timeout_seconds=1.0,
            http_idle_timeout_seconds=1.0,
            max_watchers_per_principal=2,
        )
    )
    yield running_server
    running_server.stop()


@pytest.fixture(scope="module")
def port(server: ServerThread) -> int:
    return http_port(server)


# Limits while reading ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "body", "headers"),
    [
        (PROTO, BOMB, {"Content-Encoding": "gzip"}),
        (WEB, envelope(BOMB, flags=1), {"Grpc-Encoding": "gzip"}),
    ],
    ids=["connect", "grpc-web"],
)
def test_a_compressed_bomb_is_refused_while_inflating(
    port: int, content_type: str, body: bytes, headers: dict[str, str]
) -> None:
    assert len(body) < LIMIT  # small on the wire, 16 MiB inflated
    answer = post(port, PING, body, content_type, **headers)
    assert outcome(answer, content_type) == ("resource_exhausted", "MESSAGE_TOO_LARGE")


def test_bounded_inflation_never_holds_the_whole_message() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(ConnectError):
            BoundedGzip(LIMIT).decompress(BOMB)
        bounded_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        GzipCompression().decompress(BOMB)  # what the runtime does on its own
        plain_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert bounded_peak < 8 * LIMIT < (16 << 20) <= plain_peak


@pytest.mark.parametrize("content_type", [JSON, WEB])
def test_a_declared_length_over_the_limit_is_refused_before_the_body(
    port: int, content_type: str
) -> None:
    headers = {"Content-Type": content_type, "Content-Length": str(200 << 20)}
    answer = exchange(port, head(PING, headers))  # no body sent at all
    assert outcome(answer, content_type) == ("resource_exhausted", "MESSAGE_TOO_LARGE")


@pytest.mark.parametrize("content_type", [PROTO, WEB])
def test_a_chunked_body_is_counted_while_it_streams(port: int, content_type: str) -> None:
    headers = {"Content-Type": content_type, "Transfer-Encoding": "chunked"}
    # One message of exactly the limit (an envelope prefix claiming it, for gRPC-Web), then
    # more bytes, and never the end of the body.
    start = b"\x00" + LIMIT.to_bytes(4, "big") if content_type == WEB else b""
    body = start + b"\x00" * (LIMIT + (16 << 10))
    with connect(port) as sock:
        sock.sendall(head(PING, headers))
        for at in range(0, len(body), 16 << 10):
            chunk = body[at : at + (16 << 10)]
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        answer = read_answer(sock)
    assert outcome(answer, content_type) == ("resource_exhausted", "MESSAGE_TOO_LARGE")


def test_an_envelope_is_checked_from_its_length_prefix(port: int) -> None:
    headers = {"Content-Type": WEB, "Transfer-Encoding": "chunked"}
    lying = b"\x00\xff\xff\xff\xff" + b"x" * 100  # claims 4 GiB, sends 100 bytes, waits
    with connect(port) as sock:
        sock.sendall(head(PING, headers) + b"%x\r\n%s\r\n" % (len(lying), lying))
        answer = read_answer(sock)
    assert outcome(answer, WEB) == ("resource_exhausted", "MESSAGE_TOO_LARGE")


@pytest.mark.parametrize("content_type", [JSON, WEB])
def test_a_stalled_body_is_refused(port: int, content_type: str) -> None:
    headers = {"Content-Type": content_type, "Content-Length": "100"}
    start = b"\x00" + (95).to_bytes(4, "big") + b"\x0a" if content_type == WEB else b'{"pa'
    with connect(port) as sock:
        sock.sendall(head(PING, headers) + start)  # the rest of the 100 bytes never comes
        answer = read_answer(sock)
    assert outcome(answer, content_type) == ("deadline_exceeded", "REQUEST_STALLED")


def test_a_connection_that_stops_in_its_head_is_closed(port: int) -> None:
    with connect(port, timeout=20) as sock:
        sock.sendall(b"POST /tarok.v1.TarokService/Ping HTTP/1.1\r\nHost: x\r\n")
        assert sock.recv(1024) == b""  # closed by the server (the idle timeout, 1 s here)


# Bad input: MALFORMED_REQUEST, as on the gRPC port ---------------------------------------

GZIP = {"Content-Encoding": "gzip"}
BAD_UTF8 = b"\x0a\x02\xff\xfe"  # JoinTableRequest.table_id (a string) that is not UTF-8
MALFORMED = [
    ("bad-json", PING, JSON, b'{"payload": ', {}),
    ("wrong-type", PING, JSON, b'{"payload": 5}', {}),
    ("unknown-field", PING, JSON, b'{"nope": 1}', {}),
    ("deep-nesting", PING, JSON, b'{"payload": ' + b"[" * 20_000 + b"]" * 20_000 + b"}", {}),
    ("json-bad-utf8", JOIN, JSON, b'{"tableId": "\xff\xfe"}', {}),
    ("bad-gzip", PING, JSON, b"not gzip at all", {"Content-Encoding": "gzip"}),
    ("truncated-gzip", PING, JSON, gzip.compress(b'{"payload": ""}')[:-12], GZIP),
    ("corrupt-proto", PING, PROTO, b"\xff\xff\xff\xff", {}),
    ("proto-bad-utf8", JOIN, PROTO, BAD_UTF8, {}),
    ("web-corrupt-proto", PING, WEB, envelope(b"\xff\xff\xff\xff"), {}),
    ("web-bad-utf8", JOIN, WEB, envelope(BAD_UTF8), {}),
    ("web-bad-json", PING, WEB_JSON, envelope(b"{"), {}),
    ("web-compressed-flag-without-encoding", PING, WEB, envelope(b"\x0a\x00", flags=1), {}),
    ("web-bad-gzip", PING, WEB, envelope(b"junk", flags=1), {"Grpc-Encoding": "gzip"}),
    ("stream-bad-json", WATCH, STREAM_JSON, envelope(b"{"), {}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "content_type", "body", "headers"),
    [case[1:] for case in MALFORMED],
    ids=[case[0] for case in MALFORMED],
)
def test_malformed_requests_are_invalid_argument(
    port: int, path: str, content_type: str, body: bytes, headers: dict[str, str]
) -> None:
    answer = post(port, path, body, content_type, **headers)
    assert outcome(answer, content_type) == ("invalid_argument", "MALFORMED_REQUEST")


@pytest.mark.parametrize("content_type", [JSON, PROTO, WEB, STREAM_JSON])
def test_an_unknown_method_is_unimplemented(port: int, content_type: str) -> None:
    answer = post(port, "/tarok.v1.TarokService/NoSuchMethod", b"", content_type)
    assert outcome(answer, content_type) == ("unimplemented", "UNKNOWN_METHOD")


def test_an_unknown_method_over_grpc_on_the_http_port_is_unimplemented(port: int) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary("/tarok.v1.TarokService/NoSuchMethod", None, None)
        with pytest.raises(grpc.RpcError) as raised:
            call(b"", timeout=10)
    assert raised.value.code() == grpc.StatusCode.UNIMPLEMENTED


# Addresses: one client is one address ----------------------------------------------------


def _watch(port: int, token: str) -> tuple[socket.socket, Answer | None]:
    """A WatchTable stream over Connect: (its socket, None) while it streams, else the answer."""
    message = json.dumps({"token": token}).encode()
    body = envelope(message)
    sock = connect(port, timeout=20)
    headers = {"Content-Type": STREAM_JSON, "Content-Length": str(len(body))}
    sock.sendall(head(WATCH, headers) + body)
    response = read_answer_head(sock)
    return sock, response


def read_answer_head(sock: socket.socket) -> Answer | None:
    """None when the first envelope is a message (the stream is open), else the answer."""
    response = http.client.HTTPResponse(sock)
    response.begin()
    first = response.read(5)
    flags, length = first[0], int.from_bytes(first[1:5], "big")
    frame = response.read(length)
    if flags & 0x02:
        return Answer(response.status, {}, first + frame)
    return None


def test_one_clients_http_connections_count_as_one_address(server: ServerThread, port: int) -> None:
    table_id, _ = new_table(server.stub)
    token = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
    opened = []
    try:
        for _ in range(2):  # max_watchers_per_principal
            sock, refused = _watch(port, token)
            opened.append(sock)
            assert refused is None
        sock, refused = _watch(port, token)  # a third connection from the same address
        opened.append(sock)
        assert refused is not None
        assert outcome(refused, STREAM_JSON) == ("resource_exhausted", "TOO_MANY_WATCHERS")
    finally:
        for sock in opened:
            sock.close()


@pytest.fixture(scope="module")
def capped() -> Iterator[ServerThread]:
    running_server = ServerThread(
        config(
            http_port=0,
            http_host="127.0.0.1",
            http_connections_per_address=3,
            http_idle_timeout_seconds=1.0,
        )
    )
    yield running_server
    running_server.stop()


@pytest.fixture(scope="module")
def static(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    root = tmp_path_factory.mktemp("static")
    (root / "index.html").write_text("<title>tarok</title>")
    running_server = ServerThread(config(http_port=0, http_host="127.0.0.1", static_dir=str(root)))
    yield running_server
    running_server.stop()


def _ping(sock: socket.socket) -> Answer:
    sock.sendall(head(PING, {"Content-Type": JSON, "Content-Length": "2"}) + b"{}")
    return read_answer(sock)


def test_connections_per_address_are_capped(capped: ServerThread) -> None:
    port = http_port(capped)
    held = [connect(port) for _ in range(3)]
    try:
        for sock in held:
            assert _ping(sock).status == 200  # kept alive, each holding a slot
        with connect(port, timeout=20) as extra:
            try:
                closed = extra.recv(1) == b""  # closed at once, before any request
            except ConnectionResetError:
                closed = True
            assert closed
        held.pop().close()
        deadline = time.monotonic() + 20
        while True:  # the slot comes back once the server has seen the close
            with connect(port) as again:
                try:
                    if _ping(again).status == 200:
                        break
                except (ConnectionError, http.client.HTTPException):
                    pass
            assert time.monotonic() < deadline, "the closed connection's slot never came back"
    finally:
        for sock in held:
            sock.close()
    assert running(capped.server).http.slots.refused >= 1  # type: ignore[union-attr]


def test_an_over_long_static_path_is_a_client_error(static: ServerThread) -> None:
    port = http_port(static)
    for path in ("/" + "a" * 5000, "/" + "b" * 300 + ".js", "/" + "/".join(["c" * 250] * 3)):
        answer = exchange(port, head(path, {}, method="GET"))
        assert 400 <= answer.status < 500 or answer.status == 200, (path[:20], answer.status)
        assert answer.status != 500


def test_a_path_longer_than_any_file_name_is_414(static: ServerThread) -> None:
    answer = exchange(http_port(static), head("/" + "a" * 5000 + ".js", {}, method="GET"))
    assert answer.status == 414


def test_static_root_still_served(static: ServerThread) -> None:
    answer = exchange(http_port(static), head("/", {}, method="GET"))
    assert answer.status == 200 and b"tarok" in answer.body
