"""Bounded waits for every PostgreSQL connection the store holds (pool, writer, listener).

A database that is down refuses connections, and libpq notices at once. A database that is
*gone* (a crashed host, a cut network) or *frozen* (a stopped process, a stalled disk) does
not: its kernel, or nobody, answers, and a connection without bounds waits forever. Each
connection therefore gets:

- `connect_timeout` per host tried (a multi-host address, `host=a,b,c` with
  `target_session_attrs=read-write`, moves on to the next host after it);
- TCP keepalives and `tcp_user_timeout`, so that a peer that vanished is noticed by the
  kernel within seconds, also while a statement's result is awaited;
- server-side `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout`,
  so that a statement stuck on a lock or a busy server fails instead of piling up.

None of these helps against a *frozen* server whose kernel still acknowledges packets, nor
against a commit waiting for a synchronous standby (PostgreSQL has no commit timeout):
`Watchdog` bounds those on the client, by shutting the socket of a statement that runs for
too long, so the statement fails with a connection error and its outcome is resolved as an
ambiguous one (see `_pgwrite.py`).
"""

from __future__ import annotations

import contextlib
import math
import os
import socket
import threading
import time
from typing import Any

import psycopg

KEEPALIVE_IDLE = 2  # seconds of silence before the first probe
KEEPALIVE_INTERVAL = 1  # seconds between probes
KEEPALIVE_COUNT = 3  # unanswered probes before the connection is dropped


def connect_timeout(timeout: float) -> int:
    """libpq's connect_timeout (whole seconds, at least 2: libpq ignores 1)."""
    return max(2, math.ceil(timeout))


def connect_kwargs(timeout: float) -> dict[str, Any]:
    """libpq parameters that bound every wait of one connection (see module docstring);
    `timeout` is the store's: the longest a call should wait for the database."""
    millis = max(1000, math.ceil(timeout * 1000))
    options = (
        f"-c statement_timeout={millis} -c lock_timeout={millis}"
        f" -c idle_in_transaction_session_timeout={4 * millis}"
    )
    balance = {"load_balance_hosts": "random"} if psycopg.pq.version() >= 160000 else {}
    return {
        **balance,  # a multi-host address: hosts in random order, so a dead or frozen host
        # first in the list does not cost every new connection its connect_timeout
        "autocommit": True,
        "connect_timeout": connect_timeout(timeout),
        "keepalives": 1,
        "keepalives_idle": KEEPALIVE_IDLE,
        "keepalives_interval": KEEPALIVE_INTERVAL,
        "keepalives_count": KEEPALIVE_COUNT,
        "tcp_user_timeout": millis,
        "options": options,
    }


def connect(dsn: str, timeout: float) -> psycopg.Connection[Any]:
    """A new synchronous autocommit connection with every wait bounded."""
    return psycopg.Connection.connect(dsn, **connect_kwargs(timeout))


def interrupt(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> None:
    """End another thread's wait on `conn`: its socket is shut down, so the wait returns and
    reading fails. Only the socket is touched, never libpq's state."""
    with contextlib.suppress(OSError, psycopg.Error):
        sock = socket.socket(fileno=os.dup(conn.fileno()))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.close()


class Watchdog:
    """Interrupts a connection whose statement has run longer than `limit` seconds.

    One thread per watchdog, checking a few times a second while a statement runs: a
    statement costs two attribute writes (`begin`, `end`), no timer of its own."""

    def __init__(self, limit: float, name: str) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self._since = 0.0
        self._busy = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def begin(self, conn: psycopg.Connection[Any]) -> None:
        """A statement starts on `conn`."""
        with self._lock:
            self._conn, self._since = conn, time.monotonic()
        self._busy.set()

    def end(self) -> None:
        """The statement is over (answered or failed)."""
        with self._lock:
            self._conn = None

    def stop(self) -> None:
        self._stopping = True
        self._busy.set()

    def _run(self) -> None:
        tick = min(0.25, self.limit / 4)
        while not self._stopping:
            self._busy.wait()
            with self._lock:
                conn, since = self._conn, self._since
                if conn is None:
                    self._busy.clear()
                    continue
                if time.monotonic() - since > self.limit:
                    self._conn = None
                    interrupt(conn)
                    continue
            time.sleep(tick)
