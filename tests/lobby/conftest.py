"""Fixtures for the lobby tests: one in-process server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.harness import ServerThread, config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()


@pytest.fixture
def stub(server: ServerThread) -> svc_grpc.TarokServiceStub:
    return server.stub
