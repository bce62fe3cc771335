"""The PostgreSQL store's LISTEN connection, on a thread of its own.

The thread waits for notifications on a synchronous connection (psycopg releases the GIL
while it waits) and wakes the event loop only for a notification that concerns a table
someone in this process is waiting for: a replica nobody watches pays no event-loop work
per batch written anywhere. Skipping the others loses nothing: a waiter subscribes before
it reads the version, and a notification is only sent once its events are committed, so a
notification that found nobody waiting is older than the waiter's own read.
If the link drops, every waiter is woken (they re-check, and fail while the database is
down) and the thread reconnects with a capped back-off, waking everyone again once it
listens (notifications may have been missed meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import threading
from typing import Any

import psycopg

from ._pgwrite import CHANNEL
from ._wakeup import TableSignals


class PgListener:
    """One LISTEN connection and the thread that fans its notifications out to `signals`."""

    def __init__(
        self,
        dsn: str,
        connect_timeout: int,
        signals: TableSignals,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self._dsn = dsn
        self._connect_timeout = connect_timeout
        self._signals = signals
        self._loop = loop
        self._lock = threading.Lock()  # `conn` and `_stopping` change together
        self._stopping = False
        self._stopped = threading.Event()  # ends a back-off sleep at once
        self.conn: psycopg.Connection[Any] | None = None
        self._thread = threading.Thread(target=self._run, name="tarok-pg-listen", daemon=True)

    def connect(self) -> None:
        """Open the first connection and subscribe (blocking: run it on a worker thread)."""
        self.conn = listen_connection(self._dsn, self._connect_timeout)

    def start(self) -> None:
        self._thread.start()

    async def close(self) -> None:
        """Stop the thread and close its connection."""
        with self._lock:
            self._stopping = True
            self._stopped.set()
            if self.conn is not None:
                _interrupt(self.conn)  # the thread's wait ends with a connection error
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
                for note in conn.notifies():
                    self._on_notify(note.payload)
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
                conn = listen_connection(self._dsn, self._connect_timeout)
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


def listen_connection(dsn: str, connect_timeout: int) -> psycopg.Connection[Any]:
    """A new autocommit connection subscribed to the channel."""
    conn = psycopg.Connection.connect(dsn, autocommit=True, connect_timeout=connect_timeout)
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


def _interrupt(conn: psycopg.Connection[Any]) -> None:
    """End another thread's wait on `conn` (its socket is shut down: the wait returns and
    reading fails). Only the socket is touched, never libpq's state."""
    with contextlib.suppress(OSError, psycopg.Error):
        sock = socket.socket(fileno=os.dup(conn.fileno()))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.close()
