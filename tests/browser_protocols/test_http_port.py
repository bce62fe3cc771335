"""The HTTP port as a browser and curl see it: Connect JSON over HTTP/1.1, CORS, static files,
and the same metrics as the gRPC port."""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running

from ..service.harness import ServerThread, config
from .conftest import ORIGIN, http_url
from .harness import HttpStub

JSON = {"content-type": "application/json"}


def _request(
    server: ServerThread,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request: (status, headers in lower case, body)."""
    port = running(server.server).http
    assert port is not None
    conn = http.client.HTTPConnection("127.0.0.1", port.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def _post(server: ServerThread, rpc: str, payload: dict[str, Any], **headers: str) -> Any:
    return _request(server, "POST", f"/tarok.v1.TarokService/{rpc}", json.dumps(payload).encode(),
                    {**JSON, **headers})  # fmt: skip


def test_connect_json_over_http1_lists_variants_and_creates_a_table(server: ServerThread) -> None:
    status, _, body = _post(server, "ListVariants", {})
    assert status == 200
    ids = [v["id"] for v in json.loads(body)["variants"]]
    assert "slovenian" in ids and "taroky" in ids
    status, _, body = _post(server, "CreateTable", {"variant": "slovenian", "players": 4})
    assert status == 200
    table_id = json.loads(body)["tableId"]
    status, _, body = _post(server, "JoinTable", {"tableId": table_id, "name": "ana"})
    assert status == 200 and json.loads(body)["seat"] == 0


def test_connect_errors_carry_the_code_and_error_info(server: ServerThread) -> None:
    status, headers, body = _post(server, "CreateTable", {"variant": "nope", "players": 4})
    assert status == 400 and headers["content-type"] == "application/json"
    error = json.loads(body)
    assert error["code"] == "invalid_argument" and "nope" in error["message"]
    [detail] = error["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert (info.reason, info.domain, dict(info.metadata)) == (
        "UNKNOWN_VARIANT", "tarok.v1", {"field": "variant"},
    )  # fmt: skip
    status, _, body = _post(server, "GetTableView", {"token": "garbage"})
    assert status == 401 and json.loads(body)["code"] == "unauthenticated"


def test_cors_preflight_from_an_allowed_origin_succeeds(server: ServerThread) -> None:
    status, headers, _ = _request(
        server,
        "OPTIONS",
        "/tarok.v1.TarokService/CreateTable",
        headers={
            "origin": ORIGIN,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,connect-protocol-version",
        },
    )
    assert status == 204
    assert headers["access-control-allow-origin"] == ORIGIN
    assert "POST" in headers["access-control-allow-methods"]
    assert "connect-protocol-version" in headers["access-control-allow-headers"]
    status, headers, _ = _post(server, "ListVariants", {}, origin=ORIGIN)
    assert status == 200 and headers["access-control-allow-origin"] == ORIGIN
    assert "grpc-status-details-bin" in headers["access-control-expose-headers"]


def test_cors_refuses_other_origins(server: ServerThread) -> None:
    evil = "http://evil.example"
    status, headers, _ = _request(
        server,
        "OPTIONS",
        "/tarok.v1.TarokService/CreateTable",
        headers={"origin": evil, "access-control-request-method": "POST"},
    )
    assert status == 403 and "access-control-allow-origin" not in headers
    before = _tables(server)
    status, headers, _ = _post(
        server, "CreateTable", {"variant": "slovenian", "players": 4}, origin=evil
    )
    assert status == 403 and "access-control-allow-origin" not in headers
    assert _tables(server) == before  # nothing was created


def _tables(server: ServerThread) -> int:
    metrics = running(server.server).app.ctx.metrics
    value = metrics.registry.get_sample_value(
        "tarok_tables_created_total", {"variant": "slovenian"}
    )
    return int(value or 0)


def test_both_transports_share_metrics(server: ServerThread) -> None:
    metrics = running(server.server).app.ctx.metrics
    labels = {"method": "/tarok.v1.TarokService/Ping", "code": "OK"}
    before = metrics.registry.get_sample_value("tarok_rpc_requests_total", labels) or 0
    HttpStub(http_url(server), "connect-proto").Ping(svc.PingRequest(payload=b"x"))
    HttpStub(http_url(server), "grpc-web").Ping(svc.PingRequest(payload=b"y"))
    server.stub.Ping(svc.PingRequest(payload=b"z"))
    assert metrics.registry.get_sample_value("tarok_rpc_requests_total", labels) == before + 3


@pytest.fixture
def static_server(tmp_path: Path) -> Iterator[ServerThread]:
    (tmp_path / "index.html").write_text("<!doctype html><title>tarok</title>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app.js").write_text("console.log('tarok')")
    (tmp_path.parent / "secret.txt").write_text("not for the web")
    running_server = ServerThread(
        config(http_port=0, http_host="127.0.0.1", static_dir=str(tmp_path))
    )
    yield running_server
    running_server.stop()


def test_static_files_next_to_the_api(static_server: ServerThread) -> None:
    status, headers, body = _request(static_server, "GET", "/")
    assert status == 200 and b"<title>tarok</title>" in body
    assert headers["content-type"].startswith("text/html")
    status, headers, body = _request(static_server, "GET", "/assets/app.js")
    assert status == 200 and body == b"console.log('tarok')"
    assert "javascript" in headers["content-type"]
    status, _, body = _request(static_server, "GET", "/table/abc")  # an app route
    assert status == 200 and b"<title>tarok</title>" in body
    assert _request(static_server, "GET", "/assets/missing.js")[0] == 404
    for sneaky in ("/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt"):
        status, _, body = _request(static_server, "GET", sneaky)
        assert b"not for the web" not in body and status in (200, 404), sneaky
    assert _request(static_server, "DELETE", "/")[0] == 405
    status, _, body = _request(static_server, "POST", "/tarok.v1.TarokService/Ping", b"{}", JSON)
    assert status == 200 and json.loads(body) == {}
