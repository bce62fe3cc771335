"""Rematch: a new table like a finished one (same variant, options, clock, lobby settings
and bots), derived from the finished table's id so that every seat asking gets the same one,
and the asking seat taken again at it under the same name.

The seats of a rematch table are reserved for the players of the finished one: JoinTable
refuses them (SEAT_RESERVED), only Rematch with the old seat's current token takes one, with
a request id in a scope no client can send (`REMATCH_SCOPE`)."""

from __future__ import annotations

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from .. import errors as e
from ..model import events
from ..model.commands import Batch
from ..model.fold import FINISHED, TableState, fold
from . import autoplay, derived, lobby, seats
from .context import Context
from .write import Append, always, save_once

REMATCH_SCOPE = "rematch"  # the request ids of rematch seats: no client can send one


async def rematch_id(ctx: Context, table_id: str) -> str:
    return await derived.derived_id(ctx, f"rematch:{table_id}")


async def rematch(ctx: Context, request: svc.RematchRequest) -> tuple[str, int, str, str]:
    """(new table id, seat, name, join request id) for the caller's seat at the rematch."""
    claim = ctx.claim(request.token)
    if claim.seat is None:
        raise e.ServiceError(
            e.PERMISSION_DENIED, e.SPECTATOR_CANNOT_MOVE, "a spectator token holds no seat"
        )
    old = await ctx.cache.load(claim.table_id)
    seats.check_holder(claim, old)
    if old.status != FINISHED:
        raise e.precondition(e.TABLE_NOT_FINISHED, "a rematch is offered once the match is over")
    if old.tournament_id:
        raise e.precondition(e.TABLE_NOT_FINISHED, "tournament tables have no rematch")
    new_id = await rematch_id(ctx, old.table_id)
    if await ctx.store.version(new_id) == 0:
        await _create(ctx, old, new_id)
    name = old.seats[claim.seat] or f"Player {claim.seat + 1}"
    return new_id, claim.seat, name, f"{old.table_id}:{claim.seat}:{claim.generation}"


async def _create(ctx: Context, old: TableState, new_id: str) -> None:
    stored = [events.decode(s) for s in await ctx.store.read(old.table_id, 0)]
    first = stored[0]
    assert isinstance(first, ev.TableCreated)
    created = ev.TableCreated()
    created.CopyFrom(first)
    del created.deals[:]
    created.preset = False
    created.rematch_of = old.table_id
    batch = Batch(fold(None, new_id, 1, created), [created])
    # The bots seated at creation (a bot that took a seat on a timeout came with TimedOut).
    bots = {p.seat: p for p in stored if isinstance(p, ev.PlayerSeated) and p.bot}
    for seat in sorted(bots):
        batch.add(ev.PlayerSeated(seat=seat, name=bots[seat].name, bot=bots[seat].bot))
    bot_seats = len(bots)
    if not created.private:
        await lobby.list_table(ctx, new_id, created.variant, created.players)
    if autoplay.needs_driving(created, bot_seats):
        await autoplay.record_driven(ctx, new_id, created.variant, created.players)

    async def saved(version: int) -> None:
        ctx.metrics.table_created(created.variant)

    append = Append(0, events.encode(batch.payloads), saved)
    await save_once(ctx, new_id, append, always(None))  # None: another seat's request was first
