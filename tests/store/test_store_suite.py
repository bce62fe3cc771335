"""One behavioural suite for every EventStore backend.

The `backend` fixture runs each test on SQLite in memory, SQLite on a file and PostgreSQL.
PostgreSQL comes from `TAROK_TEST_POSTGRES_DSN` (default: local `test` database); when it
is unreachable those cases are skipped, unless `TAROK_REQUIRE_POSTGRES=1` makes them fail.
Each test uses fresh uuid table ids and never drops the shared schema.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import psycopg
import pytest

from tarok_service.store import (
    DuplicateRequest,
    EventStore,
    NewEvent,
    SqliteEventStore,
    StoreClosed,
    VersionConflict,
    open_store,
)
from tarok_service.store.postgres import PostgresEventStore
from tarok_service.store.sqlite import CHECKPOINT_EVERY
from tests.pg_locks import until_a_session_waits_on_a_lock

T = TypeVar("T")
NOW = 1_700_000_000.25


@dataclass(frozen=True)
class Backend:
    """How to build store instances for one backend.

    `make(quiet=...)` returns a new, unopened instance on the same storage; with
    `quiet=True` its slow safety re-check is turned off, so only the backend's own
    notification path (LISTEN/NOTIFY, SQLite file polling) can wake its waiters early.
    `shared` says whether two instances see the same data.
    """

    name: str
    make: Callable[..., EventStore]
    shared: bool


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "sqlite-normal", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """One store backend; the suite runs once per param."""
    if request.param == "sqlite-memory":
        return Backend("sqlite-memory", lambda quiet=False: SqliteEventStore(":memory:"), False)
    if request.param == "sqlite-file":
        path = str(tmp_path / "events.db")
        return Backend("sqlite-file", lambda quiet=False: SqliteEventStore(path), True)
    if request.param == "sqlite-normal":  # commits on the event loop (see SqliteEventStore)
        path = str(tmp_path / "events.db")
        return Backend(
            "sqlite-normal",
            lambda quiet=False: SqliteEventStore(path, synchronous="normal"),
            True,
        )
    dsn: str = request.getfixturevalue("postgres_dsn")

    def make_pg(quiet: bool = False) -> EventStore:
        return PostgresEventStore(dsn, max_size=4, recheck_interval=3600.0 if quiet else 5.0)

    return Backend("postgres", make_pg, True)


def run(test: Callable[[], Awaitable[T]]) -> T:
    """Run one async test body on a fresh event loop."""
    return cast(T, asyncio.run(cast(Any, test())))


def new_table() -> str:
    """A table id no other test (or earlier run on the shared database) uses."""
    return f"t-{uuid.uuid4()}"


def ev(n: int, request_id: str | None = None) -> NewEvent:
    """A small recognisable event."""
    return NewEvent(type=f"E{n}", payload=bytes([n, 0, 255]), request_id=request_id)


@asynccontextmanager
async def opened(store: EventStore) -> AsyncIterator[EventStore]:
    """Open `store` for the block and close it afterwards."""
    await store.open()
    try:
        yield store
    finally:
        await store.close()


# -- append / read ----------------------------------------------------------------------


def test_append_and_read_in_order(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            assert await s.version(t) == 0
            assert await s.read(t) == []
            assert await s.append(t, 0, [ev(1, "r1")], NOW) == 1
            assert await s.append(t, 1, [ev(2, "r2"), ev(3)], NOW + 1) == 3
            got = await s.read(t)
            assert [e.seq for e in got] == [1, 2, 3]
            assert [e.type for e in got] == ["E1", "E2", "E3"]
            assert [e.payload for e in got] == [bytes([n, 0, 255]) for n in (1, 2, 3)]
            assert [e.request_id for e in got] == ["r1", "r2", None]
            assert [e.created_at for e in got] == [NOW, NOW + 1, NOW + 1]
            assert {e.table_id for e in got} == {t}
            assert await s.version(t) == 3

    run(body)


def test_only_first_event_of_batch_keeps_request_id(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(1, "m"), ev(2, "ignored"), ev(3, "also-ignored")], NOW)
            assert [e.request_id for e in await s.read(t)] == ["m", None, None]
            assert await s.find_request(t, "m") == 1
            assert await s.find_request(t, "ignored") is None

    run(body)


def test_read_after_and_limit(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(n) for n in range(1, 7)], NOW)
            assert [e.seq for e in await s.read(t, after=4)] == [5, 6]
            assert [e.seq for e in await s.read(t, after=1, limit=2)] == [2, 3]
            assert [e.seq for e in await s.read(t, limit=0)] == []
            assert await s.read(t, after=6) == []
            assert await s.read(new_table()) == []

    run(body)


def test_tables_are_independent(backend: Backend) -> None:
    async def body() -> None:
        a, b = new_table(), new_table()
        async with opened(backend.make()) as s:
            await s.append(a, 0, [ev(1, "same")], NOW)
            assert await s.append(b, 0, [ev(2, "same")], NOW) == 1
            assert [e.type for e in await s.read(b)] == ["E2"]
            tables = await s.list_tables(limit=1_000_000)
            assert {a, b} <= set(tables)
            assert tables == sorted(tables)
            assert len(await s.list_tables(limit=1)) == 1

    run(body)


def test_bad_arguments_are_rejected(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            with pytest.raises(ValueError):
                await s.append(t, 0, [], NOW)
            with pytest.raises(ValueError):
                await s.append(t, -1, [ev(1)], NOW)
            assert await s.version(t) == 0

    run(body)


# -- conflicts --------------------------------------------------------------------------


def test_stale_or_future_version_conflicts_and_writes_nothing(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(1), ev(2)], NOW)
            for expected in (0, 1, 5):
                with pytest.raises(VersionConflict) as info:
                    await s.append(t, expected, [ev(9, "x")], NOW)
                assert (info.value.expected, info.value.actual) == (expected, 2)
            assert [e.seq for e in await s.read(t)] == [1, 2]
            assert await s.find_request(t, "x") is None

    run(body)


def test_duplicate_request_returns_first_seq_and_writes_nothing(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(1)], NOW)
            await s.append(t, 1, [ev(2, "move-7"), ev(3)], NOW)
            await s.append(t, 3, [ev(4, "move-8")], NOW)
            for expected in (4, 1):  # current and stale: a retry still finds its answer
                with pytest.raises(DuplicateRequest) as info:
                    await s.append(t, expected, [ev(5, "move-7")], NOW)
                err = info.value
                assert (err.table_id, err.request_id, err.seq) == (t, "move-7", 2)
            assert await s.version(t) == 4
            assert await s.find_request(t, "move-7") == 2

    run(body)


def test_failed_batch_is_atomic_and_store_stays_usable(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(1)], NOW)
            poison = NewEvent("Bad", cast(bytes, object()))  # cannot be bound: fails mid-batch
            with pytest.raises(Exception) as info:
                await s.append(t, 1, [ev(2, "r"), ev(3), poison], NOW)
            assert not isinstance(info.value, VersionConflict | DuplicateRequest)
            assert await s.version(t) == 1
            assert await s.find_request(t, "r") is None
            assert await s.append(t, 1, [ev(2, "r"), ev(3)], NOW) == 3
            assert [e.seq for e in await s.read(t)] == [1, 2, 3]

    run(body)


def test_concurrent_appenders_exactly_one_wins(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as a, opened(backend.make()) as b:
            stores = [a, b] if backend.shared else [a, a]
            for version in range(0, 10, 2):
                results = await asyncio.gather(
                    *(stores[i % 2].append(t, version, [ev(i), ev(i + 10)], NOW) for i in range(6)),
                    return_exceptions=True,
                )
                wins = [r for r in results if not isinstance(r, BaseException)]
                losses = [r for r in results if isinstance(r, BaseException)]
                assert wins == [version + 2], results
                assert all(isinstance(e, VersionConflict) for e in losses), losses
                pairs = {
                    (cast(VersionConflict, e).expected, cast(VersionConflict, e).actual)
                    for e in losses
                }
                assert pairs == {(version, version + 2)}
            assert [e.seq for e in await a.read(t)] == list(range(1, 11))

    run(body)


def test_concurrent_appends_to_many_tables_fail_only_individually(backend: Backend) -> None:
    """Appends arriving together (one group commit on SQLite) succeed or fail one by one."""

    async def body() -> None:
        tables = [new_table() for _ in range(12)]
        async with opened(backend.make()) as store:
            await store.append(tables[0], 0, [ev(1, "r1")], NOW)
            results = await asyncio.gather(
                store.append(tables[0], 1, [ev(2, "r1")], NOW),  # repeated request id
                store.append(tables[1], 5, [ev(2)], NOW),  # stale version
                *(store.append(t, 0, [ev(3), ev(4)], NOW) for t in tables[2:]),
                return_exceptions=True,
            )
            assert isinstance(results[0], DuplicateRequest) and results[0].seq == 1
            assert isinstance(results[1], VersionConflict)
            assert results[2:] == [2] * 10
            assert await store.version(tables[0]) == 1 and await store.version(tables[1]) == 0
            for t in tables[2:]:
                assert [e.type for e in await store.read(t)] == ["E3", "E4"]

    run(body)


# -- watching ---------------------------------------------------------------------------


def test_wait_for_change_wakes_on_append(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make(quiet=True)) as s:
            waiter = asyncio.create_task(s.wait_for_change(t, 0, timeout=600))
            await asyncio.sleep(0.05)
            assert not waiter.done()
            await s.append(t, 0, [ev(1), ev(2)], NOW)
            assert await asyncio.wait_for(waiter, 60) == 2  # woken by the append, not timed out
            assert await s.wait_for_change(t, 1, timeout=10) == 2  # already newer

    run(body)


def test_wait_for_change_times_out(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.append(t, 0, [ev(1)], NOW)
            other = new_table()
            started = time.monotonic()
            waiter = asyncio.create_task(s.wait_for_change(t, 1, timeout=0.3))
            await s.append(other, 0, [ev(1)], NOW)  # another table must not wake it
            assert await asyncio.wait_for(waiter, 60) == 1
            assert time.monotonic() - started >= 0.29  # not woken by the other table
            assert await s.wait_for_change(t, 1, timeout=0) == 1

    run(body)


def test_second_instance_sees_events_and_is_woken(backend: Backend) -> None:
    if not backend.shared:
        pytest.skip("an in-memory database is private to one store instance")

    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as writer, opened(backend.make(quiet=True)) as watcher:
            await writer.append(t, 0, [ev(1, "a")], NOW)
            assert [e.type for e in await watcher.read(t)] == ["E1"]
            waiter = asyncio.create_task(watcher.wait_for_change(t, 1, timeout=600))
            await asyncio.sleep(0.1)
            assert not waiter.done()
            await writer.append(t, 1, [ev(2)], NOW)
            assert await asyncio.wait_for(waiter, 60) == 2  # quiet: only its notification path
            with pytest.raises(DuplicateRequest):
                await watcher.append(t, 2, [ev(3, "a")], NOW)

    run(body)


# -- lifecycle --------------------------------------------------------------------------


def test_open_is_idempotent(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            await s.open()  # second open on the same instance is a no-op
            await s.append(t, 0, [ev(1)], NOW)
            if backend.shared:
                async with opened(backend.make()) as again:  # schema exists already
                    assert await again.version(t) == 1
                    await again.append(t, 1, [ev(2)], NOW)
            assert await s.version(t) == (2 if backend.shared else 1)

    run(body)


def test_closed_store_refuses_work(backend: Backend) -> None:
    async def body() -> None:
        s = backend.make()
        with pytest.raises(StoreClosed):
            await s.version(new_table())
        await s.open()
        await s.close()
        await s.close()
        with pytest.raises(StoreClosed):
            await s.append(new_table(), 0, [ev(1)], NOW)

    run(body)


# -- backend-specific races ---------------------------------------------------------------


def test_postgres_lost_race_maps_unique_violation(postgres_dsn: str) -> None:
    """A writer that passed its checks but lost the insert race gets the mapped error."""

    async def race(request_id: str | None, expected_error: type[Exception]) -> Exception:
        t = new_table()
        async with opened(PostgresEventStore(postgres_dsn, max_size=2)) as s:
            rival = await psycopg.AsyncConnection.connect(postgres_dsn)
            try:
                await rival.execute(
                    "INSERT INTO events VALUES (%s, 1, 'Rival', %s, %s, %s)",
                    (t, b"", request_id, NOW),
                )
                loser = asyncio.create_task(s.append(t, 0, [ev(1, request_id)], NOW))
                await until_a_session_waits_on_a_lock(postgres_dsn)  # the loser, on the rival's row
                assert not loser.done()
                await rival.commit()
            finally:
                await rival.close()
            with pytest.raises(expected_error) as info:
                await loser
            assert [e.type for e in await s.read(t)] == ["Rival"]
            return info.value

    async def body() -> None:
        conflict = await race(None, VersionConflict)
        assert isinstance(conflict, VersionConflict)
        assert (conflict.expected, conflict.actual) == (0, 1)
        dup = await race("same-move", DuplicateRequest)
        assert isinstance(dup, DuplicateRequest) and dup.seq == 1

    run(body)


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_sqlite_waits_for_another_writer_lock(tmp_path: Path, sync: str) -> None:
    """A second process holding the write lock delays, not breaks, an append (in "normal"
    mode the event loop does not wait for it: the worker thread does)."""
    path = str(tmp_path / "locked.db")

    async def body() -> None:
        t = new_table()
        async with opened(SqliteEventStore(path, synchronous=sync)) as s:
            rival = sqlite3.connect(path, isolation_level=None)
            rival.execute("BEGIN IMMEDIATE")
            rival.execute("INSERT INTO events VALUES (?, 1, 'Rival', x'', NULL, ?)", (t, NOW))
            loser = asyncio.create_task(s.append(t, 0, [ev(1)], NOW))
            await asyncio.sleep(0.2)
            assert not loser.done()
            rival.execute("COMMIT")
            rival.close()
            with pytest.raises(VersionConflict):
                await loser
            assert await s.append(t, 1, [ev(2)], NOW) == 2

    run(body)


def test_sqlite_normal_checkpoints_on_the_worker(tmp_path: Path) -> None:
    """In "normal" mode commits never checkpoint (that would sync on the event loop); the
    worker thread copies the WAL into the database file every CHECKPOINT_EVERY commits."""
    path = tmp_path / "ck.db"

    async def body() -> None:
        t = new_table()
        async with opened(SqliteEventStore(str(path), synchronous="normal")) as s:
            assert isinstance(s, SqliteEventStore)
            auto = await s._run(
                lambda: int(s._db().execute("PRAGMA wal_autocheckpoint").fetchone()[0])
            )
            assert auto == 0
            for n in range(1, CHECKPOINT_EVERY + 2):
                assert await s.append(t, n - 1, [ev(n % 200)], NOW) == n
            await s._run(lambda: None)  # the worker has run what was handed to it
            copy = tmp_path / "main-file-only.db"  # the database file without its WAL
            copy.write_bytes(path.read_bytes())
            with sqlite3.connect(copy) as conn:
                in_file = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            assert in_file >= CHECKPOINT_EVERY

    run(body)


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_sqlite_lone_append_in_normal_mode_is_committed_within_the_call(
    tmp_path: Path, sync: str
) -> None:
    """In "normal" mode a lone append (none in progress, nothing else ready on the loop)
    is committed inside `append` itself: its coroutine finishes without suspending once.
    In "full" mode it always waits for the worker thread's commit (and sync)."""
    path = str(tmp_path / f"{sync}.db")

    async def body() -> None:
        t = new_table()
        async with opened(SqliteEventStore(path, synchronous=sync)) as s:
            assert isinstance(s, SqliteEventStore)
            await asyncio.sleep(0)  # the store's poller task has started: the loop is idle
            appending = s.append(t, 0, [ev(1)], NOW)
            try:
                appending.send(None)
            except StopIteration as finished:
                assert sync == "normal" and finished.value == 1
            else:
                assert sync == "full"
                appending.close()  # cancelled while the worker commits: still written
                await s._run(lambda: None)
            assert [e.seq for e in await s.read(t)] == [1]
            with pytest.raises(VersionConflict):  # an error is raised within the call too
                await s.append(t, 0, [ev(2)], NOW)
            assert await s.append(t, 1, [ev(2)], NOW) == 2

    run(body)


