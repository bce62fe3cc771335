"""In-process fan-out of "table changed" signals to `wait_for_change` callers.

Backends call `wake` when they learn a table reached a new version (their own append,
a PostgreSQL notification) and `wake_all` when they only know "something changed"
(a SQLite file written by another process, a listener reconnect). Waiters then re-check.
All methods but `has_waiters` and `watched` must be called from the event loop thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager


class _Waiter:
    """One pending `wait_for_change` call: an event plus the highest version heard of."""

    __slots__ = ("event", "seen")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.seen = 0

    def poke(self, seq: int | None) -> None:
        """Record a version hint (if any) and wake the waiter."""
        if seq is not None and seq > self.seen:
            self.seen = seq
        self.event.set()


class TableSignals:
    """Registry of waiters per table id."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[_Waiter]] = {}

    def has_waiters(self) -> bool:
        """True when at least one caller is waiting."""
        return bool(self._waiters)

    def watched(self, table_id: str) -> bool:
        """True when a caller is waiting for `table_id` (safe to ask from another thread)."""
        return table_id in self._waiters

    def wake(self, table_id: str, seq: int | None = None) -> None:
        """Wake the waiters of one table; `seq` is a committed version if known."""
        for waiter in self._waiters.get(table_id, ()):
            waiter.poke(seq)

    def wake_all(self) -> None:
        """Wake every waiter so it re-reads its table's version."""
        for waiters in self._waiters.values():
            for waiter in waiters:
                waiter.poke(None)

    @contextmanager
    def subscribe(self, table_id: str) -> Iterator[_Waiter]:
        """Register a waiter for `table_id` for the duration of the block."""
        waiter = _Waiter()
        self._waiters.setdefault(table_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            waiters = self._waiters[table_id]
            waiters.discard(waiter)
            if not waiters:
                del self._waiters[table_id]


async def wait_for_version(
    signals: TableSignals,
    table_id: str,
    after: int,
    timeout: float,
    current: Callable[[], Awaitable[int]],
    recheck: float | None = None,
) -> int:
    """Return a version > `after` as soon as one is known, else the version at `timeout`.

    `current` reads the version from storage; it is called once up front, after every
    wake-up without a usable hint, every `recheck` seconds if given, and at the deadline.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(timeout, 0.0)
    with signals.subscribe(table_id) as waiter:
        while True:
            waiter.event.clear()
            if waiter.seen > after:
                return waiter.seen
            version = await current()
            remaining = deadline - loop.time()
            if version > after or remaining <= 0:
                return version
            step = remaining if recheck is None else min(remaining, recheck)
            await _wait_event(waiter.event, step)


async def _wait_event(event: asyncio.Event, timeout: float) -> None:
    """Wait until `event` is set or `timeout` seconds pass."""
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        pass
