"""Fixtures for the tournament tests: one in-process server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..service.harness import ServerThread, config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()
