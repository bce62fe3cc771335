"""One in-process server per module, its gRPC and HTTP ports on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..service.harness import ServerThread, config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config(http_port=0, http_host="127.0.0.1", operator_key="op-key-1"))
    yield running
    running.stop()
