"""Shared event store on PostgreSQL (psycopg 3, async, pooled), for several server replicas.

Appends are group-committed: the appends that arrive while a batch is being written wait
and go together in the next one, a single statement (one round trip, one transaction, one
commit) that checks and inserts each append on its own and sends ONE notification for the
whole batch, `NOTIFY tarok_events, '[["<table_id>", <seq>], ...]'` (JSON) listing every append
that went in; a lone append notifies `<table_id>:<seq>`. The notification is delivered
exactly when the events are committed. The group commit runs on a thread of its own
(`_pgwrite.py`) with a synchronous connection of its own, opened once and kept (replaced
when it breaks): the event loop only queues an append and awaits its outcome, and psycopg
releases the GIL while the thread waits for the server. A one-event append, the usual
move, is sent with plain parameters and a batch as two JSON texts, both far cheaper for the
client than Python lists dumped as arrays. Reads go through the async pool.
A lone append, and every append of a batch that lost an insert race to another replica,
goes through the single-append statement, whose unique-key errors are mapped to
`VersionConflict` / `DuplicateRequest`. Each store instance keeps one dedicated LISTEN
connection, on a thread of its own (`_pglisten.py`), and fans notifications out to its
in-process waiters; a watcher on one replica therefore sees moves made on another.

With a bus (`bus_url`, NATS: `_natsbus.py`) the replicas tell each other of new versions
over it instead: no NOTIFY is sent inside the append (PostgreSQL takes a global lock at the
commit of a transaction that notified) and no LISTEN connection is held.

High availability: the DSN may name several hosts (`postgresql://u@a:5432,b:5432,c:5432/db
?target_session_attrs=read-write`); every connection (pool, writer, listener) is bounded as
`_pgconn.py` says, a read that outlasts the limit has its connection cut, and an append
whose connection died in flight is resolved by reading it back (`_pgwrite.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from ._natsbus import NatsBus
from ._pending import Pending, Row
from ._pgconn import connect_kwargs, interrupt
from ._pglisten import PgListener
from ._pgwrite import FIND, PRIMARY_KEY, REQUEST_INDEX, VERSION, PgWriter
from ._wakeup import TableSignals, wait_for_version
from .base import (
    NewEvent,
    StoreClosed,
    StoredEvent,
    check_append_args,
    unavailable_on,
)

_SCHEMA_LOCK = 0x7A70_4B65_7665  # pg_advisory_xact_lock key serialising schema creation

_SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        type TEXT NOT NULL,
        payload BYTEA NOT NULL,
        request_id TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        CONSTRAINT {PRIMARY_KEY} PRIMARY KEY (table_id, seq)
    )""",
    f"""CREATE UNIQUE INDEX IF NOT EXISTS {REQUEST_INDEX}
        ON events (table_id, request_id) WHERE request_id IS NOT NULL""",
    """CREATE TABLE IF NOT EXISTS snapshots (
        table_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        payload BYTEA NOT NULL,
        PRIMARY KEY (table_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS kept_values (
        name TEXT PRIMARY KEY,
        value BYTEA NOT NULL
    )""",
)
# One statement each: a racing insert waits for the first one's commit, then does nothing.
_KEEP_VALUE = "INSERT INTO kept_values (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING"
_KEPT_VALUE = "SELECT value FROM kept_values WHERE name = %s"
_SAVE_SNAPSHOT = (
    "INSERT INTO snapshots (table_id, seq, payload) VALUES (%s, %s, %s)"
    " ON CONFLICT (table_id, seq) DO UPDATE SET payload = EXCLUDED.payload"
)
_LATEST_SNAPSHOT = (
    "SELECT seq, payload FROM snapshots WHERE table_id = %s AND seq <= %s ORDER BY seq DESC LIMIT 1"
)
# The latest snapshot (at most %(m)s) and the events a load from it needs, in one statement.
_READ_TAIL = """WITH s AS (
    SELECT seq, payload FROM snapshots WHERE table_id = %(t)s AND seq <= %(m)s
    ORDER BY seq DESC LIMIT 1
)
SELECT (SELECT seq FROM s), (SELECT payload FROM s),
    e.table_id, e.seq, e.type, e.payload, e.request_id, e.created_at
FROM events e
WHERE e.table_id = %(t)s AND (e.seq = 1 OR e.seq >= COALESCE((SELECT seq FROM s), 0))
ORDER BY e.seq"""
_NO_BOUND = 2**62
_READ = (
    "SELECT table_id, seq, type, payload, request_id, created_at FROM events"
    " WHERE table_id = %s AND seq > %s ORDER BY seq LIMIT %s"
)
_TABLES = "SELECT DISTINCT table_id FROM events ORDER BY table_id LIMIT %s"
# A lost connection, a pool timeout (PoolTimeout is an OperationalError), a terminated
# backend, a lock or serialization failure: StoreUnavailable (see `_connection` for the pool).
_guarded = unavailable_on((psycopg.OperationalError, psycopg.InterfaceError, OSError))


