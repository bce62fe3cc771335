"""Live watch fan-out: one follower per watched table per server, shared by all its watchers.

A `Feed` waits for a table's changes, reads each new event from the store once, folds it
once, filters it once per distinct audience (each seat that watches, and spectators) and
builds each distinct response message once; every watcher of that audience gets the same
message object, marked with `share`, which the streams' serializer (`watch_fastpath`) then
serialises once for all of them (unshared messages are serialised as usual). Views (for
watchers that asked for them) are built once per audience after each batch, and
heartbeats once per idle interval for everyone. The feed hands the messages out `CHUNK`
watchers at a time and lets the event loop run other calls in between, so a move made
while a thousand streams are being written waits for one chunk, not for all of them; each
watcher still gets every event, in order, exactly once. The streams then write their
messages through the server's `Pacer`, `PACE` a round of the event loop for all streams
together, so streams catching up after a busy moment do not fill one loop iteration with a
thousand writes either.

Each watcher has a bounded queue. A watcher that falls more than `MAX_QUEUED` messages
behind is detached; its stream catches up from the store on its own and attaches again, so
a slow reader costs memory for a while, never other watchers' latency. Store errors reach
every watcher of the feed (their streams end with the mapped status); a finished table or a
server shutdown ends them cleanly.
"""

from __future__ import annotations

import asyncio
from collections import deque

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...store import StoredEvent
from ..model import events
from ..model.fold import FINISHED, TableState, fold
from ..present.i18n import Labels
from ..present.views import filter_event, table_view
from .context import Context
from .watch_fastpath import share

MAX_QUEUED = 2_000  # messages a watcher may fall behind before it catches up on its own
CHUNK = 16  # watchers handed their messages before the feed lets other calls run
PACE = 16  # live watch messages written per round of the event loop, all streams together


class Lagged(Exception):
    """The watcher fell too far behind; it must catch up from `version` on its own."""

    def __init__(self, version: int) -> None:
        super().__init__(f"watcher fell behind at version {version}")
        self.version = version


END = object()  # the stream ends cleanly (table finished, server stopping)
Item = svc.WatchTableResponse | BaseException | object


class Watcher:
    """One stream's subscription: its audience, its wishes and its queue.

    The queue is a plain deque with one waiter: the stream takes everything queued at once
    (`take`), so a burst of messages wakes it once, not once per message."""

    def __init__(
        self, seat: int | None, with_views: bool, after: int, words: Labels | None = None
    ) -> None:
        self.seat = seat
        self.with_views = with_views
        self.words = words  # the locale its views are rendered in (None: English)
        self.after = after  # the last event version sent or queued for this stream
        self.queue: deque[Item] = deque()
        self.feed: Feed | None = None
        self._loop = asyncio.get_running_loop()  # (each call of it costs a getpid here)
        self._waiter: asyncio.Future[None] | None = None

    def push(self, item: Item, version: int = 0) -> None:
        """Queue `item` (an event at `version`, a view, a heartbeat, END or an error)."""
        if self.feed is None:
            return
        if len(self.queue) >= MAX_QUEUED:
            self.close()
            self._put(Lagged(self.after))
            return
        if version:
            self.after = version
        self._put(item)

    def _put(self, item: Item) -> None:
        self.queue.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def take(self) -> list[Item]:
        """Everything queued (at least one item), in order: messages, then possibly END or
        an exception to raise (Lagged or a store error)."""
        while not self.queue:
            waiter = self._waiter = self._loop.create_future()
            await waiter
        items = list(self.queue)
        self.queue.clear()
        return items

    def close(self) -> None:
        feed, self.feed = self.feed, None
        if feed is not None:
            feed.detach(self)


