"""A replica's cache of table states: an optimisation, never the truth.

A cached table is brought up to date by reading only the events newer than its version,
so the cost of a refresh does not grow with the table's length; that read starts at the
cached version's own event, so a store whose log went back behind the cache (a commit lost
with an asynchronous standby) is noticed and the table is loaded from the store again.
A table that is not cached is loaded from its latest snapshot (`snapshots.py`) and the
events after it, with the replay run on a worker thread so that a cold load never holds
up the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict

import structlog
from google.protobuf.message import DecodeError
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...store import EventStore, StoredEvent
from .. import errors as e
from ..ops.metrics import Metrics
from . import events, snapshots
from .fold import FINISHED, TableState, fold, fold_all

logger = structlog.get_logger("tarok.cache")

# Fold at most this many events on the event loop (well under a millisecond: less than the
# hop to a worker thread costs); a longer replay runs on a worker thread.
INLINE_EVENTS = 64
RUN_EVENTS = 64  # a replay on a worker thread lets the event loop in after this many events


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

    async def appended(self, before: int, table: TableState) -> None:
        """Remember `table`, just appended at version `before`, and keep the snapshot of a
        hand it scored beside the log."""
        self.put(table)
        snapshot = table.checkpoint
        if snapshot is not None and snapshot.seq > before:
            await self._save(table.table_id, snapshot)

    async def load(self, table_id: str) -> TableState:
        """The table at the store's latest version; NOT_FOUND when it has no events or is no
        table's log (a tournament's, say)."""
        cached = self.get(table_id)
        started = time.perf_counter()
        stored = [] if cached is None else await self._store.read(table_id, cached.version - 1)
        if cached is None or not stored or stored[0].seq != cached.version:
            # Not cached, or the store no longer has the cached version (a commit the cache
            # saw was lost in a failover): the store is the truth, load from it.
            self._items.pop(table_id, None)
            table, folded = await self._load_cold(table_id)
        else:
            table, folded = await _fold(cached, table_id, stored[1:]), len(stored) - 1
        if self._metrics is not None:
            self._metrics.replayed(folded, time.perf_counter() - started)
        self.put(table)
        return table

    async def current(self, table_id: str) -> TableState:
        """The cached table if any (possibly stale), else loaded from the store."""
        cached = self.get(table_id)
        return cached if cached is not None else await self.load(table_id)

    async def _load_cold(self, table_id: str) -> tuple[TableState, int]:
        """(table, events folded): from the latest usable snapshot, else the whole log."""
        found, stored = await self._store.read_tail(table_id)
        if not stored or events.name_of(stored[0]) != events.TABLE_CREATED:
            raise e.not_found(table_id)
        first = stored[0]
        for _ in range(2):  # the latest snapshot, or the one before it for a finished table
            if found is None:
                break
            seq, data = found
            rest = [item for item in stored if item.seq >= seq]
            if any(events.name_of(item) == events.HAND_DEALT for item in rest):
                if len(rest) > INLINE_EVENTS:
                    table = await asyncio.to_thread(_from_snapshot, first, data, rest)
                else:
                    table = _from_snapshot(first, data, rest)
                if table is not None:
                    return table, len(rest)
                logger.warning("snapshot unusable, replaying the log", table=table_id, seq=seq)
                found = None
                break
            found, stored = await self._store.read_tail(table_id, seq - 1)
        if found is not None or stored[-1].seq != len(stored):  # not yet the whole log
            stored = await self._store.read(table_id, 0)
        table = await _fold(None, table_id, stored)
        if table.checkpoint is not None and table.status != FINISHED:
            await self._save(table_id, table.checkpoint)  # a table logged before snapshots
        return table, len(stored)

    async def _save(self, table_id: str, snapshot: ev.TableSnapshot) -> None:
        """Keep a snapshot; a failure costs only a longer replay later, so it is logged."""
        try:
            await self._store.save_snapshot(table_id, snapshot.seq, snapshot.SerializeToString())
        except Exception as exc:  # an optimisation must not fail the request that made it
            logger.warning("snapshot not saved", table=table_id, error=repr(exc))


async def _fold(table: TableState | None, table_id: str, stored: list[StoredEvent]) -> TableState:
    """Fold stored events, on a worker thread when there are many of them."""
    if len(stored) > INLINE_EVENTS:
        out = await asyncio.to_thread(replay, table, table_id, stored)
    else:
        out = apply_stored(table, table_id, stored)
    assert out is not None
    return out


def replay(table: TableState | None, table_id: str, stored: list[StoredEvent]) -> TableState | None:
    """`apply_stored` for a worker thread: in runs of RUN_EVENTS events, letting the other
    threads (the event loop) take the interpreter between runs, so that a long replay does
    not hold up the calls being served meanwhile."""
    for start in range(0, len(stored), RUN_EVENTS):
        if start:
            time.sleep(0)  # hands the interpreter lock over to a waiting thread
        table = apply_stored(table, table_id, stored[start : start + RUN_EVENTS])
    return table


def _from_snapshot(created: StoredEvent, data: bytes, rest: list[StoredEvent]) -> TableState | None:
    """The table from its TableCreated, a snapshot and the events from the snapshot's
    HandScored on; None when the snapshot does not agree with the log."""
    try:
        snapshot = ev.TableSnapshot.FromString(data)
    except DecodeError:
        return None
    payload = events.decode(created)
    assert isinstance(payload, ev.TableCreated)
    start = fold(None, created.table_id, created.seq, payload)
    scored = events.decode(rest[0]) if rest else None
    if (
        not isinstance(scored, ev.HandScored)
        or rest[0].seq != snapshot.seq
        or not snapshots.usable(snapshot, scored, start.players)
    ):
        return None
    return apply_stored(snapshots.restore(start, snapshot), created.table_id, rest[1:])


def apply_stored(
    table: TableState | None, table_id: str, stored: list[StoredEvent]
) -> TableState | None:
    """Fold stored events (replay: moves are not re-validated, recorded facts are checked)."""
    return fold_all(table, table_id, [(item.seq, events.decode(item)) for item in stored])
