"""Fixtures for the hardening tests: servers on SQLite and (when reachable) PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.service.harness import ServerThread, config


def with_port(dsn: str, host: str, port: int) -> str:
    """`dsn` with another host and port (user and database kept)."""
    parts = urlsplit(dsn)
    user = parts.netloc.rpartition("@")[0]
    netloc = f"{user}@{host}:{port}" if user else f"{host}:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


def endpoint(dsn: str) -> tuple[str, int]:
    parts = urlsplit(dsn)
    return parts.hostname or "127.0.0.1", parts.port or 5432


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def any_server(request: pytest.FixtureRequest) -> Iterator[ServerThread]:
    """A server on an in-memory SQLite store, then one on PostgreSQL."""
    if request.param == "sqlite":
        running = ServerThread(config())
    else:
        dsn: str = request.getfixturevalue("postgres_dsn")
        running = ServerThread(config(store_url=dsn))
    running.store_name = request.param  # type: ignore[attr-defined]
    yield running
    running.stop()


def fresh_id() -> str:
    return uuid.uuid4().hex
