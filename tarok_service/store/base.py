"""Event store contract: records, errors and the `EventStore` protocol.

The store knows table ids, sequence numbers and opaque payload bytes; it never looks
inside a payload and knows no game rules.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

M = TypeVar("M", bound=Callable[..., Awaitable[Any]])


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event as recorded in a table's log (`seq` counts from 1)."""

    table_id: str
    seq: int
    type: str
    payload: bytes
    request_id: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append; the store assigns its sequence number."""

    type: str
    payload: bytes
    request_id: str | None = None


class StoreError(Exception):
    """Base class of the errors an event store raises on purpose."""


class VersionConflict(StoreError):
    """The table's version was not the one the writer expected; nothing was written."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, table is at version {actual}")
        self.expected = expected
        self.actual = actual


class DuplicateRequest(StoreError):
    """The request id was already recorded for this table; nothing was written.

    `seq` is the sequence number of the event that carries the request id, so the caller
    can answer the retry with the first result.
    """

    def __init__(self, table_id: str, request_id: str, seq: int) -> None:
        super().__init__(f"request {request_id!r} already recorded at {table_id}#{seq}")
        self.table_id = table_id
        self.request_id = request_id
        self.seq = seq


class StoreClosed(StoreError):
    """The store was used before `open()` or after `close()`."""

    def __init__(self) -> None:
        super().__init__("event store is not open")


class StoreUnavailable(StoreError):
    """The store could not be reached or did not answer in time: a lost connection, a pool,
    lock or busy timeout, a serialization failure. Retrying later is safe (an append that
    may have been written is answered by its request id)."""


def unavailable_on(
    kinds: tuple[type[BaseException], ...], hook: str | None = None
) -> Callable[[M], M]:
    """Decorator for async store methods: a driver exception of one of `kinds` becomes
    `StoreUnavailable` (after calling the store's method named `hook` with it, if any)."""

    def decorate(method: M) -> M:
        @functools.wraps(method)
        async def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await method(self, *args, **kwargs)
            except StoreError:
                raise
            except kinds as exc:
                if hook is not None:
                    getattr(self, hook)(exc)
                raise StoreUnavailable(f"{type(exc).__name__}: {exc}"[:200]) from exc

        return cast(M, guarded)

    return decorate


@runtime_checkable
class EventStore(Protocol):
    """An append-only log of events per table, numbered 1, 2, 3, ... ("version" = last seq)."""

    async def open(self) -> None:
        """Connect and create the schema if it does not exist (safe to repeat)."""
        ...

    async def close(self) -> None:
        """Release connections and background tasks."""
        ...

    async def append(
        self, table_id: str, expected_version: int, events: Sequence[NewEvent], now: float
    ) -> int:
        """Append `events` as seq expected_version+1, ... all-or-nothing; return the new version.

        Only the first event's request id is recorded. Raises `DuplicateRequest` when that
        request id is already in the table (checked first, so an idempotent retry with a
        stale version still finds its first answer) and `VersionConflict` when the table is
        not at `expected_version` (including losing a race to a concurrent writer).
        """
        ...

    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return the events with seq > `after` in ascending order, at most `limit` of them."""
        ...

    async def version(self, table_id: str) -> int:
        """Return the seq of the table's last event, 0 when it has none."""
        ...

    async def find_request(self, table_id: str, request_id: str) -> int | None:
        """Return the seq of the event carrying `request_id`, or None."""
        ...

    async def list_tables(self, limit: int = 100) -> list[str]:
        """Return up to `limit` table ids that have events, in ascending id order."""
        ...

    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        """Return the version as soon as it is > `after`, or whatever it is after `timeout` s."""
        ...

    async def save_snapshot(self, table_id: str, seq: int, payload: bytes) -> None:
        """Keep a snapshot of the log's state at `seq` beside the log (replacing one at `seq`).

        Snapshots are derivable from the log: a missing one only makes a load replay more.
        """
        ...

    async def latest_snapshot(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        """(seq, payload) of the snapshot with the highest seq <= `at_most` (any), or None."""
        ...

    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        """In one go: the `latest_snapshot(table_id, at_most)` and the events a load from it
        needs, the first event and those from the snapshot's seq on (every event when there
        is no snapshot), in ascending order."""
        ...

    async def get_or_set(self, name: str, value: bytes) -> bytes:
        """The value kept under `name` beside the logs (e.g. the server's signing key),
        storing `value` first when there is none. Atomic: callers racing on one store (any
        process) all get the one value that was stored first."""
        ...


def check_append_args(expected_version: int, events: Sequence[NewEvent]) -> None:
    """Reject append arguments no backend can honour."""
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version}")
    if not events:
        raise ValueError("append needs at least one event")
