"""Shared event store on PostgreSQL (psycopg 3, async, pooled), for several server replicas.

Appends are group-committed: the appends that arrive while a batch is being written wait
and go together in the next one, a single statement (one round trip, one transaction, one
commit) that checks and inserts each append on its own and sends ONE notification for the
whole batch, `NOTIFY tarok_events, '[["<table_id>", <seq>], ...]'` (JSON) listing every append
that went in; a lone append notifies `<table_id>:<seq>`. The notification is delivered
exactly when the events are committed. The group-commit task writes on a connection of its
own, taken from the pool once and kept (given back when it breaks); a one-event append, the
usual move, is sent with plain parameters and a batch as two JSON texts, both far cheaper
for the client than Python lists dumped as arrays.
A lone append, and every append of a batch that lost an insert race to another replica,
goes through the single-append statement, whose unique-key errors are mapped to
`VersionConflict` / `DuplicateRequest`. Each store instance keeps one dedicated LISTEN
connection and fans notifications out to its in-process waiters; a watcher on one replica
therefore sees moves made on another.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from ._pending import Pending, Row
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

CHANNEL = "tarok_events"
PRIMARY_KEY = "events_pkey"
REQUEST_INDEX = "events_request_id_key"
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
)
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
_VERSION = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s"
_FIND = "SELECT seq FROM events WHERE table_id = %s AND request_id = %s"
# Check, insert and notify in ONE statement (one round trip, its own transaction in autocommit):
# the rows go in only when the version matches and the request id is new; a concurrent writer
# that got there first makes the insert fail on the primary key (mapped to VersionConflict).
_APPEND = """WITH cur AS (
    SELECT COALESCE(MAX(seq), 0) AS v,
        (SELECT seq FROM events WHERE table_id = %(t)s AND request_id = %(r)s) AS dup
    FROM events WHERE table_id = %(t)s
), ins AS (
    INSERT INTO events (table_id, seq, type, payload, request_id, created_at)
    SELECT %(t)s, x.s, x.ty, x.p, x.r, %(now)s
    FROM unnest(%(seqs)s::bigint[], %(types)s::text[], %(payloads)s::bytea[], %(rids)s::text[])
        AS x(s, ty, p, r), cur
    WHERE cur.v = %(expected)s AND cur.dup IS NULL
    RETURNING seq
)
SELECT cur.v, cur.dup, n.count,
    CASE WHEN n.count > 0 THEN pg_notify(%(channel)s, %(message)s) END
FROM cur, (SELECT count(*) AS count FROM ins) AS n"""
# The same for the usual append of ONE event, with plain parameters: dumping Python lists as
# arrays costs the client more CPU than the whole round trip.
_APPEND_ROW = """WITH cur AS (
    SELECT COALESCE(MAX(seq), 0) AS v,
        (SELECT seq FROM events WHERE table_id = %(t)s AND request_id = %(r)s::text) AS dup
    FROM events WHERE table_id = %(t)s
), ins AS (
    INSERT INTO events (table_id, seq, type, payload, request_id, created_at)
    SELECT %(t)s, %(expected)s::bigint + 1, %(type)s, %(payload)s, %(r)s::text, %(now)s
    FROM cur
    WHERE cur.v = %(expected)s::bigint AND cur.dup IS NULL
    RETURNING seq
)
SELECT cur.v, cur.dup, n.count,
    CASE WHEN n.count > 0 THEN pg_notify(%(channel)s, %(message)s) END
