"""GetTableLog and WatchTable: a table's events as one viewer may see them, stored and live."""

from __future__ import annotations

import asyncio
import base64
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from google.protobuf import json_format
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...store import StoredEvent, StoreUnavailable
from .. import errors as e
from ..model import events
from ..model.cache import apply_stored
from ..model.fold import FINISHED, TableState, fold
from ..present.i18n import Labels
from ..present.views import filter_event, table_view
from .context import Context, check_seat
from .fanout import END, Feeds, Lagged, Watcher
from .limits import MAX_PAGE_TOKEN
from .seats import check_holder
from .tokens import Claim

T = TypeVar("T")
LabelsFor = Callable[[TableState, int | None, str], Labels | None]
PAGE_TOKEN_VERSION = "p1"
HISTORY_PAGE = 500  # events WatchTable reads, folds and sends at a time when catching up
RESUME_STATES = 64  # table states kept where a log page ended, for the next page
# Folding and filtering long logs is CPU work: it runs here, off the event loop, on few
# threads so that it competes little with the loop for the interpreter.
BUILDERS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarok-log")
_resume: OrderedDict[tuple[str, int], TableState] = OrderedDict()


async def off_loop(func: Callable[..., T], *args: Any) -> T:
    """`func(*args)` on a log builder thread."""
    return await asyncio.get_running_loop().run_in_executor(BUILDERS, func, *args)


def _resumed(table_id: str, version: int) -> TableState | None:
    state = _resume.get((table_id, version))
    if state is not None:
        _resume.move_to_end((table_id, version))
    return state


def _remember(table: TableState) -> None:
    _resume[(table.table_id, table.version)] = table
    while len(_resume) > RESUME_STATES:
        _resume.popitem(last=False)


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


async def get_log(
    ctx: Context, request: svc.GetTableLogRequest, peer: str = ""
) -> svc.GetTableLogResponse:
    """One page of the viewer's filtered log (AIP-158 paging); the complete log (all deals)
    once the table has finished. The events are folded and filtered off the event loop, and
    each caller may have only a few of these calls in flight."""
    claim = ctx.claim(request.token)
    if request.page_size < 0:
        raise e.invalid("page_size", "page_size must be >= 0")
    limit = ctx.config.log_page_size
    size = min(request.page_size or limit, limit)
    after, upto = _page_position(request.page_token)
    with ctx.admit_log_call(_principal(claim, peer)):
        current = await ctx.store.version(claim.table_id)
        if current == 0:
            raise e.not_found(claim.table_id)
        if upto > current:
            raise e.invalid("page_token", "page_token is not one this server gave")
        upto = upto or current
        first = await ctx.store.read(claim.table_id, 0, 1)
        last = await ctx.store.read(claim.table_id, upto - 1, 1)
        complete = events.name_of(last[0]) == events.TABLE_CLOSED and await _unsealed(ctx, first[0])
        latest = await ctx.cache.load(claim.table_id)
        check_holder(claim, latest)  # a token of a seat taken again reads nothing
        revealed = _played_out(latest)
        start = _resumed(claim.table_id, after) if after else None
        prefix = await ctx.store.read(claim.table_id, 0, after) if after and not start else []
        page = await ctx.store.read(claim.table_id, after, min(size, upto - after))
        as_json = request.format == svc.LOG_FORMAT_JSON
        log, table = await off_loop(
            _page, claim, start, prefix, page, upto, complete, as_json, revealed
        )
    end = after + len(page)
    if table is not None and table.version == upto:
        ctx.cache.put(table)
    elif table is not None and end < upto:
        _remember(table)
    out = svc.GetTableLogResponse(next_page_token=_page_token(end, upto) if end < upto else "")
    if isinstance(log, str):
        out.json = log
    else:
        out.log.CopyFrom(log)
    return out


