"""Embedded event store on SQLite (stdlib `sqlite3`), the default for one server process.

All database work runs on one dedicated worker thread that owns the single connection,
so the event loop never blocks and statements are compiled once (the sqlite3 module
caches prepared statements per connection, keyed by SQL text). Appends are group-committed:
the appends that arrive while the worker is busy are written in one transaction (each in its
own savepoint, so one conflict fails only its own append), which saves a sync per append
under load while every append stays durable before it is answered.

`synchronous` chooses what "durable" means (WAL journal in both modes):
- "full" (the default): the WAL is synced to disk at every commit, so an answered append
  survives a process crash, an operating-system crash and a power loss;
- "normal": the WAL is synced only at checkpoints, so an answered append survives a crash of
  the server process, but an OS crash or power loss may lose the last commits (the file is
  never corrupted: it comes back at an earlier, consistent version).
Where appends are committed:
- "full": on the worker thread (the sync takes about a millisecond, too long for the event
  loop), one group commit for all the appends that arrived while the worker was busy;
- "normal" and in-memory: an append is committed on the event loop itself, inside the
  `append` call (no future waited for, no thread hop, no extra loop round), whether or not
  other appends are in progress: no sync is waited for, so the commit is a write to the WAL
  of some tens of microseconds, less than the hand-over to the worker thread and back (and
  an RPC that never suspends costs grpc.aio less). The loop only takes the connection when
  it is free and no other process holds the write lock; otherwise the append waits for the
  worker, and the appends that arrive meanwhile are group-committed there as in "full".
  Checkpoints (which do sync) run on the worker thread, every `CHECKPOINT_EVERY` commits,
  never on the loop.
Both ways every append is answered only after its commit, so the guarantees above hold.
Watchers are woken in-process by `append`; changes made by another process writing the
same file are noticed by polling `PRAGMA data_version` every `poll_interval` seconds
while anyone is waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ._pending import Pending, Row, deliver
from ._wakeup import TableSignals, wait_for_version
from .base import (
    DuplicateRequest,
    NewEvent,
    StoreClosed,
    StoredEvent,
    VersionConflict,
    check_append_args,
    unavailable_on,
)

T = TypeVar("T")

MEMORY = ":memory:"
SYNC_MODES = ("full", "normal")
_NO_BOUND = 2**62
CHECKPOINT_EVERY = 256  # commits between two WAL checkpoints (SQLite's own default: ~1000 pages)

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        payload BLOB NOT NULL,
        request_id TEXT,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID""",
    """CREATE UNIQUE INDEX IF NOT EXISTS events_request_id_key
        ON events (table_id, request_id) WHERE request_id IS NOT NULL""",
    """CREATE TABLE IF NOT EXISTS snapshots (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        payload BLOB NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID""",
)
_SAVE_SNAPSHOT = "INSERT OR REPLACE INTO snapshots (table_id, seq, payload) VALUES (?, ?, ?)"
_LATEST_SNAPSHOT = (
    "SELECT seq, payload FROM snapshots WHERE table_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1"
)
_READ_TAIL = (
    "SELECT table_id, seq, type, payload, request_id, created_at FROM events"
    " WHERE table_id = ? AND (seq = 1 OR seq >= ?) ORDER BY seq"
)
_VERSION = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?"
_FIND = "SELECT seq FROM events WHERE table_id = ? AND request_id = ?"
_CHECK = (  # the version and the seq holding the request id (NULL id: never found), at once
    "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?),"
    " (SELECT seq FROM events WHERE table_id = ? AND request_id = ?)"
)
_INSERT = (
    "INSERT INTO events (table_id, seq, type, payload, request_id, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_CHECKED_INSERT = (  # one row, only if the version is as expected and the request id is new
    "INSERT INTO events (table_id, seq, type, payload, request_id, created_at)"
    " SELECT ?, ?, ?, ?, ?, ?"
    " WHERE (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?) = ?"
    " AND NOT EXISTS (SELECT 1 FROM events WHERE table_id = ? AND request_id = ?)"
)
_READ = (
    "SELECT table_id, seq, type, payload, request_id, created_at FROM events"
    " WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?"
)
_TABLES = "SELECT DISTINCT table_id FROM events ORDER BY table_id LIMIT ?"

