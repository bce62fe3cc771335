"""Shared pytest setup for the whole test tree."""

import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import structlog

# Make the repository root importable (tarok_service, clients/python) without an editable install.
_ROOT = Path(__file__).resolve().parents[1]
for _path in (_ROOT, _ROOT / "clients" / "python"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))


DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    """A reachable PostgreSQL DSN (TAROK_TEST_POSTGRES_DSN), or skip; fail instead when
    TAROK_REQUIRE_POSTGRES=1 (as in CI)."""
    dsn = os.environ.get("TAROK_TEST_POSTGRES_DSN", DEFAULT_DSN)
    try:
        psycopg.connect(dsn, connect_timeout=3).close()
    except psycopg.Error as exc:
        reason = f"PostgreSQL not reachable at {dsn!r}: {exc}".strip()
        if os.environ.get("TAROK_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"TAROK_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(f"{reason} (set TAROK_TEST_POSTGRES_DSN or start PostgreSQL)")
    return dsn


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """structlog configured for JSON lines into a buffer (restored afterwards)."""
    from tarok_service.server.ops.logconf import configure_logging

    saved = structlog.get_config()
    buffer = io.StringIO()
    configure_logging("json", stream=buffer)
    try:
        yield buffer
    finally:
        structlog.configure(**saved)
