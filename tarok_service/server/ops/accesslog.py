"""The access log, written off the event loop: calls queue a line, one thread writes them.

Every call still gets its line (errors and slow calls included; nothing is sampled). The
interceptor only puts the line's fields on a queue, which costs about a microsecond; a
daemon thread renders them as the configured structlog chain would (card scrubbing
included; JSON lines without the chain's per-line machinery: `logconf.access_renderer`)
and writes them in bursts about every 10 ms - with one write per burst when lines
go to a stream (structlog's PrintLogger / WriteLogger): a write per line would hand the GIL
back and forth with the event loop once per call. When the queue is full the caller
writes its line itself (back-pressure instead of loss). `flush()` waits until every queued
line is written: server shutdown and process exit call it.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import select
import stat
import threading
import time
from typing import Any

import structlog

from .logconf import access_renderer

MAX_QUEUED = 50_000
PAUSE = 0.01  # seconds between bursts of writing
ATOMIC_WRITE = select.PIPE_BUF  # bytes one write to a pipe keeps whole (POSIX: >= 512)
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
            lines: list[Line] = []
            for item in items:
                if isinstance(item, threading.Event):
                    _write(lines)  # everything queued before the flush request first
                    lines = []
                    item.set()
                else:
                    lines.append(item)
            _write(lines)
            time.sleep(PAUSE)


def _write(lines: list[Line]) -> None:
    """Render `lines` and write them: in one call to a stream logger (the same bytes as one
    call per line), else line by line. JSON lines are rendered by `access_renderer` (the
    same text as the configured chain, a fraction of its CPU), others by the chain."""
    if not lines:
        return
    try:
        config = structlog.get_config()
        sink = config["logger_factory"]()
    except Exception:
        sink = None
    if not isinstance(sink, structlog.PrintLogger | structlog.WriteLogger):
        for line in lines:
            with contextlib.suppress(Exception):  # a broken sink must not stop the writer
                _emit(*line)
        return
    fast = access_renderer()
    if fast is None:
        chain = structlog.wrap_logger(
            structlog.ReturnLogger(),
            processors=config["processors"],
            wrapper_class=config["wrapper_class"],
            context_class=config["context_class"],
        )
    texts = []
    for error, fields in lines:
        with contextlib.suppress(Exception):
            if fast is not None:
                text = fast(error, fields)
            else:
                text = chain.error("rpc", **fields) if error else chain.info("rpc", **fields)
            if text is not None:  # None: filtered out by level, or dropped by a processor
                texts.append(str(text))
    for chunk in _whole_lines(texts) if _to_pipe(sink) else ["\n".join(texts)] if texts else []:
        with contextlib.suppress(Exception):
            sink.msg(chunk)


def _to_pipe(sink: structlog.PrintLogger | structlog.WriteLogger) -> bool:
    """Whether the sink writes to a pipe or a socket (a log collector's), where writes from
    several processes stay whole only up to PIPE_BUF bytes."""
    try:
        mode = os.fstat(sink._file.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return False  # not a file descriptor (a StringIO, say): one write per burst
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _whole_lines(texts: list[str], limit: int = ATOMIC_WRITE) -> list[str]:
    """`texts` joined into as few writes as fit in `limit` bytes each (a longer line alone):
    the workers of `tarok serve --workers N` share one stderr, and a write to a pipe is
    whole only up to PIPE_BUF bytes - a longer one could interleave with another worker's
    (on a terminal or a file, a burst stays one write)."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for text in texts:
        length = len(text.encode()) + 1  # the newline
        if current and size + length > limit:
            chunks.append("\n".join(current))
            current, size = [], 0
        current.append(text)
        size += length
    if current:
        chunks.append("\n".join(current))
    return chunks


def _emit(error: bool, fields: dict[str, Any]) -> None:
    if error:
        log.error("rpc", **fields)
    else:
        log.info("rpc", **fields)


ACCESS_LOG = AccessLog()
atexit.register(ACCESS_LOG.flush, 5.0)
