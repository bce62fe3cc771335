"""Fixtures: one in-process server per module with its HTTP port on, and a `stub` per transport.

`stub` is parametrized over the browser protocols (Connect JSON and binary, gRPC-Web binary
and JSON) and over native gRPC spoken to the HTTP port, so every service test collected here
runs once per transport.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.main import running

from ..service.harness import ServerThread, config
from .harness import TRANSPORTS, HttpStub

ORIGIN = "http://localhost:5173"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running_server = ServerThread(
        config(http_port=0, http_host="127.0.0.1", cors_origins=(ORIGIN,))
    )
    yield running_server
    running_server.stop()


def http_url(server: ServerThread) -> str:
    http = running(server.server).http
    assert http is not None
    return f"http://127.0.0.1:{http.port}"


@pytest.fixture(params=(*TRANSPORTS, "grpc-on-http-port"))
def stub(server: ServerThread, request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "grpc-on-http-port":
        http = running(server.server).http
        assert http is not None
        with grpc.insecure_channel(f"127.0.0.1:{http.port}") as channel:
            yield svc_grpc.TarokServiceStub(channel)
        return
    yield HttpStub(http_url(server), request.param)
