"""A client that goes away mid-stream (a cancelled gRPC call, a browser tab closed on the HTTP
port) ends the call as CANCELLED in the access log and the metrics: not a server fault."""

from __future__ import annotations

import http.client
import io
import json
import struct
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running
from tarok_service.server.transport.observe import flush_access_log

from ..service.harness import ServerThread, config, create, hang_up

WATCH = "/tarok.v1.TarokService/WatchTable"


@pytest.fixture
def server(captured: io.StringIO) -> Iterator[ServerThread]:
    running_server = ServerThread(config(http_port=0, http_host="127.0.0.1"))
    yield running_server
    running_server.stop()


def _spectator(server: ServerThread) -> str:
    table_id = create(server.stub)
    joined = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True))
    return str(joined.token)


def _watch_lines(captured: io.StringIO) -> list[dict[str, object]]:
    flush_access_log()
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    return [x for x in lines if x.get("event") == "rpc" and x.get("method") == WATCH]


def _errors(captured: io.StringIO) -> list[str]:
    """The lines logged at error level or above."""
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    return [x for x in lines if x.get("level") in ("error", "critical", "exception")]


def _until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll `condition` (the server ends the call on its own loop) for up to `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the call did not end"
        threading.Event().wait(0.05)


def _requests(server: ServerThread, code: str) -> float:
    family = running(server.server).app.ctx.metrics.rpc_requests
    return float(family.labels(WATCH, code).value)


def test_a_cancelled_grpc_stream_is_logged_cancelled(
    server: ServerThread, captured: io.StringIO
) -> None:
    stream = server.stub.WatchTable(svc.WatchTableRequest(token=_spectator(server)))
    first = next(iter(stream))
    assert first.WhichOneof("item") == "view"
    hang_up(stream)
    _until(lambda: bool(_watch_lines(captured)))
    (line,) = _watch_lines(captured)
    assert line["code"] == "CANCELLED" and line["level"] == "info", line
    assert _requests(server, "CANCELLED") == 1 and _requests(server, "UNKNOWN") == 0
    assert not _errors(captured)


def test_a_closed_browser_connection_is_logged_cancelled(
    server: ServerThread, captured: io.StringIO
) -> None:
    port = running(server.server).http
    assert port is not None
    body = json.dumps({"token": _spectator(server)}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port.port, timeout=30)
    conn.request(
        "POST",
        WATCH,
        struct.pack(">BI", 0, len(body)) + body,
        {"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"},
    )
    reply = conn.getresponse()
    assert reply.status == 200
    flags, size = struct.unpack(">BI", reply.read(5))
    assert flags == 0 and "view" in json.loads(reply.read(size))
    conn.close()  # the tab closes: the connection goes away mid-stream
    _until(lambda: bool(_watch_lines(captured)))
    (line,) = _watch_lines(captured)
    assert line["code"] == "CANCELLED" and line["level"] == "info", line
    assert _requests(server, "CANCELLED") == 1 and _requests(server, "UNKNOWN") == 0
    assert not _errors(captured)
