"""Seats that survive: leaving before play, taking a seat back, and revoked tokens.

Each seat counts how often it was taken (`TableState.generations`, one more per
PlayerSeated); a seat token carries the count it was issued for. Taking a seat again -
someone else after a LeaveTable, or the holder with RejoinTable - makes every older token
of that seat stop working (TOKEN_REVOKED), so at most one token holds a seat at a time.

A signed-in player's seat is bound to the player (`TableState.player_ids`): RejoinTable
without a token, by the caller's identity, takes it back from any device.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from .. import errors as e
from ..model import commands
from ..model.commands import Batch
from ..model.fold import FINISHED, PLAYING, SEATING, TableState
from . import autoplay, identity, lobby, mytables
from .botseats import TAKEOVER_BOT, check_bot
from .context import Context, check_seat
from .join import check_one_seat
from .limits import check_id, check_name
from .tokens import Claim
from .write import Done, save_table


def check_holder(claim: Claim, table: TableState) -> None:
    """The one check of a verified claim against the table it names, made wherever a token
    is accepted: the claim's table and seat exist there (PERMISSION_DENIED BAD_TOKEN) and the
    seat was not taken again since the token was issued (UNAUTHENTICATED TOKEN_REVOKED).
    Signature and expiry are checked before, by `Context.claim`."""
    check_seat(claim, table)
    _check_current(claim, table)


def _check_current(claim: Claim, table: TableState) -> None:
    """UNAUTHENTICATED TOKEN_REVOKED when the claim's seat was taken again since it was issued."""
    if claim.seat is None or not 0 <= claim.seat < table.players:
        return
    if claim.generation != table.generations[claim.seat]:
        raise e.ServiceError(
            e.UNAUTHENTICATED,
            e.TOKEN_REVOKED,
            "this token no longer holds its seat (the seat was taken again)",
            {"seat": str(claim.seat)},
        )


def _seat_of(ctx: Context, token: str) -> Claim:
    claim = ctx.claim(token)
    if claim.seat is None:
        raise e.ServiceError(
            e.PERMISSION_DENIED, e.SPECTATOR_CANNOT_MOVE, "a spectator token holds no seat"
        )
    return claim


async def leave(ctx: Context, request: svc.LeaveTableRequest) -> svc.LeaveTableResponse:
    """Free the token's seat before play starts (leaving twice is the same as once)."""
    claim = _seat_of(ctx, request.token)
    seat = claim.seat
    assert seat is not None

    async def decide(table: TableState, fresh: bool) -> Batch | Done[svc.LeaveTableResponse]:
        check_holder(claim, table)
        if table.seats[seat] is None:
            return Done(svc.LeaveTableResponse(version=table.version))
        if table.status != SEATING:
            raise e.precondition(e.TABLE_STARTED, "play has started: the seat cannot be left")
        batch = Batch(table)
        batch.add(ev.PlayerLeft(seat=seat))
        return batch

    return await save_table(
        ctx, claim.table_id, decide, lambda b: svc.LeaveTableResponse(version=b.table.version)
    )


async def rejoin(ctx: Context, request: svc.RejoinTableRequest) -> tuple[TableState, int]:
    """Take the token's seat back (or, without a token, the signed-in caller's player's seat
    at `table_id`); the table after it and the seat (for a fresh token). A signed-in caller
    who rejoins with a token binds the seat to its player."""
    name = check_name(request.name)
    if not request.token:
        return await _rejoin_as_player(ctx, request, name)
    claim = _seat_of(ctx, request.token)
    seat = claim.seat
    assert seat is not None
    caller = identity.player_id()
    if caller is not None:
        await mytables.entered(ctx, caller, claim.table_id)

    async def decide(table: TableState, fresh: bool) -> Batch:
        check_holder(claim, table)
        player = caller if caller is not None else table.player_ids[seat]
        check_one_seat(table, player, seat)
        return await _sit_again(ctx, table, seat, name, player)

    return await save_table(ctx, claim.table_id, decide, lambda b: (b.table, seat))


async def _rejoin_as_player(
    ctx: Context, request: svc.RejoinTableRequest, name: str
) -> tuple[TableState, int]:
    """RejoinTable by identity: the seat of `table_id` bound to the caller's player."""
    if not request.table_id and identity.caller() is None:
        _seat_of(ctx, request.token)  # BAD_TOKEN: "a token is required"
    player = identity.signed_in().player_id
    table_id = check_id("table_id", request.table_id)

    async def decide(table: TableState, fresh: bool) -> Batch:
        if player not in table.player_ids:
            raise e.ServiceError(
                e.PERMISSION_DENIED,
                e.NOT_YOUR_SEAT,
                "your player holds no seat of this table",
                {"table_id": e.shown(table_id)},
            )
        seat = table.player_ids.index(player)
        return await _sit_again(ctx, table, seat, name, player)

    def answer(batch: Batch) -> tuple[TableState, int]:
        return batch.table, batch.table.player_ids.index(player)

    return await save_table(ctx, table_id, decide, answer)


async def _sit_again(ctx: Context, table: TableState, seat: int, name: str, player: str) -> Batch:
    """The seat taken again (a new generation of it: older tokens stop working)."""
    if table.status == FINISHED:
        raise e.precondition(e.TABLE_FINISHED, "the table has finished")
    held = table.seats[seat]
    if held is None:
        await lobby.check_open(ctx, table)
        seated = name or f"Player {seat + 1}"
        batch = commands.seat_player(table, seat, seated, ctx.shuffle, player)
        commands.stamp_deadline(batch, ctx.clock())
    else:
        batch = Batch(table)
        batch.add(ev.PlayerSeated(seat=seat, name=name or held, player_id=player))
    return batch


async def hand_to_bot(ctx: Context, request: svc.HandSeatToBotRequest) -> svc.HandSeatToBotResponse:
    """Let a built-in bot play the token's seat during play (RejoinTable takes it back)."""
    claim = _seat_of(ctx, request.token)
    kind = check_bot("bot", request.bot or TAKEOVER_BOT)
    seat = claim.seat
    assert seat is not None

    async def decide(table: TableState, fresh: bool) -> Batch | Done[svc.HandSeatToBotResponse]:
        check_holder(claim, table)
        if table.status == FINISHED:
            raise e.precondition(e.TABLE_FINISHED, "the table has finished")
        if table.status != PLAYING:
            raise e.precondition(e.TABLE_NOT_STARTED, "a seat is handed to a bot during play")
        if table.bots[seat] == kind:
            return Done(svc.HandSeatToBotResponse(version=table.version))
        if table.tournament_id:
            raise e.precondition(e.TABLE_STARTED, "tournament seats are not handed to bots")
        await autoplay.record_driven(ctx, table.table_id, table.variant.id, table.players)
        batch = Batch(table)
        batch.add(ev.SeatHandedToBot(seat=seat, bot=kind))
        return batch

    return await save_table(
        ctx, claim.table_id, decide, lambda b: svc.HandSeatToBotResponse(version=b.table.version)
    )
