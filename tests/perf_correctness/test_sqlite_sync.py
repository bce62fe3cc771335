"""The SQLite sync mode option: FULL by default, NORMAL only when asked for."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from tarok_client.cli import _parser

from tarok_service.server.config import ServerConfig
from tarok_service.store import NewEvent, SqliteEventStore, open_store
from tarok_service.store._pending import Pending

NOW = 1_700_000_000.0
PRAGMA_VALUES = {"full": 2, "normal": 1}  # what `PRAGMA synchronous` reports


def _mode_in_use(store: SqliteEventStore) -> int:
    """The sync level of the store's own connection (read on its worker thread)."""

    async def body() -> int:
        await store.open()
        try:
            await store.append("t", 0, [NewEvent("E", b"x")], NOW)
            return await store._run(
                lambda: int(store._db().execute("PRAGMA synchronous").fetchone()[0])
            )
        finally:
            await store.close()

    return asyncio.run(body())


def test_default_is_full(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}")
    assert isinstance(store, SqliteEventStore)
    assert store.synchronous == "full"
    assert _mode_in_use(store) == PRAGMA_VALUES["full"]
    assert ServerConfig().sqlite_sync == "full"


@pytest.mark.parametrize("mode", ["full", "normal"])
def test_mode_is_applied(tmp_path: Path, mode: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'b.db'}", sqlite_sync=mode)
    assert isinstance(store, SqliteEventStore)
    assert _mode_in_use(store) == PRAGMA_VALUES[mode]
    with sqlite3.connect(tmp_path / "b.db") as conn:  # the append is in the file
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


@pytest.mark.parametrize("mode", ["off", "FULL", ""])
def test_unknown_mode_is_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="sync mode"):
        SqliteEventStore(":memory:", synchronous=mode)


def test_cli_option() -> None:
    args = _parser().parse_args(["serve"])
    assert args.sqlite_sync == "full"
    args = _parser().parse_args(["serve", "--sqlite-sync", "normal"])
    assert args.sqlite_sync == "normal"
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--sqlite-sync", "off"])


@pytest.mark.parametrize("mode", ["full", "normal"])
def test_a_lone_append_is_committed_when_answered(tmp_path: Path, mode: str) -> None:
    """A one-row append is a statement of its own (no BEGIN / COMMIT around it): when it is
    answered no transaction is left open and another connection sees the row; a duplicate
    request and a stale version still get their errors."""
    from tarok_service.store import DuplicateRequest, VersionConflict

    path = tmp_path / "lone.db"

    async def body() -> None:
        store = SqliteEventStore(str(path), synchronous=mode)
        await store.open()
        try:
            assert await store.append("t", 0, [NewEvent("E", b"x", "r1")], NOW) == 1
            assert not await store._run(lambda: store._db().in_transaction)
            with sqlite3.connect(path) as other:
                assert other.execute("SELECT seq, request_id FROM events").fetchall() == [(1, "r1")]
            with pytest.raises(DuplicateRequest) as dup:
                await store.append("t", 1, [NewEvent("E", b"y", "r1")], NOW)
            assert dup.value.seq == 1
            with pytest.raises(VersionConflict) as stale:
                await store.append("t", 0, [NewEvent("E", b"z", "r2")], NOW)
            assert (stale.value.expected, stale.value.actual) == (0, 1)
            assert [e.seq for e in await store.read("t")] == [1]
        finally:
            await store.close()

    asyncio.run(body())


def test_the_worker_gets_its_busy_timeout_back(tmp_path: Path) -> None:
    """In "normal" mode a commit on the event loop sets the busy timeout to 0 (the loop never
    waits for another process's write lock); the worker thread waits again before its work."""
    store = SqliteEventStore(str(tmp_path / "busy.db"), synchronous="normal", busy_timeout=3.0)

    async def body() -> None:
        await store.open()
        try:
            assert await store.append("t", 0, [NewEvent("E", b"x")], NOW) == 1
            conn = store._db()
            assert int(conn.execute("PRAGMA busy_timeout").fetchone()[0]) == 0  # loop commit
            on_worker = await store._run(
                lambda: int(store._db().execute("PRAGMA busy_timeout").fetchone()[0])
            )
            assert on_worker == 3000
        finally:
            await store.close()

    asyncio.run(body())


def _counting_worker(store: SqliteEventStore) -> list[int]:
    """Make `store` record the size of every batch its worker thread takes to commit."""
    sizes: list[int] = []
    take = store._take_batch

    def counted() -> list[Pending]:
        batch = take()
        if threading.current_thread() is not threading.main_thread():
            sizes.append(len(batch))
        return batch

    store._take_batch = counted  # type: ignore[method-assign]
    return sizes


def test_concurrent_appends_commit_on_the_loop_in_normal_mode(tmp_path: Path) -> None:
    """With nothing holding the connection, "normal" commits every append on the event loop,
    however many are in progress: no batch goes to the worker, each append gets its own
    version, and a conflicting one still fails alone."""
    from tarok_service.store import VersionConflict

    store = SqliteEventStore(str(tmp_path / "loop.db"), synchronous="normal")
    sizes = _counting_worker(store)

    async def body() -> None:
        await store.open()
        try:
            appends = [store.append(f"t{i % 4}", i // 4, [NewEvent("E", b"x")], NOW)
                       for i in range(12)]  # fmt: skip
            stale = store.append("t0", 0, [NewEvent("E", b"late")], NOW)
            results = await asyncio.gather(*appends, stale, return_exceptions=True)
            assert results[:12] == [i // 4 + 1 for i in range(12)]
            assert isinstance(results[12], VersionConflict)
            assert [e.seq for e in await store.read("t0")] == [1, 2, 3]
        finally:
            await store.close()

    asyncio.run(body())
    assert sizes == []


def test_appends_wait_for_a_busy_connection_and_commit_together(tmp_path: Path) -> None:
    """When the connection is taken (here by the test, as a read on the worker would), the
    loop does not wait for it: the appends go to the worker, which commits them in one
    batch once the connection is free, each with its own outcome."""
    store = SqliteEventStore(str(tmp_path / "busy.db"), synchronous="normal")
    sizes = _counting_worker(store)

    async def body() -> None:
        await store.open()
        try:
            store._conn_lock.acquire()
            try:
                tasks = [asyncio.create_task(store.append(f"t{i}", 0, [NewEvent("E", b"x")], NOW))
                         for i in range(5)]  # fmt: skip
                await asyncio.sleep(0)  # one step of each task: all five are now pending
                assert not any(task.done() for task in tasks)
            finally:
                store._conn_lock.release()
            assert await asyncio.gather(*tasks) == [1] * 5
        finally:
            await store.close()

    asyncio.run(body())
    assert sizes == [5]  # one hand-over: the worker committed all five together
