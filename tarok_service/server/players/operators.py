"""Operators: suspend a player (or lift it) and read the audit trail.

An operator call takes the server's operator key (`tarok serve --operator-key`, or
TAROK_OPERATOR_KEY), compared in constant time. A suspension is an entry in the player's own
log, which every replica reads on every use of any of the player's tokens, so it counts at
once everywhere. Each action also appends an `AuditRecorded` to the `audit` log (once,
however often the call is retried), naming the operator key by its public id only.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import players_pb2 as pl

from ...store import NewEvent
from .. import errors as e
from ..usecases import close
from ..usecases.context import Context
from ..usecases.limits import MAX_REASON, check_id, check_text
from ..usecases.sharedkeys import check_shared_key
from ..usecases.tokens import key_id
from ..usecases.write import record_once
from .log import APPEND_RETRIES, Body, Players, PlayerState

AUDIT = "audit"
RECORDED = pl.AuditRecorded.DESCRIPTOR.full_name
MAX_PAGE = 100
MAX_PAGE_TOKEN = 19  # digits of a sequence number


def check_key(ctx: Context, given: str) -> str:
    """The operator's public id; UNAUTHENTICATED unless `given` is the server's operator key."""
    configured = ctx.config.operator_key
    check_shared_key(
        configured,
        given,
        role="operator",
        flag="--operator-key",
        required=e.OPERATOR_KEY_REQUIRED,
        wrong=e.BAD_OPERATOR_KEY,
    )
    return key_id(configured.encode())


async def suspend(ctx: Context, players: Players, request: ps.SuspendPlayerRequest) -> PlayerState:
    """Suspend the player (or reinstate it); the player after it."""
    operator = check_key(ctx, request.operator_key)
    player_id = check_id("player_id", request.player_id)
    reason = check_text(request.reason, "reason", MAX_REASON)
    now = ctx.clock()

    def make(state: PlayerState) -> list[Body]:
        if state.suspended != request.reinstate:
            return []  # already so: nothing to write
        if request.reinstate:
            lifted = pl.PlayerReinstated()
            lifted.at.FromSeconds(int(now))
            return [lifted]
        body = pl.PlayerSuspended(reason=reason)
        body.at.FromSeconds(int(now))
        return [body]

    after = await players.append(player_id, make)
    action = "reinstate" if request.reinstate else "suspend"
    entry = pl.AuditRecorded(action=action, player_id=player_id, reason=reason, operator=operator)
    entry.at.FromSeconds(int(now))
    # Once per state of the player's log: a retried call adds no second entry.
    event = NewEvent(RECORDED, entry.SerializeToString(), f"{action}:{player_id}@{after.version}")
    await record_once(ctx, AUDIT, event, retries=APPEND_RETRIES, busy="the audit log is busy")
    return after


async def close_table(ctx: Context, request: ps.CloseTableRequest) -> ps.CloseTableResponse:
    """End a table now (usecases/close.py), then record it in the audit trail."""
    operator = check_key(ctx, request.operator_key)
    reason = check_text(request.reason, "reason", MAX_REASON)
    version, closed = await close.close_table(ctx, request.table_id, operator, reason)
    if closed:
        entry = pl.AuditRecorded(
            action="close_table", table_id=request.table_id, reason=reason, operator=operator
        )
        entry.at.FromSeconds(int(ctx.clock()))
        rid = f"close_table:{request.table_id}"  # a table closes once: one entry however asked
        event = NewEvent(RECORDED, entry.SerializeToString(), rid)
        await record_once(ctx, AUDIT, event, retries=APPEND_RETRIES, busy="the audit log is busy")
    return ps.CloseTableResponse(version=version, closed=closed)


async def list_audit(
    ctx: Context, request: ps.ListAuditEventsRequest
) -> ps.ListAuditEventsResponse:
    check_key(ctx, request.operator_key)
    if not request.page_size >= 0:
        raise e.invalid("page_size", "page_size must not be negative")
    size = min(request.page_size or MAX_PAGE, MAX_PAGE)
    after = 0
    if request.page_token:
        text = request.page_token
        if len(text) > MAX_PAGE_TOKEN or not (text.isascii() and text.isdigit()):
            raise e.invalid("page_token", "page_token is not valid")
        after = int(text)
    stored = await ctx.store.read(AUDIT, after, size)
    out = ps.ListAuditEventsResponse()
    for item in stored:
        entry = pl.AuditRecorded.FromString(item.payload)
        out.events.append(
            ps.AuditEvent(
                seq=item.seq,
                action=entry.action,
                player_id=entry.player_id,
                reason=entry.reason,
                at=entry.at,
                operator=entry.operator,
                table_id=entry.table_id,
            )
        )
    if stored and await ctx.store.version(AUDIT) > stored[-1].seq:
        out.next_page_token = str(stored[-1].seq)
    return out