# "database is locked" past the busy timeout, disk I/O errors, ...: StoreUnavailable.
_guarded = unavailable_on((sqlite3.OperationalError,))


class SqliteEventStore:
    """`EventStore` on one SQLite database file, or a private in-memory one (":memory:")."""

    def __init__(
        self,
        path: str,
        poll_interval: float = 0.5,
        busy_timeout: float = 5.0,
        synchronous: str = "full",
    ) -> None:
        if synchronous not in SYNC_MODES:
            raise ValueError(f"SQLite sync mode must be one of {SYNC_MODES}, not {synchronous!r}")
        self._path = path
        self._synchronous = synchronous
        self._poll_interval = poll_interval
        self._busy_timeout = busy_timeout
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._signals = TableSignals()
        self._poller: asyncio.Task[None] | None = None
        self._pending: list[Pending] = []
        self._pending_lock = threading.Lock()
        self._flush_scheduled = False
        # Commits that need no sync run on the event loop (see module docstring).
        self._on_loop = synchronous == "normal" or path == MEMORY
        self._checkpoints = self._on_loop and path != MEMORY  # ours, not SQLite's automatic ones
        self._conn_lock = threading.Lock()  # the connection has one user at a time
        self._commits = 0  # since the last checkpoint
        # The loop's commits never wait for another process's write lock (busy timeout 0);
        # the worker restores the busy timeout before its own work, only when needed.
        self._impatient = False

    @property
    def path(self) -> str:
        """The database file path, or ":memory:"."""
        return self._path

    @property
    def synchronous(self) -> str:
        """The sync mode: "full" (survives power loss) or "normal" (survives a process crash)."""
        return self._synchronous

    async def open(self) -> None:
        """Open the connection on the worker thread and create the schema if missing."""
        if self._executor is not None:
            return
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarok-sqlite")
        try:
            self._conn = await self._run(self._connect)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise
        if self._path != MEMORY:
            self._poller = asyncio.create_task(self._poll_other_writers())

    async def close(self) -> None:
        """Stop polling, close the connection and the worker thread."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(executor, self._locked, conn.close)
        executor.shutdown(wait=True)
        self._signals.wake_all()

    @_guarded
    async def append(
        self, table_id: str, expected_version: int, events: Sequence[NewEvent], now: float
    ) -> int:
        """Append events atomically at `expected_version`; see `EventStore.append`."""
        check_append_args(expected_version, events)
        request_id = events[0].request_id
        rows: list[Row] = [
            (table_id, expected_version + i, e.type, e.payload, request_id if i == 1 else None, now)
            for i, e in enumerate(events, start=1)
        ]
        executor = self._executor
        if executor is None:
            raise StoreClosed()
        loop = asyncio.get_running_loop()
        pending = Pending(table_id, expected_version, request_id, rows, loop.create_future())
        with self._pending_lock:
            self._pending.append(pending)
            schedule, self._flush_scheduled = not self._flush_scheduled, True
        if schedule:
            if self._on_loop:
                self._flush_on_loop(loop)  # committed now: no loop round, no wake-up
            else:
                executor.submit(self._flush, loop)
        future = pending.future
        # committed (or failed) right here on the loop, or wait for the worker
        version = future.result() if future.done() else await future
        self._signals.wake(table_id, version)
        return version

    @_guarded
    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return events with seq > `after`, ascending, at most `limit`."""
        rows = await self._run(
            lambda: self._db().execute(_READ, (table_id, after, _sql_limit(limit))).fetchall()
        )
        return [StoredEvent(*row) for row in rows]

    @_guarded
    async def version(self, table_id: str) -> int:
        """Return the table's last seq, 0 when empty."""
        return await self._run(lambda: self._version_sync(table_id))

    @_guarded
    async def find_request(self, table_id: str, request_id: str) -> int | None:
        """Return the seq of the event carrying `request_id`, or None."""
        return await self._run(lambda: self._find_sync(table_id, request_id))

    @_guarded
    async def list_tables(self, limit: int = 100) -> list[str]:
        """Return up to `limit` table ids in ascending order."""
        rows = await self._run(lambda: self._db().execute(_TABLES, (limit,)).fetchall())
        return [str(row[0]) for row in rows]

    @_guarded
    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        """Return the version once it is > `after`, or the version after `timeout` s."""
        return await wait_for_version(
            self._signals, table_id, after, timeout, lambda: self.version(table_id)
        )

    @_guarded
    async def save_snapshot(self, table_id: str, seq: int, payload: bytes) -> None:
        """Keep a snapshot beside the log; see `EventStore.save_snapshot`."""
        await self._run(lambda: self._db().execute(_SAVE_SNAPSHOT, (table_id, seq, payload)))

    @_guarded
    async def latest_snapshot(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        """The latest snapshot at or before `at_most`; see `EventStore.latest_snapshot`."""
        bound = _NO_BOUND if at_most is None else at_most
        row = await self._run(
            lambda: self._db().execute(_LATEST_SNAPSHOT, (table_id, bound)).fetchone()
        )
        return None if row is None else (int(row[0]), bytes(row[1]))

    @_guarded
    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        """The latest snapshot and the events a load needs; see `EventStore.read_tail`."""
        bound = _NO_BOUND if at_most is None else at_most
        return await self._run(lambda: self._tail_sync(table_id, bound))

    # -- worker thread side -------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        """Open and configure the connection (worker thread)."""
        conn = sqlite3.connect(
            self._path,
            timeout=self._busy_timeout,
            isolation_level=None,
            cached_statements=64,
            check_same_thread=False,  # the loop commits too; `_conn_lock` serialises use
        )
        try:
            if self._path != MEMORY:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(f"PRAGMA synchronous={self._synchronous.upper()}")
                if self._checkpoints:  # they sync: the worker runs them, never a loop commit
                    conn.execute("PRAGMA wal_autocheckpoint=0")
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout * 1000)}")
            _in_transaction(conn, lambda: _create_schema(conn))
        except BaseException:
            conn.close()
            raise
        return conn

    def _db(self) -> sqlite3.Connection:
        """The open connection, or StoreClosed."""
        if self._conn is None:
            raise StoreClosed()
        return self._conn

    def _tail_sync(
        self, table_id: str, bound: int
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        conn = self._db()
        row = conn.execute(_LATEST_SNAPSHOT, (table_id, bound)).fetchone()
        found = None if row is None else (int(row[0]), bytes(row[1]))
        start = 0 if found is None else found[0]
        rows = conn.execute(_READ_TAIL, (table_id, start)).fetchall()
        return found, [StoredEvent(*r) for r in rows]

    def _version_sync(self, table_id: str) -> int:
        row = self._db().execute(_VERSION, (table_id,)).fetchone()
        return int(row[0])

    def _find_sync(self, table_id: str, request_id: str) -> int | None:
        row = self._db().execute(_FIND, (table_id, request_id)).fetchone()
        return None if row is None else int(row[0])

    def _take_batch(self) -> list[Pending]:
        with self._pending_lock:
            batch, self._pending, self._flush_scheduled = self._pending, [], False
        return batch

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit every pending append in one transaction and answer them (worker thread)."""
        with self._conn_lock:
            batch = self._take_batch()
            try:
                conn = self._db()
            except StoreClosed as exc:
                for item in batch:
                    item.outcome = exc
            else:
                self._patient(conn)
                self._commit_batch(conn, batch, begun=False)
        loop.call_soon_threadsafe(deliver, batch)
        if self._checkpoints and self._commits >= CHECKPOINT_EVERY:  # after the answers
            self._commits = 0
            self._locked(self._checkpoint)

    def _commit_batch(self, conn: sqlite3.Connection, batch: list[Pending], begun: bool) -> None:
        """Write `batch` in one transaction (`begun`: BEGIN IMMEDIATE was already run);
        each item's outcome is its new version or its error. A lone one-row append (the
        usual move) is one statement, which SQLite commits (and syncs, in "full" mode) as
        its own transaction: no BEGIN / COMMIT round trips, each a GIL hand-off here."""
        if not begun and _lone_row(batch):
            try:
                self._append_one(batch[0])
            except BaseException as exc:  # nothing was written
                batch[0].outcome = exc
            if isinstance(batch[0].outcome, int):
                self._commits += 1
            return

        def write_all() -> None:
            for item in batch:
                self._append_one(item)

        try:
            _in_transaction(conn, write_all, begun)
        except BaseException as exc:  # nothing was written: every append in the batch fails
            for item in batch:
                item.outcome = exc
        else:
            self._commits += 1

    def _checkpoint(self) -> None:
        """Copy the WAL into the database file as far as readers allow (never waits)."""
        with contextlib.suppress(sqlite3.Error):
            self._db().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _append_one(self, item: Pending) -> None:
        """Check and insert one append (worker thread). Several rows go inside their own
        savepoint; a single INSERT is atomic by itself, so a lone row needs none."""
        conn = self._db()
        single = len(item.rows) == 1
        if not single:
            conn.execute("SAVEPOINT one_append")
        try:
            if single:  # check and insert in one statement (one GIL hand-off on the worker)
                table_id, request_id = item.table_id, item.request_id
                checks = (table_id, item.expected, table_id, request_id)
                if conn.execute(_CHECKED_INSERT, item.rows[0] + checks).rowcount != 1:
                    self._check_free(table_id, item.expected, request_id)  # raises
                    raise VersionConflict(item.expected, self._version_sync(table_id))
            else:
                self._check_free(item.table_id, item.expected, item.request_id)
                conn.executemany(_INSERT, item.rows)
            item.outcome = item.expected + len(item.rows)
        except (DuplicateRequest, VersionConflict, sqlite3.IntegrityError) as exc:
            if not single:
                conn.execute("ROLLBACK TO one_append")
            item.outcome = self._mapped(item, exc)
        if not single:
            conn.execute("RELEASE one_append")

    def _mapped(self, item: Pending, exc: BaseException) -> BaseException:
        """A unique-key violation as DuplicateRequest / VersionConflict; others unchanged."""
        if not isinstance(exc, sqlite3.IntegrityError):
            return exc
        conflict = self._conflict(item.table_id, item.expected, item.request_id, str(exc))
        return exc if conflict is None else conflict

    def _check_free(self, table_id: str, expected: int, request_id: str | None) -> None:
        """Raise DuplicateRequest / VersionConflict unless the append may proceed."""
        actual, seq = self._db().execute(_CHECK, (table_id, table_id, request_id)).fetchone()
        if request_id is not None and seq is not None:
            raise DuplicateRequest(table_id, request_id, int(seq))
        if actual != expected:
            raise VersionConflict(expected, int(actual))

    def _conflict(
        self, table_id: str, expected: int, request_id: str | None, message: str
    ) -> DuplicateRequest | VersionConflict | None:
        """Map a unique-key violation to DuplicateRequest or VersionConflict (else None)."""
        if not message.startswith("UNIQUE constraint failed"):
            return None
        if request_id is not None and "request_id" in message:
            seq = self._find_sync(table_id, request_id)
            if seq is not None:
                return DuplicateRequest(table_id, request_id, seq)
        return VersionConflict(expected, self._version_sync(table_id))

    # -- event loop side ----------------------------------------------------------------

    async def _run(self, fn: Callable[[], T]) -> T:
        """Run `fn` on the worker thread, holding the connection."""
        if self._executor is None:
            raise StoreClosed()
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._locked, fn)

    def _locked(self, fn: Callable[[], T]) -> T:
        with self._conn_lock:
            if self._conn is not None:
                self._patient(self._conn)
            return fn()

    def _patient(self, conn: sqlite3.Connection) -> None:
        """Give the connection its busy timeout back if a loop commit took it away."""
        if self._impatient:
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout * 1000)}")
            self._impatient = False

    def _hasty(self, conn: sqlite3.Connection) -> None:
        """Busy timeout 0: the loop must never wait for another process's write lock."""
        if not self._impatient:
            conn.execute("PRAGMA busy_timeout=0")
            self._impatient = True

    def _flush_on_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit the pending appends here on the loop when the connection and the file's
        write lock are free; else hand them to the worker thread. (Measured with
        `bench/service.py --sqlite-sync normal`: committing each append on the loop beats
        the worker's bigger batches at 8 and 32 callers too - the hand-over and the
        suspended RPC cost the loop more than the commit.)"""
        executor, conn = self._executor, self._conn
        if (
            conn is None
            or executor is None
            or not self._conn_lock.acquire(blocking=False)
        ):
            self._hand_to_worker(executor, loop)
            return
        try:
            batch = self._commit_on_loop(conn)
        finally:
            self._conn_lock.release()
        if batch is None:
            self._hand_to_worker(executor, loop)
            return
        deliver(batch)
        if self._checkpoints and self._commits >= CHECKPOINT_EVERY:
            self._commits = 0
            executor.submit(self._locked, self._checkpoint)

    def _commit_on_loop(self, conn: sqlite3.Connection) -> list[Pending] | None:
        """Commit the pending appends without waiting for another writer and return them;
        None if that did not work and nothing was written (the worker then tries, waiting
        up to the busy timeout, and reports any error)."""
        try:
            self._hasty(conn)
        except sqlite3.Error:
            return None
        if not _lone_row(self._pending):
            if not self._begin_now(conn):
                return None
            batch = self._take_batch()
            self._commit_batch(conn, batch, begun=True)
            return batch
        batch = self._take_batch()
        try:
            self._append_one(batch[0])  # a statement of its own: committed by itself
        except sqlite3.Error:  # e.g. another process holds the write lock: not written
            with self._pending_lock:
                self._pending[:0] = batch
                self._flush_scheduled = True
            return None
        if isinstance(batch[0].outcome, int):
            self._commits += 1
        return batch

    def _begin_now(self, conn: sqlite3.Connection) -> bool:
        """BEGIN IMMEDIATE without waiting for another writer (busy timeout 0); False if
        that did not work."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            return False
        return True

    def _hand_to_worker(
        self, executor: ThreadPoolExecutor | None, loop: asyncio.AbstractEventLoop
    ) -> None:
        if executor is not None:
            executor.submit(self._flush, loop)
            return
        deliver(self._take_batch())  # closed meanwhile: every pending append fails

    async def _poll_other_writers(self) -> None:
        """Wake all waiters when another connection commits to the file."""
        last = -1
        while True:
            await asyncio.sleep(self._poll_interval)
            if not self._signals.has_waiters():
                continue
            try:
                current = await self._run(self._data_version)
            except sqlite3.Error:
                current = -1  # cannot tell: let the waiters re-read for themselves
            if current != last or current == -1:
                last = current
                self._signals.wake_all()

    def _data_version(self) -> int:
        return int(self._db().execute("PRAGMA data_version").fetchone()[0])


def _in_transaction(conn: sqlite3.Connection, work: Callable[[], T], begun: bool = False) -> T:
    """Run `work` inside BEGIN IMMEDIATE ... COMMIT, rolling back on any error."""
    if not begun:
        conn.execute("BEGIN IMMEDIATE")
    try:
        result = work()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _lone_row(batch: list[Pending]) -> bool:
    """Whether `batch` is one append of one row."""
    return len(batch) == 1 and len(batch[0].rows) == 1


def _create_schema(conn: sqlite3.Connection) -> None:
    """Create the events table and request-id index if they do not exist."""
    for sql in _SCHEMA:
        conn.execute(sql)


def _sql_limit(limit: int | None) -> int:
    """SQLite spells "no limit" as a negative LIMIT."""
    return -1 if limit is None else max(limit, 0)