FROM cur, (SELECT count(*) AS count FROM ins) AS n"""
# Several appends (to distinct tables) in one statement: each goes in only when its table is
# at its expected version and its request id is new; one pg_notify lists those that went in.
# The batch travels as two JSON texts (appends, rows; payloads in hex) that the server
# takes apart: a dozen Python lists dumped as arrays cost the client far more CPU.
_APPEND_MANY = """WITH a AS (
    SELECT * FROM json_to_recordset(%(appends)s::json)
        AS a(i int, t text, expected bigint, r text, last bigint)
), cur AS (
    SELECT a.i, a.t, a.expected, a.last,
        (SELECT COALESCE(MAX(e.seq), 0) FROM events e WHERE e.table_id = a.t) AS v,
        (SELECT e.seq FROM events e WHERE e.table_id = a.t AND e.request_id = a.r) AS dup
    FROM a
), ok AS (
    SELECT i, t, last FROM cur WHERE v = expected AND dup IS NULL
), ins AS (
    INSERT INTO events (table_id, seq, type, payload, request_id, created_at)
    SELECT x.t, x.s, x.ty, decode(x.p, 'hex'), x.r, x.now
    FROM json_to_recordset(%(rows)s::json)
        AS x(i int, t text, s bigint, ty text, p text, r text, now float8)
    WHERE x.i IN (SELECT i FROM ok)
    RETURNING 1
), note AS (
    SELECT pg_notify(%(channel)s, json_agg(json_build_array(t, last) ORDER BY i)::text) AS sent
    FROM ok HAVING count(*) > 0
)
SELECT cur.i, cur.v, cur.dup, (SELECT count(*) FROM ins), (SELECT count(*) FROM note)
FROM cur ORDER BY cur.i"""
_APPEND_KEYS = ("i", "t", "expected", "r", "last")
_ROW_KEYS = ("i", "t", "s", "ty", "p", "r", "now")
MAX_BATCH = 64  # appends per group commit
MAX_NOTE_CHARS = 6000  # JSON characters per batch notification (payloads stop at 8000 bytes)
_READ = (
    "SELECT table_id, seq, type, payload, request_id, created_at FROM events"
    " WHERE table_id = %s AND seq > %s ORDER BY seq LIMIT %s"
)
_TABLES = "SELECT DISTINCT table_id FROM events ORDER BY table_id LIMIT %s"
# A lost connection, a pool timeout (PoolTimeout is an OperationalError), a terminated
# backend, a lock or serialization failure: StoreUnavailable, and the pool is checked.
_guarded = unavailable_on((psycopg.OperationalError, psycopg.InterfaceError, OSError), "_lost")


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
    ) -> None:
        self._dsn = dsn
        self._timeout = timeout  # longest wait for a pooled connection
        self._checking: asyncio.Task[None] | None = None
        self._min_size = min_size
        self._max_size = max_size
        self._recheck = recheck_interval
        self._open_timeout = open_timeout
        self._pool: AsyncConnectionPool[Any] | None = None
        self._signals = TableSignals()
        self._listener: asyncio.Task[None] | None = None
        self._listen_conn: psycopg.AsyncConnection[Any] | None = None
        self._pending: list[Pending] = []
        self._writer: asyncio.Task[None] | None = None
        self._write_conn: psycopg.AsyncConnection[Any] | None = None  # the writer's own

    @property
    def dsn(self) -> str:
        """The connection string this store uses."""
        return self._dsn

    async def open(self) -> None:
        """Open the pool, create the schema if missing and start listening."""
        if self._pool is not None:
            return
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            self._dsn,
            min_size=self._min_size,
            max_size=self._max_size,
            kwargs={"autocommit": True, "connect_timeout": _connect_timeout(self._timeout)},
            open=False,
            timeout=self._timeout,
            # Give up on a failing reconnection soon: the pool then grows again on demand at
            # once, instead of waiting out an ever longer back-off after an outage.
            reconnect_timeout=self._timeout,
        )
        await pool.open(wait=True, timeout=self._open_timeout)
        try:
            await _create_schema(pool)
            conn = await self._listen_connection()
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self._listen_conn = conn
        self._listener = asyncio.create_task(self._listen(conn))

    async def close(self) -> None:
        """Stop listening and close every connection (appends being written finish first)."""
        if self._pool is None:
            return
        if self._writer is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._write_conn is not None:
            conn, self._write_conn = self._write_conn, None
            with contextlib.suppress(Exception):
                await self._pool.putconn(conn)
        pool, self._pool = self._pool, None
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        if self._listen_conn is not None:  # the task may have been cancelled before it ran
            await self._listen_conn.close()
            self._listen_conn = None
        await pool.close()
        self._signals.wake_all()

    @_guarded
    async def append(
        self, table_id: str, expected_version: int, events: Sequence[NewEvent], now: float
    ) -> int:
        """Append events atomically at `expected_version`; see `EventStore.append`."""
        check_append_args(expected_version, events)
        self._db()
        request_id = events[0].request_id
        rows: list[Row] = [
            (table_id, expected_version + i, e.type, e.payload, request_id if i == 1 else None, now)
            for i, e in enumerate(events, start=1)
        ]
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending.append(Pending(table_id, expected_version, request_id, rows, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        new_version = await future
        self._signals.wake(table_id, new_version)
        return new_version

    @_guarded
    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return events with seq > `after`, ascending, at most `limit`."""
        async with self._db().connection() as conn:
            cur = await conn.execute(_READ, (table_id, after, limit))
            rows = await cur.fetchall()
        return [StoredEvent(t, int(s), ty, bytes(p), r, float(c)) for t, s, ty, p, r, c in rows]

    @_guarded
    async def version(self, table_id: str) -> int:
        """Return the table's last seq, 0 when empty."""
        async with self._db().connection() as conn:
            cur = await conn.execute(_VERSION, (table_id,))
            row = await cur.fetchone()
        return 0 if row is None else int(row[0])

    @_guarded
    async def find_request(self, table_id: str, request_id: str) -> int | None:
        """Return the seq of the event carrying `request_id`, or None."""
        async with self._db().connection() as conn:
            cur = await conn.execute(_FIND, (table_id, request_id))
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    @_guarded
    async def list_tables(self, limit: int = 100) -> list[str]:
        """Return up to `limit` table ids in ascending order."""
        async with self._db().connection() as conn:
            cur = await conn.execute(_TABLES, (limit,))
            rows = await cur.fetchall()
        return [str(row[0]) for row in rows]

    @_guarded
    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        """Return the version once it is > `after`, or the version after `timeout` s."""
        return await wait_for_version(
            self._signals,
            table_id,
            after,
            timeout,
            lambda: self.version(table_id),
            recheck=self._recheck,
        )

    # -- group commit -------------------------------------------------------------------

    async def _write_pending(self) -> None:
        """Write the pending appends batch by batch until none is left (one task at a time)."""
        while self._pending:
            batch = self._next_batch()
            try:
                if len(batch) == 1:
                    await self._write_one(batch[0])
                else:
                    await self._write_batch(batch)
            except asyncio.CancelledError:  # the loop is going away: so are the callers
                for item in [*batch, *self._pending]:
                    item.future.cancel()
                self._pending = []
                raise
            except Exception as exc:  # nothing of this batch was written
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(exc)

    def _next_batch(self) -> list[Pending]:
        """Up to MAX_BATCH pending appends, at most one per table (the others wait their turn)."""
        batch: list[Pending] = []
        rest: list[Pending] = []
        tables: set[str] = set()
        chars = 0
        for item in self._pending:
            size = len(json.dumps([item.table_id, item.expected + len(item.rows)])) + 2
            if (
                item.table_id in tables
                or len(batch) >= MAX_BATCH
                or (batch and chars + size > MAX_NOTE_CHARS)
            ):
                rest.append(item)
                continue
            tables.add(item.table_id)
            chars += size
            batch.append(item)
        self._pending = rest
        return batch

    async def _write_one(self, item: Pending) -> None:
        """One append on its own statement; its outcome (or mapped error) goes to its future."""
        try:
            await self._insert(item.table_id, item.expected, item.request_id, item.rows)
        except errors.UniqueViolation as exc:
            conflict = await self._conflict(item.table_id, item.expected, item.request_id, exc)
            item.future.set_exception(exc if conflict is None else conflict)
        except (DuplicateRequest, VersionConflict) as exc:
            item.future.set_exception(exc)
        else:
            item.future.set_result(item.expected + len(item.rows))

    async def _write_batch(self, batch: list[Pending]) -> None:
        """Several appends (distinct tables) in one statement; after a lost insert race with
        another writer, each append is retried on its own so it gets its precise outcome."""
        appends = [
            (i, item.table_id, item.expected, item.request_id, item.expected + len(item.rows))
            for i, item in enumerate(batch)
        ]
        rows = [
            (i, t, seq, kind, payload.hex(), rid, now)
            for i, item in enumerate(batch)
            for t, seq, kind, payload, rid, now in item.rows
        ]
        params = {
            "appends": json.dumps([dict(zip(_APPEND_KEYS, a, strict=True)) for a in appends]),
            "rows": json.dumps([dict(zip(_ROW_KEYS, r, strict=True)) for r in rows]),
            "channel": CHANNEL,
        }
        try:
            results = await self._write(_APPEND_MANY, params)
        except errors.UniqueViolation:
            for item in batch:
                await self._write_one(item)
            return
        for (_, actual, first_seq, _, _), item in zip(results or [], batch, strict=True):
            if item.request_id is not None and first_seq is not None:
                dup = DuplicateRequest(item.table_id, item.request_id, int(first_seq))
                item.future.set_exception(dup)
            elif int(actual) != item.expected:
                item.future.set_exception(VersionConflict(item.expected, int(actual)))
            else:
                item.future.set_result(item.expected + len(item.rows))

    @_guarded
    async def save_snapshot(self, table_id: str, seq: int, payload: bytes) -> None:
        """Keep a snapshot beside the log; see `EventStore.save_snapshot`."""
        async with self._db().connection() as conn:
            await conn.execute(_SAVE_SNAPSHOT, (table_id, seq, payload))

    @_guarded
    async def latest_snapshot(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        """The latest snapshot at or before `at_most`; see `EventStore.latest_snapshot`."""
        bound = _NO_BOUND if at_most is None else at_most
        async with self._db().connection() as conn:
            cur = await conn.execute(_LATEST_SNAPSHOT, (table_id, bound))
            row = await cur.fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    @_guarded
    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        """The latest snapshot and the events a load needs; see `EventStore.read_tail`."""
        bound = _NO_BOUND if at_most is None else at_most
        async with self._db().connection() as conn:
            cur = await conn.execute(_READ_TAIL, {"t": table_id, "m": bound})
            rows = await cur.fetchall()
        if not rows:
            return None, []
        seq, payload = rows[0][0], rows[0][1]
        found = None if seq is None else (int(seq), bytes(payload))
        return found, [
            StoredEvent(t, int(s), ty, bytes(p), r, float(c)) for _, _, t, s, ty, p, r, c in rows
        ]

    # -- internals ----------------------------------------------------------------------

    def _lost(self, exc: BaseException) -> None:
        """A call failed for want of the database: drop every broken pooled connection now
        (in the background), so that calls work again as soon as the database is back."""
        if self._pool is None or (self._checking is not None and not self._checking.done()):
            return
        self._checking = asyncio.get_running_loop().create_task(self._check_pool(self._pool))

    async def _check_pool(self, pool: AsyncConnectionPool[Any]) -> None:
        with contextlib.suppress(Exception):
            await pool.check()

    async def _write(self, sql: str, params: dict[str, Any], one: bool = False) -> Any:
        """Run an append statement on the writer's own connection (taken from the pool once
        and kept: the group-commit task is its only user); fetch one row or all rows. A
        connection that fails goes back to the pool, which drops it if it is broken."""
        conn = self._write_conn
        if conn is None or conn.closed:
            conn = self._write_conn = await self._db().getconn()
        try:
            cur = await conn.execute(sql, params, prepare=True)
            return await (cur.fetchone() if one else cur.fetchall())
        except BaseException:
            idle = conn.info.transaction_status == TransactionStatus.IDLE
            if conn.broken or conn.closed or not idle:  # else only the statement failed
                self._write_conn = None
                with contextlib.suppress(Exception):
                    await self._db().putconn(conn)
            raise

    def _db(self) -> AsyncConnectionPool[Any]:
        """The open pool, or StoreClosed."""
        if self._pool is None:
            raise StoreClosed()
        return self._pool

    async def _insert(
        self,
        table_id: str,
        expected: int,
        request_id: str | None,
        rows: list[tuple[str, int, str, bytes, str | None, float]],
    ) -> None:
        """Check, insert and notify in one statement (one round trip, one transaction)."""
        params: dict[str, Any] = {
            "t": table_id,
            "r": request_id,
            "now": rows[0][5],
            "expected": expected,
            "channel": CHANNEL,
            "message": f"{table_id}:{expected + len(rows)}",
        }
        if len(rows) == 1:
            sql = _APPEND_ROW
            params.update(type=rows[0][2], payload=rows[0][3])
        else:
            sql = _APPEND
            params.update(
                seqs=[row[1] for row in rows],
                types=[row[2] for row in rows],
                payloads=[row[3] for row in rows],
                rids=[row[4] for row in rows],
            )
        row = await self._write(sql, params, one=True)
        actual, first_seq, inserted = (0, None, 0) if row is None else row[:3]
        if request_id is not None and first_seq is not None:
            raise DuplicateRequest(table_id, request_id, int(first_seq))
        if int(actual) != expected or int(inserted) != len(rows):
            raise VersionConflict(expected, int(actual))

    async def _conflict(
        self, table_id: str, expected: int, request_id: str | None, exc: errors.UniqueViolation
    ) -> DuplicateRequest | VersionConflict | None:
        """Map a unique-key violation (a concurrent writer won) to the caller's error."""
        if exc.diag.constraint_name not in (PRIMARY_KEY, REQUEST_INDEX):
            return None
        if request_id is not None:
            seq = await self.find_request(table_id, request_id)
            if seq is not None:
                return DuplicateRequest(table_id, request_id, seq)
        return VersionConflict(expected, await self.version(table_id))

    async def _listen_connection(self) -> psycopg.AsyncConnection[Any]:
        """Open a dedicated autocommit connection subscribed to the channel."""
        conn = await psycopg.AsyncConnection.connect(
            self._dsn, autocommit=True, connect_timeout=_connect_timeout(self._timeout)
        )
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Fan notifications out to waiters; reconnect (waking everyone) if the link drops."""
        try:
            while True:
                try:
                    async for note in conn.notifies():
                        self._on_notify(note.payload)
                except (psycopg.Error, OSError):
                    pass
                self._signals.wake_all()  # waiters re-check now (and fail while it is down)
                await conn.close()
                conn = await self._reconnect()
                self._listen_conn = conn
                self._signals.wake_all()  # notifications may have been missed meanwhile
        finally:
            self._listen_conn = None
            await conn.close()

    async def _reconnect(self) -> psycopg.AsyncConnection[Any]:
        """Retry the listener connection with a capped back-off until it succeeds."""
        delay = 0.1
        while True:
            try:
                return await self._listen_connection()
            except (psycopg.Error, OSError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    def _on_notify(self, payload: str) -> None:
        """Handle one notification: `table_id:seq`, or a batch's JSON [[table_id, seq], ...]."""
        for table_id, seq in _notified(payload):
            if seq is None:
                self._signals.wake_all()
            else:
                self._signals.wake(table_id, seq)


def _notified(payload: str) -> list[tuple[str, int | None]]:
    """(table id, seq) pairs of a notification; seq None when it cannot be read."""
    if payload.startswith("[["):
        try:
            pairs = json.loads(payload)
            return [(str(t), int(v)) for t, v in pairs]
        except (ValueError, TypeError):
            pass
    table_id, sep, seq = payload.rpartition(":")
    return [(table_id, int(seq) if sep and seq.isdigit() else None)]


def _connect_timeout(timeout: float) -> int:
    """libpq's connect_timeout (whole seconds, at least 2: libpq ignores 1)."""
    return max(2, math.ceil(timeout))


async def _create_schema(pool: AsyncConnectionPool[Any]) -> None:
    """Create table and index idempotently; an advisory lock serialises racing processes."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        for sql in _SCHEMA:
            await conn.execute(sql)