# -- URL factory --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///tarok.db", "tarok.db"),
        ("sqlite:///data/dir/t.db", "data/dir/t.db"),
        ("sqlite:////var/lib/tarok/t.db", "/var/lib/tarok/t.db"),
        ("sqlite:///:memory:", ":memory:"),
        ("memory:", ":memory:"),
    ],
)
def test_open_store_sqlite_urls(url: str, path: str) -> None:
    store = open_store(url)
    assert isinstance(store, SqliteEventStore)
    assert store.path == path


@pytest.mark.parametrize("url", ["postgresql://u@h:5432/db", "postgres://u@h/db"])
def test_open_store_postgres_urls(url: str) -> None:
    store = open_store(url)
    assert isinstance(store, PostgresEventStore)
    assert store.dsn == url


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite://", "sqlite:///", "tarok.db", ""])
def test_open_store_rejects_unknown_urls(url: str) -> None:
    with pytest.raises(ValueError, match="store URL"):
        open_store(url)


def test_memory_store_round_trip_via_url() -> None:
    async def body() -> None:
        async with opened(open_store("memory:")) as s:
            assert await s.append("t", 0, [ev(1)], NOW) == 1
            assert isinstance(s, EventStore)

    run(body)


def test_postgres_listener_survives_a_dropped_connection(postgres_dsn: str) -> None:
    """Killing the LISTEN backend reconnects and still wakes the waiter (no recheck)."""

    async def body() -> None:
        t = new_table()
        watcher = PostgresEventStore(postgres_dsn, max_size=2, recheck_interval=3600.0)
        async with opened(PostgresEventStore(postgres_dsn)) as writer, opened(watcher):
            listener = watcher._listener
            assert listener is not None
            listen_conn = listener.conn
            assert listen_conn is not None
            pid = listen_conn.info.backend_pid
            await writer.append(t, 0, [ev(1)], NOW)
            waiter = asyncio.create_task(watcher.wait_for_change(t, 1, timeout=600))
            await asyncio.sleep(0.05)
            async with await psycopg.AsyncConnection.connect(postgres_dsn) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            async with asyncio.timeout(60):  # the listener notices, reconnects and listens again
                while (conn := listener.conn) is None or conn.info.backend_pid == pid:
                    await asyncio.sleep(0.02)
            await writer.append(t, 1, [ev(2)], NOW)
            assert await asyncio.wait_for(waiter, 60) == 2
            later = asyncio.create_task(watcher.wait_for_change(t, 2, timeout=600))
            await asyncio.sleep(0.05)
            await writer.append(t, 2, [ev(3)], NOW)
            assert await asyncio.wait_for(later, 60) == 3

    run(body)


