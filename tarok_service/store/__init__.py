"""Event store: an append-only log of opaque events per table (bytes and seq numbers only).

`open_store(url)` builds a backend from a URL; call `await store.open()` before use and
`await store.close()` at shutdown.
"""

from __future__ import annotations

from .base import (
    DuplicateRequest,
    EventStore,
    NewEvent,
    StoreClosed,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from .sqlite import SqliteEventStore

__all__ = [
    "DuplicateRequest",
    "EventStore",
    "NewEvent",
    "SqliteEventStore",
    "StoreClosed",
    "StoreError",
    "StoreUnavailable",
    "StoredEvent",
    "VersionConflict",
    "open_store",
]

_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def open_store(
    url: str, sqlite_sync: str = "full", timeout: float = 3.0, bus: str | None = None
) -> EventStore:
    """Build an (unopened) event store from a URL.

    `timeout`: the longest a call waits for a connection, a lock or a busy database
    before failing with `StoreUnavailable`.

    - `sqlite:///relative/path.db`, `sqlite:////absolute/path.db` (SQLAlchemy style),
    - `sqlite:///:memory:` or `memory:` for a private in-memory database,
    - `postgresql://...` or `postgres://...` (passed to libpq unchanged).

    `sqlite_sync` is the SQLite file's sync mode, "full" or "normal" (see `SqliteEventStore`).
    `bus`: NATS servers (`nats://a:4222,nats://b:4222`) the replicas of a PostgreSQL store
    tell each other of new versions through, instead of LISTEN/NOTIFY.
    """
    if bus and not url.startswith(_POSTGRES_PREFIXES):
        raise ValueError("a bus (--nats) only serves a shared PostgreSQL store")
    if url in ("memory:", _SQLITE_PREFIX + ":memory:"):
        return SqliteEventStore(":memory:", busy_timeout=timeout)
    if url.startswith(_SQLITE_PREFIX):
        path = url.removeprefix(_SQLITE_PREFIX)
        if not path:
            raise ValueError(f"store URL {url!r} names no database file")
        return SqliteEventStore(path, synchronous=sqlite_sync, busy_timeout=timeout)
    if url.startswith(_POSTGRES_PREFIXES):
        from .postgres import PostgresEventStore  # psycopg loads only when needed

        return PostgresEventStore(url, timeout=timeout, bus_url=bus or None)
    raise ValueError(
        f"unsupported store URL {url!r}: expected sqlite:///path.db, sqlite:///:memory:, "
        "memory: or postgresql://user@host/db"
    )
