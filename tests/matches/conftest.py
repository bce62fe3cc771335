"""Fixtures for the players' games tests: one in-process server per module, HTTP port on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..service.harness import ServerThread, config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config(http_port=0, http_host="127.0.0.1"))
    yield running
    running.stop()