def _page(
    claim: Claim,
    start: TableState | None,
    prefix: list[StoredEvent],
    page: list[StoredEvent],
    upto: int,
    complete: bool,
    as_json: bool,
    revealed: frozenset[int] = frozenset(),
) -> tuple[ev.TableLog | str, TableState | None]:
    """The page as a TableLog (or its JSON) and the table after it (runs in a worker thread)."""
    table = apply_stored(None, claim.table_id, prefix) if prefix else start
    follower = Follower(claim.table_id, claim.seat, table)
    if table is None and page:  # the first page: check the seat against TableCreated first
        table = fold(None, claim.table_id, page[0].seq, events.decode(page[0]))
    if table is not None:
        check_seat(claim, table)
    log = ev.TableLog(
        table_id=claim.table_id,
        version=upto,
        complete=complete,
        events=follower.feed(page, complete, revealed),
    )
    return (json_format.MessageToJson(log) if as_json else log), follower.table


def _page_token(after: int, upto: int) -> str:
    return base64.urlsafe_b64encode(f"{PAGE_TOKEN_VERSION}:{after}:{upto}".encode()).decode()


def _page_position(token: str) -> tuple[int, int]:
    """(events already sent, the table version the pages are taken at); (0, 0): first page."""
    if not token:
        return 0, 0
    try:
        if len(token) > MAX_PAGE_TOKEN:
            raise ValueError
        text = base64.urlsafe_b64decode(token.encode("ascii")).decode("ascii")
        version, after_text, upto_text = text.split(":")
        after, upto = int(after_text), int(upto_text)
        if (
            version != PAGE_TOKEN_VERSION
            or not 0 < after < upto
            or token != _page_token(after, upto)
        ):
            raise ValueError
    except (ValueError, UnicodeError):
        raise e.invalid("page_token", "page_token is not one this server gave") from None
    return after, upto


def _principal(claim: Claim, peer: str) -> str:
    """Who is asking: a seat token's table and seat; for a spectator (spectator tokens are
    free) the client's address, when known."""
    if claim.seat is None and peer:
        return f"peer:{peer}"
    who = "spectator" if claim.seat is None else str(claim.seat)
    return f"{claim.table_id}/{who}"


def _played_out(table: TableState) -> frozenset[int]:
    """The deals of a free table whose hands are over: their order and salt are revealed at
    once (the next deal is shuffled afresh). A tournament table's deals are also played at
    other tables, and preset deals may be replayed elsewhere, so they wait for the whole log
    to be complete. Every deal before the current one has been scored."""
    if table.tournament_id or table.presets:
        return frozenset()
    done = table.hand_done or table.status == FINISHED
    last = table.deal_number if done else table.deal_number - 1
    return frozenset(range(1, last + 1))


async def _unsealed(ctx: Context, first: StoredEvent) -> bool:
    """Whether a finished table's deals may be shown: a tournament table's stay hidden until
    the whole tournament has finished (the same deals are played at other tables)."""
    created = events.decode(first)
    tournament = created.tournament_id if isinstance(created, ev.TableCreated) else ""
    return not tournament or await ctx.tournament_over(tournament)


class WatcherSlots:
    """Counts open watch streams against a global limit and a limit per principal (one seat,
    or one client address for spectators), so no single caller can take every slot."""

    def __init__(self, limit: int, per_principal: int | None = None) -> None:
        self.limit = limit
        self.per_principal = limit if per_principal is None else per_principal
        self.open = 0
        self._by: Counter[str] = Counter()

    def acquire(self, principal: str = "") -> None:
        if self.open >= self.limit or self._by[principal] >= self.per_principal:
            raise e.ServiceError(
                e.RESOURCE_EXHAUSTED, e.TOO_MANY_WATCHERS, "too many open watch streams"
            )
        self.open += 1
        self._by[principal] += 1

    def release(self, principal: str = "") -> None:
        self.open -= 1
        self._by[principal] -= 1
        if self._by[principal] <= 0:
            del self._by[principal]


