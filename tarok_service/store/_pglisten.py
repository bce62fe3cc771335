"""The PostgreSQL store's LISTEN connection, on a thread of its own.

The thread waits for notifications on a synchronous connection (psycopg releases the GIL
while it waits) and wakes the event loop only for a notification that concerns a table
someone in this process is waiting for: a replica nobody watches pays no event-loop work
per batch written anywhere. Skipping the others loses nothing: a waiter subscribes before
it reads the version, and a notification is only sent once its events are committed, so a
notification that found nobody waiting is older than the waiter's own read.
If the link drops, every waiter is woken (they re-check, and fail while the database is
down) and the thread reconnects with a capped back-off, waking everyone again once it
listens (notifications may have been missed meanwhile). A silent link is pinged every
`PING_SECONDS` under a `Watchdog`: a primary that froze (its kernel still acknowledging
packets, so TCP keepalives see nothing wrong) is left within seconds, like one that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from typing import Any

import psycopg

from ._pgconn import Watchdog, connect, interrupt
from ._pgwrite import CHANNEL
from ._wakeup import TableSignals

PING_SECONDS = 2.0  # a link silent this long is asked a `SELECT 1`


class PgListener:
    """One LISTEN connection and the thread that fans its notifications out to `signals`."""

    def __init__(
        self,
        dsn: str,
        timeout: float,
        signals: TableSignals,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self._dsn = dsn
        self._timeout = timeout
        self._watchdog = Watchdog(2 * timeout, "tarok-pg-listen-watchdog")
        self._signals = signals
        self._loop = loop
        self._lock = threading.Lock()  # `conn` and `_stopping` change together
        self._stopping = False
        self._stopped = threading.Event()  # ends a back-off sleep at once
        self.conn: psycopg.Connection[Any] | None = None
        self._thread = threading.Thread(target=self._run, name="tarok-pg-listen", daemon=True)

    def connect(self) -> None:
        """Open the first connection and subscribe (blocking: run it on a worker thread)."""
        self.conn = listen_connection(self._dsn, self._timeout)

    def start(self) -> None:
        self._thread.start()

    async def close(self) -> None:
        """Stop the thread and close its connection."""
        with self._lock:
            self._stopping = True
            self._stopped.set()
            if self.conn is not None:
                interrupt(self.conn)  # the thread's wait ends with a connection error
        self._watchdog.stop()
        if self._thread.is_alive():
            await asyncio.to_thread(self._thread.join)
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()

    # -- the listener thread ------------------------------------------------------------

    def _run(self) -> None:
        conn = self.conn
        while conn is not None:
            try:
                while True:
                    for note in conn.notifies(timeout=PING_SECONDS):
                        self._on_notify(note.payload)
                    self._ping(conn)
            except (psycopg.Error, OSError):
                pass
            with self._lock:
                self.conn = None
            conn.close()
            if self._stopping:
                return
            self._call(self._signals.wake_all)  # waiters re-check (and fail while it is down)
            conn = self._reconnect()
            if conn is not None:
                self._call(self._signals.wake_all)  # notifications may have been missed

    def _reconnect(self) -> psycopg.Connection[Any] | None:
        """Retry the connection with a capped back-off until it works (None: stopping)."""
        delay = 0.1
        while not self._stopping:
            try:
                conn = listen_connection(self._dsn, self._timeout)
            except (psycopg.Error, OSError):
                self._stopped.wait(delay)
                delay = min(delay * 2, 1.0)
                continue
            with self._lock:
                if not self._stopping:
                    self.conn = conn
                    return conn
            conn.close()
        return None

    def _ping(self, conn: psycopg.Connection[Any]) -> None:
        """A round trip, cut by the watchdog if the server does not answer in time."""
        self._watchdog.begin(conn)
        try:
            conn.execute("SELECT 1")
        finally:
            self._watchdog.end()

    def _on_notify(self, payload: str) -> None:
        """Wake the loop for the tables of one notification that someone waits for."""
        signals = self._signals
        if not signals.has_waiters():
            return
        pairs = [(t, seq) for t, seq in notified(payload) if seq is None or signals.watched(t)]
        if pairs:
            self._call(self._wake, pairs)

    def _wake(self, pairs: list[tuple[str, int | None]]) -> None:
        """(event loop) Wake the waiters of the notified tables."""
        for table_id, seq in pairs:
            if seq is None:
                self._signals.wake_all()
            else:
                self._signals.wake(table_id, seq)

    def _call(self, fn: Any, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            self._loop.call_soon_threadsafe(fn, *args)


def listen_connection(dsn: str, timeout: float) -> psycopg.Connection[Any]:
    """A new autocommit connection (every wait bounded) subscribed to the channel."""
    conn = connect(dsn, timeout)
    try:
        conn.execute(f"LISTEN {CHANNEL}")
    except BaseException:
        conn.close()
        raise
    return conn


def notified(payload: str) -> list[tuple[str, int | None]]:
    """(table id, seq) pairs of a notification; seq None when it cannot be read."""
    if payload.startswith("[["):
        try:
            pairs = json.loads(payload)
            return [(str(t), int(v)) for t, v in pairs]
        except (ValueError, TypeError):
            pass
    table_id, sep, seq = payload.rpartition(":")
    return [(table_id, int(seq) if sep and seq.isdigit() else None)]
