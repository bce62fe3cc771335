"""Fixtures for the players' games tests: one in-process server per module, HTTP port on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..service.harness import ServerThread, config


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    # Many guests sign in from one address here: the per-address sign-in limit is raised.
    cfg = config(http_port=0, http_host="127.0.0.1", guest_sign_ins_per_minute=10_000)
    running = ServerThread(cfg)
    yield running
    running.stop()
