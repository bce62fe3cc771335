"""SubmitMove: validate against the (cached) table, append, answer; idempotent on request id.

The fast path reads nothing: it decides on the cached state and appends at the cached
version (`write.save_table`). If another writer got there first the append fails with
VersionConflict, the cache is refreshed with only the newer events, and the move is decided
again (bounded). An error is only reported after the decision was made on a freshly read
state.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...engine import moves as m
from ...engine.moves import IllegalMove, Move
from .. import errors as e
from ..model import commands, events
from ..model.cache import apply_stored
from ..model.fold import FINISHED, PLAYING, SEATING, TableState
from ..present import codec
from ..present.views import STATUS
from .context import Context, check_seat, request_id
from .seats import check_holder
from .write import Done, save_table

Answer = svc.SubmitMoveResponse
SYSTEM_EVENTS = (events.HAND_SCORED, events.HAND_DEALT, events.TABLE_CLOSED)


async def submit_move(ctx: Context, request: svc.SubmitMoveRequest) -> svc.SubmitMoveResponse:
    """Make a move for the token's seat (see module docstring)."""
    claim = ctx.claim(request.token)
    if claim.seat is None:
        raise e.ServiceError(
            e.PERMISSION_DENIED, e.SPECTATOR_CANNOT_MOVE, "a spectator token cannot make moves"
        )
    move = codec.move_from_request(request)
    rid = request_id(request.request_id, str(claim.seat))
    expected = request.expected_version if request.HasField("expected_version") else None
    table_id, seat = claim.table_id, claim.seat
    table, fresh = ctx.cache.get(table_id), False
    if table is None or (expected is not None and expected > table.version):
        table, fresh = await ctx.cache.load(table_id), True
    check_seat(claim, table)

    async def decided(table: TableState, fresh: bool) -> commands.Batch | Done[Answer]:
        try:
            check_holder(claim, table)
            return decide(ctx, table, seat, move, expected)
        except e.ServiceError as err:
            if not fresh:
                raise
            return Done(await _duplicate_or_raise(ctx, table_id, seat, rid, move, err))

    async def duplicate(seq: int) -> Answer:
        return await first_answer(ctx, table_id, seat, seq, move)

    return await save_table(
        ctx,
        table_id,
        decided,
        lambda batch: answer(batch.table, batch.payloads, move),
        request_id=rid,
        table=table,
        fresh=fresh,
        on_duplicate=duplicate,
    )


def decide(
    ctx: Context, table: TableState, seat: int, move: Move, expected: int | None
) -> commands.Batch:
    """The events of `seat` making `move` at `table`, or a ServiceError."""
    if table.status == SEATING:
        raise e.precondition(e.TABLE_NOT_STARTED, "the table is waiting for players")
    if table.status == FINISHED:
        raise e.precondition(e.TABLE_FINISHED, "the table has finished")
    if expected is not None and expected != table.version:
        raise e.stale(expected, table.version)
    hand = table.hand
    assert hand is not None
    if hand.turn != seat:
        turn = "" if hand.turn is None else str(hand.turn)
        raise e.precondition(m.Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s turn", turn=turn)
    try:
        after = table.variant.apply(hand, move, check=True)
    except IllegalMove as err:
        raise e.precondition(err.reason, err.message, move=move.id) from None
    return commands.make_move(table, seat, move, after, ctx.clock(), ctx.shuffle)


def answer(
    table: TableState, payloads: list[events.Payload], move: Move | None = None
) -> svc.SubmitMoveResponse:
    """The reply to a move: `payloads` starts with its MoveMade; `table` is the state after."""
    made = payloads[0]
    assert isinstance(made, ev.MoveMade)
    move = move or Move.parse(made.move_id)
    out = svc.SubmitMoveResponse(version=table.version, status=STATUS[table.status])
    made_move = out.move  # filled in place: no LegalMove built and copied
    made_move.id = move.id
    made_move.label = made.label
    made_move.kind = move.kind
    made_move.value = move.value
    made_move.SetInParent()  # present even if every field were empty, as before
    hand = table.hand
    if table.status == PLAYING and hand is not None and hand.turn is not None:
        out.turn = hand.turn
    if len(payloads) > 1:
        scored = next((p for p in payloads if isinstance(p, ev.HandScored)), None)
        if scored is not None:
            out.result.CopyFrom(scored.result)
    return out


async def first_answer(
    ctx: Context, table_id: str, seat: int, seq: int, move: Move
) -> svc.SubmitMoveResponse:
    """The answer given when the request recorded at `seq` was first made (read from the log);
    INVALID_ARGUMENT REQUEST_ID_REUSED when that request was not this same move."""
    stored = await ctx.store.read(table_id, 0)
    first = stored[seq - 1]
    made = events.decode(first) if events.name_of(first) == events.MOVE_MADE else None
    if not isinstance(made, ev.MoveMade) or made.seat != seat or made.move_id != move.id:
        raise e.invalid(
            "request_id", "request_id was already used for another request", e.REQUEST_ID_REUSED
        )
    end = seq
    while end < len(stored) and events.name_of(stored[end]) in SYSTEM_EVENTS:
        end += 1
    table = apply_stored(None, table_id, stored[:end])
    assert table is not None
    return answer(table, [events.decode(s) for s in stored[seq - 1 : end]])


async def _duplicate_or_raise(
    ctx: Context, table_id: str, seat: int, rid: str | None, move: Move, err: e.ServiceError
) -> svc.SubmitMoveResponse:
    """A retried request gets its first answer; anything else gets the error."""
    if rid is not None:
        seq = await ctx.store.find_request(table_id, rid)
        if seq is not None:
            return await first_answer(ctx, table_id, seat, seq, move)
    raise err
