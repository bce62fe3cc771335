"""GetTableLog and WatchTable: a table's events as one viewer may see them, stored and live."""

from __future__ import annotations

from collections.abc import AsyncIterator

from google.protobuf import json_format
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..store import StoredEvent
from . import errors as e
from . import events
from .context import Context
from .seats import check_current
from .table import FINISHED, TableState, fold
from .tournaments.log import is_finished
from .views import filter_event, table_view


class Follower:
    """Folds a table's events one by one and filters each for one viewer."""

    def __init__(self, table_id: str, seat: int | None, table: TableState | None = None) -> None:
        self.table_id = table_id
        self.seat = seat
        self.table = table

    @property
    def version(self) -> int:
        return 0 if self.table is None else self.table.version

    def feed(self, stored: list[StoredEvent], complete: bool = False) -> list[ev.Event]:
        """The filtered log entries of `stored` (which must follow on from `version`)."""
        out = []
        for item in stored:
            payload = events.decode(item)
            before = self.table
            self.table = fold(before, self.table_id, item.seq, payload)
            shown = filter_event(before, self.table, payload, self.seat, complete)
            out.append(events.envelope(item.seq, item.created_at, shown))
        return out


async def get_log(ctx: Context, request: svc.GetTableLogRequest) -> svc.GetTableLogResponse:
    """The viewer's filtered log; the complete log (all deals) once the table has finished."""
    claim = ctx.claim(request.token)
    stored = await ctx.store.read(claim.table_id, 0)
    if not stored:
        raise e.not_found(claim.table_id)
    complete = stored[-1].type == events.TABLE_CLOSED and await _unsealed(ctx, stored[0])
    follower = Follower(claim.table_id, claim.seat)
    log = ev.TableLog(
        table_id=claim.table_id,
        version=stored[-1].seq,
        complete=complete,
        events=follower.feed(stored, complete),
    )
    if follower.table is not None:
        check_current(claim, follower.table)
        ctx.cache.put(follower.table)
    if request.format == svc.LOG_FORMAT_JSON:
        return svc.GetTableLogResponse(json=json_format.MessageToJson(log))
    return svc.GetTableLogResponse(log=log)


async def _unsealed(ctx: Context, first: StoredEvent) -> bool:
    """Whether a finished table's deals may be shown: a tournament table's stay hidden until
    the whole tournament has finished (the same deals are played at other tables)."""
    created = events.decode(first)
    tournament = created.tournament_id if isinstance(created, ev.TableCreated) else ""
    return not tournament or await is_finished(ctx, tournament)


class WatcherSlots:
    """Counts open watch streams against a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0

    def acquire(self) -> None:
        if self.open >= self.limit:
            raise e.ServiceError(
                e.RESOURCE_EXHAUSTED, e.TOO_MANY_WATCHERS, "too many open watch streams"
            )
        self.open += 1

    def release(self) -> None:
        self.open -= 1


async def watch(
    ctx: Context, slots: WatcherSlots, request: svc.WatchTableRequest
) -> AsyncIterator[svc.WatchTableResponse]:
    """A full view, the events after from_version, then new events live with heartbeats."""
    claim = ctx.claim(request.token)
    if request.from_version < 0:
        raise e.invalid("from_version", "from_version must be >= 0")
    slots.acquire()
    try:
        table = await ctx.cache.load(claim.table_id)
        check_current(claim, table)
        follower, history = await _history(ctx, table, claim.seat, request.from_version)
        yield svc.WatchTableResponse(view=table_view(table, claim.seat))
        for event in history:
            yield svc.WatchTableResponse(event=event)
        async for item in _live(ctx, follower, request.with_views):
            if follower.table is not None:
                check_current(claim, follower.table)  # the seat may be taken again meanwhile
            yield item
    finally:
        slots.release()


async def _history(
    ctx: Context, table: TableState, seat: int | None, after: int
) -> tuple[Follower, list[ev.Event]]:
    """A follower at `table`'s version and the filtered events with version > `after`."""
    if after >= table.version:
        return Follower(table.table_id, seat, table), []
    follower = Follower(table.table_id, seat)
    stored = await ctx.store.read(table.table_id, 0, table.version)
    entries = follower.feed(stored)
    return follower, [x for x in entries if x.version > after]


async def _live(
    ctx: Context, follower: Follower, with_views: bool
) -> AsyncIterator[svc.WatchTableResponse]:
    """New events as they are appended (by any replica), heartbeats while idle."""
    beat = ctx.config.heartbeat_seconds
    while follower.table is not None and follower.table.status != FINISHED:
        version = await ctx.wait_for_change(follower.table_id, follower.version, beat)
        if ctx.stopping:  # the server is shutting down: end the stream cleanly
            return
        if version <= follower.version:
            heartbeat = svc.Heartbeat(version=follower.version, time=events.timestamp(ctx.clock()))
            yield svc.WatchTableResponse(heartbeat=heartbeat)
            continue
        stored = await ctx.store.read(follower.table_id, follower.version)
        for event in follower.feed(stored):
            yield svc.WatchTableResponse(event=event)
        ctx.cache.put(follower.table)
        if with_views:
            yield svc.WatchTableResponse(view=table_view(follower.table, follower.seat))
