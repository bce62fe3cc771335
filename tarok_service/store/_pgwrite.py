"""PostgreSQL group commit on a thread of its own, with a synchronous connection.

The event loop only queues an append and awaits its future; the writer thread takes the
queued appends batch by batch, writes each batch in ONE statement on its own connection
(psycopg releases the GIL while it waits for the server) and hands the outcomes back to
the loop in one call per batch. The statements and what they guarantee are described in
`postgres.py`; every outcome is exactly what the statement (or, after a lost insert race,
the single-append retry) reported.

Every statement runs under a `Watchdog` (`_pgconn.py`): one that outlasts the store's
limit (a frozen primary, a commit waiting for a synchronous standby that is gone) has its
connection cut. A connection lost while a batch's statement was in flight leaves each of its
appends *ambiguous*: committed or not, nobody told us. The writer then reads each append's
first row back (connecting again, so over a multi-host address to whichever node is the
primary now) until a deadline: a row equal to the one sent means the append committed and it
is answered as such; no such row means it did not, and it is written again (the version and
request-id checks make that safe). Only an append still unresolved at the deadline fails with
the connection error (StoreUnavailable: the caller's retry with its request id is safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus

from ._pending import Pending, Row, deliver
from ._pgconn import Watchdog, connect
from .base import DuplicateRequest, StoreClosed, VersionConflict

CHANNEL = "tarok_events"
PRIMARY_KEY = "events_pkey"
REQUEST_INDEX = "events_request_id_key"
VERSION = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s"
FIND = "SELECT seq FROM events WHERE table_id = %s AND request_id = %s"
_ROW = "SELECT type, payload, request_id, created_at FROM events WHERE table_id = %s AND seq = %s"
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
    CASE WHEN n.count > 0 AND %(notify)s THEN pg_notify(%(channel)s, %(message)s) END
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
    CASE WHEN n.count > 0 AND %(notify)s THEN pg_notify(%(channel)s, %(message)s) END
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
    FROM ok WHERE %(notify)s HAVING count(*) > 0
)
SELECT cur.i, cur.v, cur.dup, (SELECT count(*) FROM ins), (SELECT count(*) FROM note)
FROM cur ORDER BY cur.i"""
_APPEND_KEYS = ("i", "t", "expected", "r", "last")
_ROW_KEYS = ("i", "t", "s", "ty", "p", "r", "now")
MAX_BATCH = 64  # appends per group commit
MAX_NOTE_CHARS = 6000  # JSON characters per batch notification (payloads stop at 8000 bytes)