async def watch(
    ctx: Context,
    slots: WatcherSlots,
    request: svc.WatchTableRequest,
    feeds: Feeds,
    labels: LabelsFor | None = None,
    peer: str = "",
) -> AsyncIterator[svc.WatchTableResponse]:
    """A full view, the events after from_version (read in pages off the event loop), then
    new events live with heartbeats (from the table's shared feed, see `fanout.py`); views are
    labelled by `labels(table, seat, request.locale)` (else in English)."""
    claim = ctx.claim(request.token)
    if request.from_version < 0:
        raise e.invalid("from_version", "from_version must be >= 0")
    principal = _principal(claim, peer)
    slots.acquire(principal)
    try:
        table = await ctx.cache.load(claim.table_id)
        check_holder(claim, table)
        words = labels(table, claim.seat, request.locale) if labels is not None else None
        yield svc.WatchTableResponse(view=table_view(table, claim.seat, words, ctx.clock()))
        follower = Follower(table.table_id, claim.seat)
        if request.from_version >= table.version:
            follower.table = table
        async for event in _history(ctx, follower, request.from_version, table.version):
            yield svc.WatchTableResponse(event=event)
        if follower.table is None:
            return
        # Live: new events (by any replica) from the table's shared feed, heartbeats while
        # idle; inline here rather than in a generator of its own (one hop less a message).
        table, seat, pacer = follower.table, claim.seat, feeds.pacer
        while table.status != FINISHED and not ctx.stopping:
            watcher = Watcher(seat, request.with_views, table.version, words)
            try:
                for message in await _attach(ctx, feeds, table, watcher):
                    yield message
                lagged: Lagged | None = None
                while lagged is None:
                    items = await watcher.take()
                    if watcher.feed is not None:
                        check_holder(claim, watcher.feed.table)  # the seat may be taken again
                    for item in items:
                        if item is END:
                            return
                        if isinstance(item, Lagged):
                            lagged = item
                            break
                        if isinstance(item, BaseException):
                            raise item
                        assert isinstance(item, svc.WatchTableResponse)
                        wait = pacer.turn()
                        if wait is not None:
                            await wait
                        yield item
                # It fell too far behind: it catches up from the store and attaches again.
                latest = await ctx.cache.load(table.table_id)
                follower = Follower(table.table_id, seat)
                async for event in _history(ctx, follower, lagged.version, latest.version):
                    yield svc.WatchTableResponse(event=event)
                assert follower.table is not None
                table = follower.table
            finally:
                watcher.close()
    finally:
        slots.release(principal)


async def _attach(
    ctx: Context, feeds: Feeds, table: TableState, watcher: Watcher
) -> list[svc.WatchTableResponse]:
    """Attach `watcher` (whose stream has sent everything up to `table.version`) to the
    table's feed; the messages the stream must send itself first: the events between its
    version and the feed's, if the feed is already further on (and then a view, if asked)."""
    ahead = feeds.attach(table, watcher)
    if ahead <= table.version:
        return []
    follower = Follower(table.table_id, watcher.seat, table)
    stored = await ctx.store.read(table.table_id, table.version, ahead - table.version)
    if len(stored) < ahead - table.version:  # read on a node behind the feed's (a failover)
        watcher.close()  # the stream ends UNAVAILABLE; the client resumes, skipping nothing
        raise StoreUnavailable("the store is behind this stream's feed")
    out = [svc.WatchTableResponse(event=event) for event in follower.feed(stored)]
    if watcher.with_views and follower.table is not None:
        view = table_view(follower.table, watcher.seat, watcher.words, ctx.clock())
        out.append(svc.WatchTableResponse(view=view))
    return out


async def _history(
    ctx: Context, follower: Follower, after: int, upto: int
) -> AsyncIterator[ev.Event]:
    """The filtered events with version in (after, upto], read and folded in pages off the
    event loop; `follower` ends at `upto`."""
    table_id = follower.table_id
    if follower.table is None and after > 0:
        prefix = await ctx.store.read(table_id, 0, after)
        follower.table = await off_loop(apply_stored, None, table_id, prefix)
    while follower.version < upto:
        count = min(HISTORY_PAGE, upto - follower.version)
        stored = await ctx.store.read(table_id, follower.version, count)
        if not stored:
            return
        for event in await off_loop(follower.feed, stored):
            yield event
