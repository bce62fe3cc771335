"""The access log, written off the event loop: calls queue a line, one thread writes them.

Every call still gets its line (errors and slow calls included; nothing is sampled). The
interceptor only puts the line's fields on a queue, which costs about a microsecond; a
daemon thread renders them through the configured structlog chain (card scrubbing
included) and writes them in bursts about every 10 ms. When the queue is full the caller
writes its line itself (back-pressure instead of loss). `flush()` waits until every queued
line is written: server shutdown and process exit call it.
"""

from __future__ import annotations

import atexit
import contextlib
import queue
import threading
import time
from typing import Any

import structlog

MAX_QUEUED = 50_000
PAUSE = 0.01  # seconds between bursts of writing
Line = tuple[bool, dict[str, Any]]  # (is an error, the line's fields)

log = structlog.get_logger("tarok.server")


class AccessLog:
    """A queue of access lines and the thread that writes them (started on first use)."""

    def __init__(self, limit: int = MAX_QUEUED) -> None:
        self._queue: queue.SimpleQueue[Line | threading.Event] = queue.SimpleQueue()
        self._limit = limit
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def write(self, error: bool, fields: dict[str, Any]) -> None:
        """Queue one "rpc" line with `fields` (a fresh dict the caller no longer uses)."""
        if self._thread is None:
            self._start()
        if self._queue.qsize() >= self._limit:
            _emit(error, fields)  # the writer is behind: write this one here
        else:
            self._queue.put((error, fields))

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every line queued so far is written (False if `timeout` s passed)."""
        if self._thread is None:
            return True
        reached = threading.Event()
        self._queue.put(reached)
        return reached.wait(timeout)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="tarok-access-log", daemon=True)
                thread.start()
                self._thread = thread

    def _run(self) -> None:
        """Write lines in bursts: after each burst, pause `PAUSE` s so that lines collect
        without waking this thread (each wake-up would contend with the event loop for
        the GIL)."""
        queue_ = self._queue
        while True:
            items = [queue_.get()]
            while not queue_.empty():
                items.append(queue_.get_nowait())
            for item in items:
                if isinstance(item, threading.Event):
                    item.set()
                    continue
                with contextlib.suppress(Exception):  # a broken sink must not stop the writer
                    _emit(*item)
            time.sleep(PAUSE)


def _emit(error: bool, fields: dict[str, Any]) -> None:
    if error:
        log.error("rpc", **fields)
    else:
        log.info("rpc", **fields)


ACCESS_LOG = AccessLog()
atexit.register(ACCESS_LOG.flush, 5.0)
