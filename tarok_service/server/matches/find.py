"""FindMatch: a signed-in caller waits in a queue of the store until a table is made for it.

The stream appends the caller's ticket to the queue's log, then looks at the queue whenever
the log changes (`Context.wait_for_change`: the store's wake-ups, in-process, by NOTIFY or
over NATS; a bounded wait besides, so another process writing a SQLite file is seen too) or
time alone may allow something (bots due, a window wider). Whichever waiting caller sees a
table possible first appends its MatchMade; every caller of that table then creates it (the
first creation counts, the table id carries it) and takes its own seat. Cancelling the stream
closes the ticket, unless a table was made for it first.
"""

from __future__ import annotations

import asyncio
import math
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass

from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import matches_pb2 as mt
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...engine.options import OptionError
from .. import errors as e
from ..model import commands
from ..usecases import create, identity
from ..usecases.app import TarokApp
from ..usecases.botseats import TAKEOVER_BOT
from ..usecases.context import Context
from ..usecases.derived import ID_BYTES
from ..usecases.limits import check_name
from ..usecases.write import Append, Decision, Done, always, save, save_once
from . import logs
from .queue import LEASE, Queue, window
from .ratings import RatingBook

DEFAULT_WAIT = 300.0
MAX_WAIT = 1800.0
MAX_WINDOW = 1000.0  # rating points (ordinals run from about -25 to 60)
MAX_WIDEN = 100.0  # rating points per second
LOOK_AGAIN = 1.0  # seconds between looks without news (another process's SQLite writes)
REPORT_EVERY = 5.0  # seconds between progress reports while nothing changes
RENEW_EVERY = LEASE / 3  # seconds between a waiting stream's renewals of its ticket
APPEND_RETRIES = 32
BUSY = "the matchmaking queue is too busy: try again"


@dataclass(frozen=True)
class Wanted:
    """A checked FindMatch request."""

    variant: str
    players: int
    rated: bool
    name: str
    window: float
    widen: float
    bots_after: float
    max_wait: float


def _seconds(field: str, value: float, limit: float) -> float:
    if not (math.isfinite(value) and 0 <= value <= limit):
        raise e.invalid(field, f"{field} must be between 0 and {limit:g} seconds")
    return value


def check(request: ms.FindMatchRequest) -> Wanted:
    """The request checked (INVALID_ARGUMENT naming the field otherwise)."""
    variant = create.checked_variant(request.variant)
    try:
        commands.table_created(variant, request.players, {}, 1, [])
    except OptionError as err:
        raise create.option_error(err) from None
    for field, value, limit in (
        ("rating_window", request.rating_window, MAX_WINDOW),
        ("window_widen_per_second", request.window_widen_per_second, MAX_WIDEN),
    ):
        if not (math.isfinite(value) and 0 <= value <= limit):
            raise e.invalid(field, f"{field} must be between 0 and {limit:g}")
    wait = DEFAULT_WAIT
    if request.HasField("max_wait"):
        wait = _seconds("max_wait", request.max_wait.ToNanoseconds() / 1e9, MAX_WAIT) or wait
    bots = 0.0
    if request.HasField("bots_after"):
        bots = _seconds("bots_after", request.bots_after.ToNanoseconds() / 1e9, MAX_WAIT)
        bots = bots or 1e-3  # zero: bots at once
    return Wanted(
        variant.id,
        request.players,
        request.rated,
        check_name(request.name) or "Player",
        request.rating_window if request.rated else 0.0,
        request.window_widen_per_second if request.rated else 0.0,
        bots,
        wait,
    )


async def find_match(
    app: TarokApp, book: RatingBook, request: ms.FindMatchRequest
) -> AsyncIterator[ms.FindMatchResponse]:
    """The FindMatch stream (see the module docstring)."""
    ctx = app.ctx
    player = identity.signed_in().player_id
    wanted = check(request)
    rating = 0.0
    if wanted.rated:
        rating = (await book.load(wanted.variant, wanted.players)).of(player).ordinal
    now = ctx.clock()
    ticket = mt.MatchTicketOpened(
        ticket_id=secrets.token_hex(12),
        player_id=player,
        name=wanted.name,
        rating=rating,
        window=wanted.window,
        widen_per_second=wanted.widen,
        bots_after=wanted.bots_after,
        opened=now,
        expires=now + wanted.max_wait,
    )
    log_id = logs.queue_log(wanted.variant, wanted.players, wanted.rated)
    await _append_end(ctx, log_id, ticket)
    seated = False
    try:
        async for item in _wait(app, log_id, ticket, wanted):
            seated = item.HasField("found")
            yield item
    finally:
        if not seated:
            await asyncio.shield(close_ticket(ctx, log_id, ticket.ticket_id, "left"))


