"""A replica's cache of table states: an optimisation, never the truth.

A cached table is brought up to date by reading only the events newer than its version,
so the cost of a refresh does not grow with the table's length.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from ..store import EventStore, StoredEvent
from . import errors as e
from . import events
from .metrics import Metrics
from .table import TableState, fold_all


class TableCache:
    """Table id -> latest known TableState, least recently used evicted first."""

    def __init__(self, store: EventStore, capacity: int, metrics: Metrics | None = None) -> None:
        self._store = store
        self._capacity = capacity
        self._items: OrderedDict[str, TableState] = OrderedDict()
        self._metrics = metrics

    def get(self, table_id: str) -> TableState | None:
        table = self._items.get(table_id)
        if table is not None:
            self._items.move_to_end(table_id)
        if self._metrics is not None:
            self._metrics.cache_lookup(table is not None)
        return table

    def peek(self, table_id: str) -> TableState | None:
        """The cached table, if any, without counting a lookup (for logs and metrics)."""
        return self._items.get(table_id)

    def put(self, table: TableState) -> None:
        """Remember `table` unless a newer state is already cached."""
        known = self._items.get(table.table_id)
        if known is not None and known.version >= table.version:
            return
        self._items[table.table_id] = table
        self._items.move_to_end(table.table_id)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    async def load(self, table_id: str) -> TableState:
        """The table at the store's latest version; NOT_FOUND when it has no events."""
        cached = self.get(table_id)
        after = cached.version if cached is not None else 0
        stored = await self._store.read(table_id, after)
        if cached is None and not stored:
            raise e.not_found(table_id)
        started = time.perf_counter()
        table = apply_stored(cached, table_id, stored)
        assert table is not None
        if self._metrics is not None:
            self._metrics.replayed(len(stored), time.perf_counter() - started)
        self.put(table)
        return table

    async def current(self, table_id: str) -> TableState:
        """The cached table if any (possibly stale), else loaded from the store."""
        cached = self.get(table_id)
        return cached if cached is not None else await self.load(table_id)


def apply_stored(
    table: TableState | None, table_id: str, stored: list[StoredEvent]
) -> TableState | None:
    """Fold stored events (replay: moves are not re-validated, recorded facts are checked)."""
    return fold_all(table, table_id, [(item.seq, events.decode(item)) for item in stored])
