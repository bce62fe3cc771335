"""JoinTable: take a seat (the one asked for, or the first free one) or a spectator token.

A signed-in caller's seat is bound to its player (`PlayerSeated.player_id`, see
`identity.py`); a player holds at most one seat of a table (ALREADY_SEATED), and the table is
recorded among the player's tables first (`mytables.py`).

A repeated request id never hands the seat's token out again (a request id is not a
password, and whoever repeats one must not get a seat's hidden hand): it is answered
FAILED_PRECONDITION ALREADY_JOINED, or REQUEST_ID_REUSED when it asked for something else.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from .. import errors as e
from ..model import commands, events
from ..model.commands import Batch
from ..model.fold import SEATING, TableState
from ..present.i18n import SeatLocales
from . import identity, lobby, mytables
from .context import Context, request_id
from .limits import check_id, check_name
from .write import save_table

JOIN_SCOPE = "join"


async def join_table(
    ctx: Context, request: svc.JoinTableRequest, locales: SeatLocales, scope: str = JOIN_SCOPE
) -> svc.JoinTableResponse:
    """Take a seat (or the first free one), or a spectator token; `locales` remembers the
    seat's language. The seats of a rematch table are taken only in the rematch's `scope`."""
    check_id("table_id", request.table_id)
    name = check_name(request.name)
    rid = request_id(request.request_id, scope)
    reserved_ok = scope != JOIN_SCOPE
    table = await ctx.cache.load(request.table_id)
    if table.tournament_id and not await ctx.tournament_over(table.tournament_id):
        raise e.sealed(table.tournament_id, "the tables", "closed to spectators until it ends")
    if request.spectator:
        return joined(ctx, table, None)
    await lobby.check_open(ctx, table)
    if table.rated:
        identity.signed_in()  # a rated table seats signed-in players only (SIGN_IN_REQUIRED)
    player = identity.player_id() or ""
    if player:
        await mytables.entered(ctx, player, table.table_id)

    async def decide(table: TableState, fresh: bool) -> Batch:
        seat = await _pick_seat(ctx, table, request, rid)
        if table.rematch_of and not reserved_ok:
            raise e.precondition(
                e.SEAT_RESERVED,
                "the seats of a rematch are kept for the players of the match before it",
                seat=str(seat),
            )
        check_one_seat(table, player)
        seat_name = name or f"Player {seat + 1}"
        batch = commands.seat_player(table, seat, seat_name, ctx.shuffle, player)
        commands.stamp_deadline(batch, ctx.clock())
        return batch

    def answer(batch: Batch) -> svc.JoinTableResponse:
        seated = batch.payloads[0]
        assert isinstance(seated, ev.PlayerSeated)
        locales.choose(table.table_id, seated.seat, request.locale)
        return joined(ctx, batch.table, seated.seat)

    async def duplicate(seq: int) -> svc.JoinTableResponse:
        raise await _already_joined(ctx, table.table_id, seq, request)

    return await save_table(
        ctx,
        table.table_id,
        decide,
        answer,
        request_id=rid,
        table=table,
        fresh=True,
        on_duplicate=duplicate,
    )


def check_one_seat(table: TableState, player: str, seat: int | None = None) -> None:
    """FAILED_PRECONDITION ALREADY_SEATED when `player` (a signed-in caller's player; "" for
    an anonymous one) holds a seat of `table` other than `seat`."""
    if player and any(p == player and i != seat for i, p in enumerate(table.player_ids)):
        held = table.player_ids.index(player)
        raise e.precondition(
            e.ALREADY_SEATED,
            f"your player already holds seat {held} of this table (one seat per player)",
            seat=str(held),
        )


def joined(
    ctx: Context, table: TableState, seat: int | None, generation: int | None = None
) -> svc.JoinTableResponse:
    """A fresh token for `seat` (None: a spectator) of `table`, as JoinTable answers."""
    if generation is None:
        generation = table.generations[seat] if seat is not None else 1
    token, expires = ctx.tokens.issue(table.table_id, seat, ctx.clock(), generation)
    out = svc.JoinTableResponse(token=token, table_id=table.table_id, version=table.version)
    out.expires.FromSeconds(expires)
    if seat is not None:
        out.seat = seat
    return out


async def _pick_seat(
    ctx: Context, table: TableState, request: svc.JoinTableRequest, rid: str | None
) -> int:
    """The seat to take, or an error (ALREADY_JOINED for a repeated request id)."""
    try:
        return _choose_seat(table, request)
    except e.ServiceError:
        seq = await ctx.store.find_request(table.table_id, rid) if rid else None
        if seq is None:
            raise
        raise await _already_joined(ctx, table.table_id, seq, request) from None


async def _already_joined(
    ctx: Context, table_id: str, seq: int, request: svc.JoinTableRequest
) -> e.ServiceError:
    """The error for a repeated JoinTable request id (see the module docstring)."""
    stored = await ctx.store.read(table_id, seq - 1, 1)
    payload = events.decode(stored[0])
    name = request.name.strip()
    if (
        not isinstance(payload, ev.PlayerSeated)
        or (request.HasField("seat") and request.seat != payload.seat)
        or (name and name != payload.name)
    ):
        return e.invalid(
            "request_id", "request_id was already used for another request", e.REQUEST_ID_REUSED
        )
    return e.precondition(
        e.ALREADY_JOINED,
        f"this request already took seat {payload.seat}; its token is not sent again",
        seat=str(payload.seat),
    )


def _choose_seat(table: TableState, request: svc.JoinTableRequest) -> int:
    free = table.free_seats()
    if request.HasField("seat"):
        if not 0 <= request.seat < table.players:
            raise e.invalid("seat", f"seat must be in 0..{table.players - 1}")
        if request.seat not in free:
            raise e.precondition(e.SEAT_TAKEN, f"seat {request.seat} is taken")
        return request.seat
    if table.status != SEATING or not free:
        raise e.precondition(e.TABLE_FULL, "every seat is taken")
    return free[0]
