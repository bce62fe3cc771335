"""GetTableLog and WatchTable: a table's events as one viewer may see them, stored and live."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable

from google.protobuf import json_format
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..store import StoredEvent
from . import errors as e
from . import events
from .context import Context
from .fanout import END, Feeds, Lagged, Watcher
from .i18n import Labels
from .seats import check_current
from .table import FINISHED, TableState, fold
from .tournaments.log import is_finished
from .views import filter_event, table_view

LabelsFor = Callable[[TableState, int | None, str], Labels | None]


class Follower:
    """Folds a table's events one by one and filters each for one viewer."""

    def __init__(self, table_id: str, seat: int | None, table: TableState | None = None) -> None:
        self.table_id = table_id
        self.seat = seat
        self.table = table

    @property
    def version(self) -> int:
        return 0 if self.table is None else self.table.version

    def feed(
        self,
        stored: list[StoredEvent],
        complete: bool = False,
        revealed: frozenset[int] = frozenset(),
    ) -> list[ev.Event]:
        """The filtered log entries of `stored` (which must follow on from `version`); the
        deals numbered in `revealed` are shown whole (order, salt, every hand)."""
        out = []
        for item in stored:
            payload = events.decode(item)
            before = self.table
            self.table = fold(before, self.table_id, item.seq, payload)
            whole = complete or (
                isinstance(payload, ev.HandDealt) and payload.deal_number in revealed
            )
            shown = filter_event(before, self.table, payload, self.seat, whole)
            out.append(events.envelope(item.seq, item.created_at, shown))
        return out


async def get_log(ctx: Context, request: svc.GetTableLogRequest) -> svc.GetTableLogResponse:
    """The viewer's filtered log; the complete log (all deals) once the table has finished."""
    claim = ctx.claim(request.token)
    stored = await ctx.store.read(claim.table_id, 0)
    if not stored:
        raise e.not_found(claim.table_id)
    complete = events.name_of(stored[-1]) == events.TABLE_CLOSED and await _unsealed(ctx, stored[0])
    follower = Follower(claim.table_id, claim.seat)
    log = ev.TableLog(
        table_id=claim.table_id,
        version=stored[-1].seq,
        complete=complete,
        events=follower.feed(stored, complete, _played_out(stored)),
    )
    if follower.table is not None:
        check_current(claim, follower.table)
        ctx.cache.put(follower.table)
    if request.format == svc.LOG_FORMAT_JSON:
        return svc.GetTableLogResponse(json=json_format.MessageToJson(log))
    return svc.GetTableLogResponse(log=log)


def _played_out(stored: list[StoredEvent]) -> frozenset[int]:
    """The deals of a free table whose hands are over: their order and salt are revealed at
    once (the next deal is shuffled afresh). A tournament table's deals are also played at
    other tables, so they wait for the whole log to be complete."""
    created = events.decode(stored[0])
    if not isinstance(created, ev.TableCreated) or created.tournament_id or created.preset:
        return frozenset()
    scored = (events.decode(s) for s in stored if events.name_of(s) == events.HAND_SCORED)
    return frozenset(p.deal_number for p in scored if isinstance(p, ev.HandScored))


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
    ctx: Context,
    slots: WatcherSlots,
    request: svc.WatchTableRequest,
    feeds: Feeds,
    labels: LabelsFor | None = None,
) -> AsyncIterator[svc.WatchTableResponse]:
    """A full view, the events after from_version, then new events live with heartbeats
    (from the table's shared feed, see `fanout.py`); views are labelled by
    `labels(table, seat, request.locale)` (else in English)."""
    claim = ctx.claim(request.token)
    if request.from_version < 0:
        raise e.invalid("from_version", "from_version must be >= 0")
    slots.acquire()
    try:
        table = await ctx.cache.load(claim.table_id)
        words = labels(table, claim.seat, request.locale) if labels is not None else None
        check_current(claim, table)
        follower, history = await _history(ctx, table, claim.seat, request.from_version)
        yield svc.WatchTableResponse(view=table_view(table, claim.seat, words, ctx.clock()))
        for event in history:
            yield svc.WatchTableResponse(event=event)
        if follower.table is not None:
            check = functools.partial(check_current, claim)  # the seat may be taken again
            live = _live(ctx, feeds, follower.table, claim.seat, request.with_views, words, check)
            async for item in live:
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
    ctx: Context,
    feeds: Feeds,
    table: TableState,
    seat: int | None,
    with_views: bool,
    words: Labels | None = None,
    check: Callable[[TableState], None] | None = None,
) -> AsyncIterator[svc.WatchTableResponse]:
    """New events as they are appended (by any replica), heartbeats while idle.

    The stream has sent everything up to `table.version`. It attaches to the table's feed;
    if the feed is already further on, the stream sends the events in between itself first.
    A stream that falls too far behind the feed catches up from the store and attaches again.
    """
    while table.status != FINISHED and not ctx.stopping:
        watcher = Watcher(seat, with_views, table.version, words)
        ahead = feeds.attach(table, watcher)
        try:
            if ahead > table.version:
                follower = Follower(table.table_id, seat, table)
                stored = await ctx.store.read(table.table_id, table.version, ahead - table.version)
                for event in follower.feed(stored):
                    yield svc.WatchTableResponse(event=event)
                if with_views and follower.table is not None:
                    view = table_view(follower.table, seat, words, ctx.clock())
                    yield svc.WatchTableResponse(view=view)
            while True:
                item = await watcher.next()
                if check is not None and watcher.feed is not None:
                    check(watcher.feed.table)  # e.g. the seat's token has been revoked
                if item is END:
                    return
                if isinstance(item, Lagged):
                    latest = await ctx.cache.load(table.table_id)
                    follower, missed = await _history(ctx, latest, seat, item.version)
                    for event in missed:
                        yield svc.WatchTableResponse(event=event)
                    assert follower.table is not None
                    table = follower.table
                    break
                if isinstance(item, BaseException):
                    raise item
                assert isinstance(item, svc.WatchTableResponse)
                yield item
        finally:
            watcher.close()
