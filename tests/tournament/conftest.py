"""Fixtures for the tournament tests: one in-process server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..service.harness import ServerThread
from .helpers import tour_config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(tour_config())
    yield running
    running.stop()
