"""Fixtures for the hardening tests: servers on SQLite and (when reachable) PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.service.harness import ServerThread, config

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    """A reachable PostgreSQL DSN, or skip (fail when TAROK_REQUIRE_POSTGRES=1)."""
    dsn = os.environ.get("TAROK_TEST_POSTGRES_DSN", DEFAULT_DSN)
    try:
        psycopg.connect(dsn, connect_timeout=3).close()
    except psycopg.Error as exc:
        reason = f"PostgreSQL not reachable at {dsn!r}: {exc}".strip()
        if os.environ.get("TAROK_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"TAROK_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(f"{reason} (set TAROK_TEST_POSTGRES_DSN or start the server)")
    return dsn


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
