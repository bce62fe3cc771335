"""The PostgreSQL store bounds every wait and resolves an append whose connection died.

- every connection it holds (pool, writer, listener) carries the statement, lock and idle
  timeouts, TCP keepalives and tcp_user_timeout;
- a multi-host address with `target_session_attrs=read-write` skips a host that is down;
- an append whose connection was lost in flight is read back: committed -> answered as
  committed, not committed -> written again; never answered twice, never lost;
- a writer whose server stops answering (its backend frozen: the kernel still
  acknowledges, so only the client-side watchdog notices) gets its append through anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest

from tarok_service.store import NewEvent
from tarok_service.store._pending import Pending, Row
from tarok_service.store._pgwrite import Ambiguous, PgWriter
from tarok_service.store.postgres import PostgresEventStore

NOW = 1_700_000_000.25


@contextlib.asynccontextmanager
async def opened(store: PostgresEventStore) -> AsyncIterator[PostgresEventStore]:
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def table() -> str:
    return "bounds-" + uuid.uuid4().hex[:12]


def ev(n: int, request_id: str | None = None) -> NewEvent:
    return NewEvent(f"E{n}", f"payload {n}".encode(), request_id)


def _settings(conn: psycopg.Connection[Any]) -> dict[str, str]:
    names = ("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")
    return {name: str(conn.execute(f"SHOW {name}").fetchone()[0]) for name in names}  # type: ignore[index]


def test_every_connection_is_bounded(postgres_dsn: str) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(postgres_dsn, timeout=2.0)) as s:
            t = table()
            await s.append(t, 0, [ev(1)], NOW)
            writer, listener = s._writer, s._listener
            assert writer is not None and writer.conn is not None
            assert listener is not None and listener.conn is not None
            expected = {
                "statement_timeout": "2s",
                "lock_timeout": "2s",
                "idle_in_transaction_session_timeout": "8s",
            }
            for conn in (writer.conn, listener.conn):
                params = conn.info.get_parameters()
                assert params["keepalives"] == "1" and params["tcp_user_timeout"] == "2000"
            assert await asyncio.to_thread(_settings, writer.conn) == expected
            async with s._connection() as conn:
                cur = await conn.execute("SHOW statement_timeout")
                assert (await cur.fetchone())[0] == "2s"
                assert conn.info.get_parameters()["keepalives_idle"] == "2"

    asyncio.run(body())


def test_a_multi_host_address_skips_a_host_that_is_down(postgres_dsn: str) -> None:
    info = psycopg.conninfo.conninfo_to_dict(postgres_dsn)
    host, port = info.get("host", "127.0.0.1"), info.get("port", "5432")
    dead = free_port()  # nothing listens there
    dsn = (
        f"postgresql://{info.get('user', 'postgres')}@{host}:{dead},{host}:{port}"
        f"/{info.get('dbname', 'test')}?target_session_attrs=read-write"
    )

    async def body() -> None:
        async with opened(PostgresEventStore(dsn, timeout=2.0)) as s:
            t = table()
            assert await s.append(t, 0, [ev(1, "a")], NOW) == 1
            assert [e.request_id for e in await s.read(t)] == ["a"]

    asyncio.run(body())


def test_an_ambiguous_append_is_read_back(postgres_dsn: str) -> None:
    """The connection died under an append: the writer looks for the append's first row."""

    async def body() -> None:
        async with opened(PostgresEventStore(postgres_dsn)) as s:
            writer = s._writer
            assert writer is not None
            loop = asyncio.get_running_loop()
            committed, missing, other = table(), table(), table()
            for t in (committed, missing, other):
                await s.append(t, 0, [ev(1)], NOW)
            # `committed`: the statement went in before the link died (written here as the
            # writer would have); `other`: another writer took version 2 meanwhile.
            await s.append(committed, 1, [ev(2, "mine"), ev(3)], NOW)
            await s.append(other, 1, [ev(2, "theirs")], NOW)
            wanted: list[tuple[str, str, list[Row]]] = [
                (committed, "mine", [(committed, 2, "E2", b"payload 2", "mine", NOW),
                                     (committed, 3, "E3", b"payload 3", None, NOW)]),
                (missing, "new", [(missing, 2, "E2", b"payload 2", "new", NOW)]),
                (other, "late", [(other, 2, "E2", b"payload 2", "late", NOW)]),
            ]  # fmt: skip
            batch = [Pending(t, 1, rid, rows, loop.create_future()) for t, rid, rows in wanted]
            lost = Ambiguous(psycopg.OperationalError("server closed the connection"))
            await asyncio.to_thread(writer._resolve, batch, lost)
            assert batch[0].outcome == 3  # committed: answered as such, not written twice
            assert batch[1].outcome == 2  # not committed: written now
            assert type(batch[2].outcome).__name__ == "VersionConflict"
            assert [e.request_id for e in await s.read(committed)] == [None, "mine", None]
            assert [e.request_id for e in await s.read(missing)] == [None, "new"]
            assert [e.request_id for e in await s.read(other)] == [None, "theirs"]

    asyncio.run(body())


def test_an_unresolved_append_fails_as_unavailable_after_its_deadline() -> None:
    async def body() -> None:
        dead = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
        writer = PgWriter(dead, 1.0, asyncio.get_running_loop(), resolve_seconds=1.5)
        try:
            future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            item = Pending("t", 0, None, [("t", 1, "E", b"", None, NOW)], future)
            error = psycopg.OperationalError("lost")
            started = time.monotonic()
            await asyncio.to_thread(writer._resolve, [item], Ambiguous(error))
            assert item.outcome is error and time.monotonic() - started < 10
        finally:
            await writer.close()

    asyncio.run(body())


def test_a_frozen_server_does_not_hold_the_writer(postgres_dsn: str) -> None:
    """SIGSTOP the writer's backend: the kernel still acknowledges its packets, so only the
    watchdog ends the wait; the append is then read back and written on a new connection."""

    async def body() -> None:
        async with opened(PostgresEventStore(postgres_dsn, timeout=1.0)) as s:
            t = table()
            await s.append(t, 0, [ev(1)], NOW)
            writer = s._writer
            assert writer is not None and writer.conn is not None
            backend = writer.conn.info.backend_pid
            try:
                os.kill(backend, signal.SIGSTOP)
            except (PermissionError, ProcessLookupError):
                pytest.skip("cannot signal the PostgreSQL backend (not local, or not root)")
            try:
                started = time.monotonic()
                assert await s.append(t, 1, [ev(2, "through")], NOW) == 2
                assert time.monotonic() - started < 10
            finally:
                os.kill(backend, signal.SIGCONT)
            assert writer.conn is not None and writer.conn.info.backend_pid != backend
            assert [e.request_id for e in await s.read(t)] == [None, "through"]

    asyncio.run(body())