# -- snapshots beside the log -------------------------------------------------------------


def test_snapshots_latest_at_or_before_a_seq(backend: Backend) -> None:
    async def body() -> None:
        t, other = new_table(), new_table()
        async with opened(backend.make()) as s:
            assert await s.latest_snapshot(t) is None
            await s.save_snapshot(t, 5, b"five")
            await s.save_snapshot(t, 12, b"twelve")
            await s.save_snapshot(other, 40, b"other")
            assert await s.latest_snapshot(t) == (12, b"twelve")
            assert await s.latest_snapshot(t, at_most=11) == (5, b"five")
            assert await s.latest_snapshot(t, at_most=12) == (12, b"twelve")
            assert await s.latest_snapshot(t, at_most=4) is None
            await s.save_snapshot(t, 12, b"again")  # the same seq is replaced
            assert await s.latest_snapshot(t) == (12, b"again")
            assert await s.read(t) == []  # snapshots are not events

    run(body)


def test_read_tail_is_the_first_event_and_those_from_the_snapshot_on(backend: Backend) -> None:
    async def body() -> None:
        t = new_table()
        async with opened(backend.make()) as s:
            assert await s.read_tail(t) == (None, [])
            await s.append(t, 0, [ev(n) for n in range(1, 9)], NOW)
            found, events = await s.read_tail(t)
            assert found is None and [e.seq for e in events] == list(range(1, 9))
            await s.save_snapshot(t, 3, b"three")
            await s.save_snapshot(t, 6, b"six")
            found, events = await s.read_tail(t)
            assert found == (6, b"six") and [e.seq for e in events] == [1, 6, 7, 8]
            assert events[0].payload == bytes([1, 0, 255]) and events[0].table_id == t
            found, events = await s.read_tail(t, at_most=5)
            assert found == (3, b"three") and [e.seq for e in events] == [1, 3, 4, 5, 6, 7, 8]

    run(body)


# -- kept values (the server's signing key) ----------------------------------------------


def test_get_or_set_keeps_the_first_value_for_every_instance(backend: Backend) -> None:
    async def body() -> None:
        name = f"k-{uuid.uuid4()}"
        async with opened(backend.make()) as a, opened(backend.make()) as b:
            other = b if backend.shared else a
            # Racing first callers (two instances where the storage is shared) agree.
            got = await asyncio.gather(
                *((a, other)[i % 2].get_or_set(name, bytes([i]) * 8) for i in range(8))
            )
            assert len(set(got)) == 1 and got[0] in {bytes([i]) * 8 for i in range(8)}
            assert await a.get_or_set(name, b"later") == got[0]
            assert await a.get_or_set(f"{name}-2", b"second") == b"second"
        if backend.shared:  # and a store opened afterwards reads it back
            async with opened(backend.make()) as c:
                assert await c.get_or_set(name, b"after a restart") == got[0]

    run(body)