async def _append_end(ctx: Context, log_id: str, body: logs.Body) -> None:
    async def decide(attempt: int) -> Decision[None]:
        return Append(await ctx.store.version(log_id), logs.encode([body]), always(None))

    await save(ctx, log_id, decide, retries=APPEND_RETRIES, busy=BUSY)


async def close_ticket(ctx: Context, log_id: str, ticket_id: str, reason: str) -> bool:
    """Take a ticket out of its queue unless a table was made for it (True: closed)."""

    async def decide(attempt: int) -> Decision[bool]:
        queue = Queue()
        await queue.refresh(ctx, log_id)
        if ticket_id in queue.made:
            return Done(False)
        if ticket_id in queue.closed:
            return Done(True)
        closed = mt.MatchTicketClosed(ticket_id=ticket_id, reason=reason)
        return Append(queue.version, logs.encode([closed]), always(True))

    return await save(ctx, log_id, decide, retries=APPEND_RETRIES, busy=BUSY)


async def _wait(
    app: TarokApp, log_id: str, ticket: mt.MatchTicketOpened, wanted: Wanted
) -> AsyncIterator[ms.FindMatchResponse]:
    ctx = app.ctx
    queue = Queue()
    reported: tuple[int, float] | None = None
    next_report, next_renewal = 0.0, ticket.opened + RENEW_EVERY
    while True:
        await queue.refresh(ctx, log_id)
        now = ctx.clock()
        if ticket.ticket_id in queue.made:
            table_id, seat = queue.made[ticket.ticket_id]
            found = await take_seat(app, wanted, queue.tables[table_id], seat)
            yield ms.FindMatchResponse(found=found)
            return
        if now >= ticket.expires and await close_ticket(ctx, log_id, ticket.ticket_id, "lapsed"):
            raise e.ServiceError(
                e.DEADLINE_EXCEEDED, e.NO_MATCH, "nobody to play with within max_wait"
            )
        if ctx.stopping:
            raise e.ServiceError(
                e.UNAVAILABLE, e.SERVER_STOPPING, "the server is stopping: call again"
            )
        if now >= next_renewal:
            renewed = mt.MatchTicketRenewed(ticket_id=ticket.ticket_id, until=now + LEASE)
            await _append_end(ctx, log_id, renewed)
            next_renewal = now + RENEW_EVERY
            continue
        group = queue.group(wanted.players, now)
        if group is not None:
            await make_table(ctx, log_id, queue.version, group, wanted.players)
            continue
        state = (len(queue.waiting(now)), round(window(ticket, now), 1))
        if state != reported or now >= next_report:
            reported, next_report = state, now + REPORT_EVERY
            yield ms.FindMatchResponse(waiting=_progress(ticket, now, *state))
        soonest = min(queue.next_change(now), next_report, next_renewal)
        pause = min(LOOK_AGAIN, soonest - now)
        await ctx.wait_for_change(log_id, queue.version, max(0.01, pause))


def _progress(ticket: mt.MatchTicketOpened, now: float, count: int, wide: float) -> ms.MatchWaiting:
    out = ms.MatchWaiting(waiting=count, window=0.0 if math.isinf(wide) else wide)
    out.waited.FromNanoseconds(int(max(0.0, now - ticket.opened) * 1e9))
    return out


async def make_table(
    ctx: Context, log_id: str, version: int, group: list[mt.MatchTicketOpened], players: int
) -> bool:
    """Append the MatchMade of `group` at `version` (False: the queue moved on first)."""
    seats = [t.ticket_id for t in group] + [""] * (players - len(group))
    made = mt.MatchMade(
        table_id=secrets.token_hex(ID_BYTES),
        tickets=seats,
        bot=TAKEOVER_BOT if len(group) < players else "",
    )
    return await save_once(
        ctx, log_id, Append(version, logs.encode([made]), always(True)), always(False)
    )


async def take_seat(app: TarokApp, wanted: Wanted, made: mt.MatchMade, seat: int) -> ms.MatchFound:
    """Create the table made for the caller's ticket (unless another caller did) and sit."""
    table_id = made.table_id
    request = svc.CreateTableRequest(
        variant=wanted.variant,
        players=wanted.players,
        display_name="Matchmaking",
        visibility=svc.TABLE_VISIBILITY_PRIVATE,
        rated=wanted.rated,
        bots=[svc.BotSeat(seat=s, bot=made.bot) for s, t in enumerate(made.tickets) if not t],
    )
    await create.create_at(app.ctx, request, table_id, f"match/{table_id}")
    joined = await app.join_table(
        svc.JoinTableRequest(table_id=table_id, seat=seat, name=wanted.name)
    )
    return ms.MatchFound(
        table_id=table_id, seat=seat, token=joined.token, expires=joined.expires, rated=wanted.rated
    )