class PgWriter:
    """The appends of one store: queued by the event loop, written by one thread."""

    def __init__(
        self,
        dsn: str,
        timeout: float,
        loop: asyncio.AbstractEventLoop,
        notify: bool = True,
        resolve_seconds: float | None = None,
        lost: Callable[[], None] | None = None,
    ) -> None:
        self._dsn = dsn
        self._timeout = timeout  # bounds each connection's waits (see _pgconn.py)
        self._notify = notify  # False: a bus tells the other replicas, not NOTIFY
        # How long an ambiguous append is read back (a failover takes about the failover
        # manager's TTL) before it fails as StoreUnavailable.
        self._resolve_seconds = 5 * timeout if resolve_seconds is None else resolve_seconds
        self._watchdog = Watchdog(2 * timeout, "tarok-pg-writer-watchdog")
        self._lost = lost  # called on the loop when a connection died under a statement
        self._loop = loop  # where the outcomes go
        self._pending: list[Pending] = []
        self._lock = threading.Lock()  # guards the four fields below
        self._scheduled = False  # the thread was woken (or is writing) and will see _pending
        self._stopping = False  # close() was called: the thread ends once _pending is empty
        self._closed = False  # it did: appends fail at once
        # Released once per wake-up (when _scheduled turns True), acquired by the thread: a
        # plain lock as a binary semaphore, far cheaper for the loop than an executor job.
        self._wake = threading.Lock()
        self._wake.acquire()
        self.conn: psycopg.Connection[Any] | None = None  # the thread's own; None when lost
        self._thread = threading.Thread(target=self._run, name="tarok-pg-writer", daemon=True)
        self._thread.start()

    def submit(self, item: Pending) -> None:
        """Queue `item` for the next batch (event loop); its outcome comes to its future."""
        with self._lock:
            closed = self._closed
            if not closed:
                self._pending.append(item)
                schedule, self._scheduled = not self._scheduled, True
        if closed:
            item.future.set_exception(StoreClosed())
        elif schedule:
            self._wake.release()

    async def close(self) -> None:
        """Let the queued appends finish, close the connection and stop the thread."""
        with self._lock:
            self._stopping = True
            schedule, self._scheduled = not self._scheduled, True
        if schedule:
            self._wake.release()
        await asyncio.to_thread(self._thread.join)

    # -- the writer thread ----------------------------------------------------------------

    def _run(self) -> None:
        """Wait to be woken, write what is queued; close the connection when told to stop."""
        while True:
            self._wake.acquire()
            if self._flush():
                break
        self._watchdog.stop()
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _flush(self) -> bool:
        """Write the queued appends batch by batch until none is left, answering each batch
        as soon as it is committed; True when the store is closing (nothing is left)."""
        while True:
            with self._lock:
                batch, self._pending = next_batch(self._pending)
                if not batch:
                    self._scheduled = False
                    self._closed = self._stopping
                    return self._closed
            try:
                try:
                    if len(batch) == 1:
                        self._write_one(batch[0])
                    else:
                        self._write_batch(batch)
                except Ambiguous as lost:
                    if self._lost is not None:
                        with contextlib.suppress(RuntimeError):
                            self._loop.call_soon_threadsafe(self._lost)
                    self._resolve(batch, lost)
            except Exception as exc:  # nothing of this batch was written
                for item in batch:
                    if item.outcome is None:
                        item.outcome = exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: so are the callers
                self._loop.call_soon_threadsafe(deliver, batch)

    def _write_one(self, item: Pending) -> None:
        """One append on its own statement; its outcome (or mapped error) goes to `item`."""
        try:
            self._insert(item.table_id, item.expected, item.request_id, item.rows)
        except errors.UniqueViolation as exc:
            conflict = self._conflict(item.table_id, item.expected, item.request_id, exc)
            item.outcome = exc if conflict is None else conflict
        except (DuplicateRequest, VersionConflict) as exc:
            item.outcome = exc
        else:
            item.outcome = item.expected + len(item.rows)

    def _write_batch(self, batch: list[Pending]) -> None:
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
            "notify": self._notify,
        }
        try:
            results = self._execute(_APPEND_MANY, params)
        except errors.UniqueViolation:
            for item in batch:
                self._write_one(item)
            return
        for (_, actual, first_seq, _, _), item in zip(results or [], batch, strict=True):
            if item.request_id is not None and first_seq is not None:
                item.outcome = DuplicateRequest(item.table_id, item.request_id, int(first_seq))
            elif int(actual) != item.expected:
                item.outcome = VersionConflict(item.expected, int(actual))
            else:
                item.outcome = item.expected + len(item.rows)

    def _insert(
        self, table_id: str, expected: int, request_id: str | None, rows: list[Row]
    ) -> None:
        """Check, insert and notify in one statement (one round trip, one transaction)."""
        params: dict[str, Any] = {
            "t": table_id,
            "r": request_id,
            "now": rows[0][5],
            "expected": expected,
            "channel": CHANNEL,
            "notify": self._notify,
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
        found = self._execute(sql, params)
        actual, first_seq, inserted = (0, None, 0) if not found else found[0][:3]
        if request_id is not None and first_seq is not None:
            raise DuplicateRequest(table_id, request_id, int(first_seq))
        if int(actual) != expected or int(inserted) != len(rows):
            raise VersionConflict(expected, int(actual))

    def _conflict(
        self, table_id: str, expected: int, request_id: str | None, exc: errors.UniqueViolation
    ) -> DuplicateRequest | VersionConflict | None:
        """Map a unique-key violation (a concurrent writer won) to the caller's error."""
        if exc.diag.constraint_name not in (PRIMARY_KEY, REQUEST_INDEX):
            return None
        if request_id is not None:
            found = self._execute(FIND, (table_id, request_id))
            if found:
                return DuplicateRequest(table_id, request_id, int(found[0][0]))
        return VersionConflict(expected, int(self._execute(VERSION, (table_id,))[0][0]))

    def _resolve(self, batch: list[Pending], lost: Ambiguous) -> None:
        """The connection died while `batch` was being written: find out, for each append
        without an outcome, whether it committed (see module docstring)."""
        deadline = time.monotonic() + self._resolve_seconds
        pending = [item for item in batch if item.outcome is None]
        delay = 0.1
        while pending:
            item = pending[0]
            try:
                found = self._execute(_ROW, (item.table_id, item.expected + 1))
                if found and tuple(found[0]) == _sent(item.rows[0]):
                    item.outcome = item.expected + len(item.rows)
                else:
                    self._write_one(item)
                pending.pop(0)
                delay = 0.1
            except (psycopg.OperationalError, psycopg.InterfaceError, OSError, Ambiguous):
                if self._stopping or time.monotonic() + delay > deadline:
                    break
                time.sleep(delay)  # the writer thread only: the next node may take over
                delay = min(2 * delay, 0.5)
        for item in pending:
            item.outcome = lost.error

    def _execute(self, sql: str, params: Any) -> list[Any]:
        """Run a statement on the thread's connection (opened when there is none) and fetch
        its rows. A connection that breaks is closed; the next statement opens a fresh one.
        A connection lost (or cut by the watchdog) while the statement was in flight raises
        `Ambiguous`: the statement may or may not have committed."""
        conn = self.conn
        if conn is None or conn.closed:
            conn = self.conn = connect(self._dsn, self._timeout)
        self._watchdog.begin(conn)
        try:
            return conn.execute(sql, params, prepare=True).fetchall()
        except BaseException as exc:
            idle = conn.info.transaction_status == TransactionStatus.IDLE
            broken = conn.broken or conn.closed or not idle
            if broken:  # else only the statement failed
                self.conn = None
                with contextlib.suppress(Exception):
                    conn.close()
            if broken and isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
                raise Ambiguous(exc) from exc
            raise
        finally:
            self._watchdog.end()


class Ambiguous(Exception):
    """The connection was lost while a statement was in flight: it may have committed."""

    def __init__(self, error: psycopg.Error) -> None:
        super().__init__(str(error))
        self.error = error


def _sent(row: Row) -> tuple[Any, ...]:
    """(type, payload, request id, created_at) of a row as `_ROW` reads it back."""
    _, _, kind, payload, rid, now = row
    return (kind, payload, rid, now)


def next_batch(pending: list[Pending]) -> tuple[list[Pending], list[Pending]]:
    """(batch, rest): up to MAX_BATCH pending appends, at most one per table, notification
    under MAX_NOTE_CHARS; the others wait their turn, in order."""
    batch: list[Pending] = []
    rest: list[Pending] = []
    tables: set[str] = set()
    chars = 0
    for item in pending:
        size = note_chars(item.table_id, item.expected + len(item.rows)) + 2
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
    return batch, rest


def note_chars(table_id: str, seq: int) -> int:
    """len(json.dumps([table_id, seq])), without building the text's encoder each time."""
    return len(encode_basestring_ascii(table_id)) + len(str(seq)) + 4