class Pacer:
    """Lets at most `budget` live watch messages start being written per round of the event
    loop (about one loop iteration); the streams over it wait for the next round, in turn.

    A delivery's cost is mostly grpc's own write (a syscall per message and stream). When a
    thousand streams are each a few messages behind, each write's completion would let its
    stream write the next one at once, so a single loop iteration could hold a thousand
    writes and every step of a move waiting in that loop would wait behind them. With the
    pacer each iteration holds at most `budget` writes, so other calls' steps get in between;
    the deliveries' total work is the same."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = PACE if budget is None else budget
        self._used = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._round: asyncio.Handle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def turn(self) -> asyncio.Future[None] | None:
        """None: write now; else a future to await first (done in a later round)."""
        loop = self._loop
        if loop is None or loop.is_closed():  # bound on first use (asking costs a getpid)
            loop = self._loop = asyncio.get_running_loop()
        if self._round is None:
            self._round = loop.call_soon(self._next_round)
        if self._used < self.budget and not self._waiting:
            self._used += 1
            return None
        waiter = loop.create_future()
        self._waiting.append(waiter)
        return waiter

    def _next_round(self) -> None:
        self._round = None
        self._used = 0
        waiting = self._waiting
        while waiting and self._used < self.budget:
            waiter = waiting.popleft()
            if not waiter.done():  # a waiting stream may have been closed (cancelled)
                waiter.set_result(None)
                self._used += 1
        if (waiting or self._used) and self._loop is not None:  # the next round resets it
            self._round = self._loop.call_soon(self._next_round)


class Feed:
    """The shared follower of one table (see module docstring)."""

    def __init__(self, ctx: Context, feeds: Feeds, table: TableState) -> None:
        self.ctx = ctx
        self.feeds = feeds
        self.table = table
        self.audiences: dict[int | None, set[Watcher]] = {}
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.table.version

    def attach(self, watcher: Watcher) -> None:
        watcher.feed = self
        self.audiences.setdefault(watcher.seat, set()).add(watcher)
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    def detach(self, watcher: Watcher) -> None:
        group = self.audiences.get(watcher.seat)
        if group is not None:
            group.discard(watcher)
            if not group:
                del self.audiences[watcher.seat]
        if not self.audiences:
            self.feeds.forget(self)
            if self.task is not None and self.task is not asyncio.current_task():
                self.task.cancel()

    async def _run(self) -> None:
        ctx, table_id = self.ctx, self.table.table_id
        beat = ctx.config.heartbeat_seconds
        try:
            while self.audiences and self.table.status != FINISHED:
                version = await ctx.wait_for_change(table_id, self.version, beat)
                if ctx.stopping:
                    break
                if version <= self.version:
                    stamp = events.timestamp(ctx.clock())
                    heartbeat = svc.Heartbeat(version=self.version, time=stamp)
                    self._to_all(share(svc.WatchTableResponse(heartbeat=heartbeat)))
                    continue
                stored = await ctx.store.read(table_id, self.version)
                await self._deliver(stored)
                ctx.cache.put(self.table)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # every watcher's stream ends with the mapped status
            self._to_all(exc)
        else:
            self._to_all(END)
        finally:
            self.feeds.forget(self)

    async def _deliver(self, stored: list[StoredEvent]) -> None:
        """Fold each event once, filter it once per audience, then hand every watcher its
        messages (the same objects for its whole audience), `CHUNK` watchers at a time."""
        plan: list[tuple[int, dict[int | None, svc.WatchTableResponse]]] = []
        for item in stored:
            payload = events.decode(item)
            before = self.table
            self.table = fold(before, self.table.table_id, item.seq, payload)
            built: dict[int, svc.WatchTableResponse] = {}  # one message per distinct content
            by_seat: dict[int | None, svc.WatchTableResponse] = {}
            for seat in self.audiences:
                shown = filter_event(before, self.table, payload, seat, False)
                message = built.get(id(shown))
                if message is None:
                    entry = events.envelope(item.seq, item.created_at, shown)
                    message = built[id(shown)] = share(svc.WatchTableResponse(event=entry))
                by_seat[seat] = message
            plan.append((item.seq, by_seat))
        views: dict[tuple[int | None, str | None], svc.WatchTableResponse] = {}
        # A watcher attaching from here on starts at the feed's (new) version: it sends the
        # events up to it itself, so the watchers served are those attached now.
        watchers = [watcher for group in self.audiences.values() for watcher in group]
        for start in range(0, len(watchers), CHUNK):
            if start:
                await asyncio.sleep(0)  # calls (a move) waiting meanwhile go first
            for watcher in watchers[start : start + CHUNK]:
                for seq, by_seat in plan:
                    if watcher.after < seq:
                        watcher.push(by_seat[watcher.seat], seq)
                if watcher.with_views and watcher.after <= self.version:
                    watcher.push(self._view(views, watcher))

    def _view(
        self,
        views: dict[tuple[int | None, str | None], svc.WatchTableResponse],
        watcher: Watcher,
    ) -> svc.WatchTableResponse:
        """The view of the table for `watcher`'s seat and locale, built once per batch."""
        words = watcher.words
        key = (watcher.seat, None if words is None else words.locale)
        view = views.get(key)
        if view is None:
            seen = table_view(self.table, watcher.seat, words, self.ctx.clock())
            view = views[key] = share(svc.WatchTableResponse(view=seen))
        return view

    def _to_all(self, item: Item) -> None:
        """Send `item` to every watcher; a heartbeat only to those not already further on
        (a watcher may have attached ahead of this feed)."""
        beat = isinstance(item, svc.WatchTableResponse) and item.HasField("heartbeat")
        for group in list(self.audiences.values()):
            for watcher in list(group):
                if not beat or watcher.after <= self.version:
                    watcher.push(item)


class Feeds:
    """The live feeds of one server, by table id."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._feeds: dict[str, Feed] = {}
        self.pacer = Pacer()

    def __len__(self) -> int:
        return len(self._feeds)

    def attach(self, table: TableState, watcher: Watcher) -> int:
        """Attach `watcher` (whose stream has sent every event up to `table.version`) to the
        table's feed; return the feed's version: the stream must itself send the events
        after its own version up to that one (the feed sends only newer ones)."""
        feed = self._feeds.get(table.table_id)
        if feed is None or (feed.task is not None and feed.task.done()):
            feed = self._feeds[table.table_id] = Feed(self.ctx, self, table)
        feed.attach(watcher)
        return feed.version

    def forget(self, feed: Feed) -> None:
        if self._feeds.get(feed.table.table_id) is feed:
            del self._feeds[feed.table.table_id]