class PostgresEventStore:
    """`EventStore` on a PostgreSQL database shared by any number of server processes."""

    def __init__(
        self,
        dsn: str,
        min_size: int = 1,
        max_size: int = 10,
        recheck_interval: float = 5.0,
        open_timeout: float = 10.0,
        timeout: float = 3.0,
        bus_url: str | None = None,
    ) -> None:
        self._dsn = dsn
        self._timeout = timeout  # longest wait for a pooled connection
        self._swaps: set[asyncio.Task[None]] = set()  # pools being replaced
        self._swapping = False  # a fresh pool is being opened
        self._retired: list[AsyncConnectionPool[Any]] = []  # replaced, closing soon
        self._min_size = min_size
        self._max_size = max_size
        self._recheck = recheck_interval
        self._open_timeout = open_timeout
        self._pool: AsyncConnectionPool[Any] | None = None
        self._signals = TableSignals()
        self._listener: PgListener | None = None  # the LISTEN connection's thread
        self._writer: PgWriter | None = None  # the group commit's thread and connection
        self._bus = None if bus_url is None else NatsBus(bus_url, self._signals, timeout)

    @property
    def dsn(self) -> str:
        """The connection string this store uses."""
        return self._dsn

    async def open(self) -> None:
        """Open the pool, create the schema if missing and start listening."""
        if self._pool is not None:
            return
        pool = self._new_pool()
        await pool.open(wait=True, timeout=self._open_timeout)
        loop = asyncio.get_running_loop()
        listener = None
        try:
            await _create_schema(pool)
            if self._bus is not None:
                await self._bus.open()
            else:
                listener = PgListener(self._dsn, self._timeout, self._signals, loop)
                await asyncio.to_thread(listener.connect)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self._writer = PgWriter(
            self._dsn, self._timeout, loop, notify=self._bus is None, lost=self._renew_pool
        )
        self._listener = listener
        if listener is not None:
            listener.start()

    async def close(self) -> None:
        """Stop listening and close every connection (appends being written finish first)."""
        if self._pool is None:
            return
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await writer.close()
        for swap in list(self._swaps):  # pools being replaced
            swap.cancel()
            with contextlib.suppress(BaseException):
                await swap
        for retired in self._retired:
            with contextlib.suppress(Exception):
                await retired.close(timeout=self._timeout)
        self._retired = []
        pool, self._pool = self._pool, None
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        if self._bus is not None:
            await self._bus.close()
        await pool.close()
        self._signals.wake_all()

    @_guarded
    async def append(
        self, table_id: str, expected_version: int, events: Sequence[NewEvent], now: float
    ) -> int:
        """Append events atomically at `expected_version`; see `EventStore.append`."""
        check_append_args(expected_version, events)
        writer = self._writer
        if writer is None:
            raise StoreClosed()
        request_id = events[0].request_id
        rows: list[Row] = [
            (table_id, expected_version + i, e.type, e.payload, request_id if i == 1 else None, now)
            for i, e in enumerate(events, start=1)
        ]
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        writer.submit(Pending(table_id, expected_version, request_id, rows, future))
        new_version = await future
        self._signals.wake(table_id, new_version)
        if self._bus is not None:
            await self._bus.publish(table_id, new_version)
        return new_version

    @_guarded
    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return events with seq > `after`, ascending, at most `limit`."""
        async with self._connection() as conn:
            cur = await conn.execute(_READ, (table_id, after, limit))
            rows = await cur.fetchall()
        return [StoredEvent(t, int(s), ty, bytes(p), r, float(c)) for t, s, ty, p, r, c in rows]

    @_guarded
    async def version(self, table_id: str) -> int:
        """Return the table's last seq, 0 when empty."""
        async with self._connection() as conn:
            cur = await conn.execute(VERSION, (table_id,))
            row = await cur.fetchone()
        return 0 if row is None else int(row[0])

    @_guarded
    async def find_request(self, table_id: str, request_id: str) -> int | None:
        """Return the seq of the event carrying `request_id`, or None."""
        async with self._connection() as conn:
            cur = await conn.execute(FIND, (table_id, request_id))
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    @_guarded
    async def list_tables(self, limit: int = 100) -> list[str]:
        """Return up to `limit` table ids in ascending order."""
        async with self._connection() as conn:
            cur = await conn.execute(_TABLES, (limit,))
            rows = await cur.fetchall()
        return [str(row[0]) for row in rows]

    @_guarded
    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        """Return the version once it is > `after`, or the version after `timeout` s."""
        bus = self._bus
        if bus is not None:
            await bus.watch(table_id)  # subscribed before the version is read
        try:
            return await wait_for_version(
                self._signals,
                table_id,
                after,
                timeout,
                lambda: self.version(table_id),
                recheck=self._recheck,
            )
        finally:
            if bus is not None:
                bus.unwatch(table_id)

    @_guarded
    async def save_snapshot(self, table_id: str, seq: int, payload: bytes) -> None:
        """Keep a snapshot beside the log; see `EventStore.save_snapshot`."""
        async with self._connection() as conn:
            await conn.execute(_SAVE_SNAPSHOT, (table_id, seq, payload))

    @_guarded
    async def latest_snapshot(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        """The latest snapshot at or before `at_most`; see `EventStore.latest_snapshot`."""
        bound = _NO_BOUND if at_most is None else at_most
        async with self._connection() as conn:
            cur = await conn.execute(_LATEST_SNAPSHOT, (table_id, bound))
            row = await cur.fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    @_guarded
    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        """The latest snapshot and the events a load needs; see `EventStore.read_tail`."""
        bound = _NO_BOUND if at_most is None else at_most
        async with self._connection() as conn:
            cur = await conn.execute(_READ_TAIL, {"t": table_id, "m": bound})
            rows = await cur.fetchall()
        if not rows:
            return None, []
        seq, payload = rows[0][0], rows[0][1]
        found = None if seq is None else (int(seq), bytes(payload))
        return found, [
            StoredEvent(t, int(s), ty, bytes(p), r, float(c)) for _, _, t, s, ty, p, r, c in rows
        ]

    @_guarded
    async def get_or_set(self, name: str, value: bytes) -> bytes:
        """The value kept under `name`, stored first if missing; see `EventStore.get_or_set`."""
        async with self._connection() as conn:
            await conn.execute(_KEEP_VALUE, (name, value))
            cur = await conn.execute(_KEPT_VALUE, (name,))
            row = await cur.fetchone()
        assert row is not None  # inserted above, or by whoever won the race
        return bytes(row[0])

    # -- internals ----------------------------------------------------------------------

    def _new_pool(self) -> AsyncConnectionPool[Any]:
        return AsyncConnectionPool(
            self._dsn,
            # The writer thread's own connection counts against `max_size`, as it did when it
            # was taken from the pool: the store still opens at most max_size + 1 (LISTEN).
            min_size=min(self._min_size, max(1, self._max_size - 1)),
            max_size=max(1, self._max_size - 1),
            kwargs=connect_kwargs(self._timeout),
            open=False,
            timeout=self._timeout,
            # Give up on a failing reconnection soon: the pool then grows again on demand at
            # once, instead of waiting out an ever longer back-off after an outage.
            reconnect_timeout=self._timeout,
        )

    def _renew_pool(self) -> None:
        """Replace the pool by a fresh one, closing the old one a little later. After a
        failover its idle connections may lead to a node that is no longer the primary: a
        frozen one (its statements hang) or, once thawed and until its failover manager
        demotes it, a stale one (its reads are old). New connections go, over a multi-host
        address, to the node that takes writes now. Only the current pool's failures call
        this (`_connection`), so a burst of failures replaces it once."""
        if self._pool is None or self._swapping:
            return
        self._swapping = True
        swap = asyncio.get_running_loop().create_task(self._swap_pool())
        self._swaps.add(swap)
        swap.add_done_callback(self._swaps.discard)

    async def _swap_pool(self) -> None:
        fresh = self._new_pool()
        try:
            await fresh.open(wait=False)
        except Exception:
            self._swapping = False
            return
        old, self._swapping = self._pool, False
        if old is None:  # the store closed meanwhile
            await fresh.close(timeout=self._timeout)
            return
        self._pool, self._retired = fresh, [*self._retired, old]
        # Calls waiting for one of its connections get their `timeout` to have one (a
        # closed pool would fail them at once), then it is closed.
        await asyncio.sleep(self._timeout)
        if old in self._retired:
            self._retired.remove(old)
            with contextlib.suppress(Exception):
                await old.close(timeout=self._timeout)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A pooled connection whose use is bounded: past twice the store's timeout its
        socket is cut (a frozen server's kernel may still acknowledge every packet, and
        then nothing else ends the wait), so the call fails as StoreUnavailable."""
        pool = self._db()
        async with pool.connection() as conn:
            handle = asyncio.get_running_loop().call_later(2 * self._timeout, interrupt, conn)
            try:
                yield conn
            except (psycopg.OperationalError, psycopg.InterfaceError, OSError):
                if pool is self._pool:  # not one of a pool replaced already
                    self._renew_pool()
                raise
            finally:
                handle.cancel()

    def _db(self) -> AsyncConnectionPool[Any]:
        """The open pool, or StoreClosed."""
        if self._pool is None:
            raise StoreClosed()
        return self._pool


async def _create_schema(pool: AsyncConnectionPool[Any]) -> None:
    """Create table and index idempotently; an advisory lock serialises racing processes."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        for sql in _SCHEMA:
            await conn.execute(sql)
