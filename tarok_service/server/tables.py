"""Free tables as CreateTable makes them: lobby name and visibility, bots, clock, idempotency."""

from __future__ import annotations

import hashlib
import hmac

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..bots import BOT_NAMES
from . import commands
from . import errors as e
from .commands import Batch, Shuffler
from .context import Context
from .table import fold

MAX_DISPLAY_NAME = 60
MAX_TIME_PER_MOVE = 24 * 3600.0
TABLE_ID_BYTES = 9
BOT_NAMES_SHOWN = {
    "random": "Random bot", "heuristic": "Heuristic bot", "pimc": "PIMC bot",
    "easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot", "expert": "Expert bot",
}  # fmt: skip


def describe(created: ev.TableCreated, request: svc.CreateTableRequest) -> None:
    """Copy the lobby and clock settings of a CreateTable request onto its TableCreated
    (INVALID_ARGUMENT naming the field when one is bad)."""
    name = request.display_name.strip()
    if len(name) > MAX_DISPLAY_NAME:
        raise e.invalid("display_name", f"display_name is longer than {MAX_DISPLAY_NAME}")
    if request.visibility not in (
        svc.TABLE_VISIBILITY_UNSPECIFIED,
        svc.TABLE_VISIBILITY_PUBLIC,
        svc.TABLE_VISIBILITY_PRIVATE,
    ):
        raise e.invalid("visibility", "visibility must be PUBLIC or PRIVATE")
    created.display_name = name
    created.private = request.visibility == svc.TABLE_VISIBILITY_PRIVATE
    if request.HasField("time_per_move"):
        seconds = request.time_per_move.ToNanoseconds() / 1e9
        if not 0 <= seconds <= MAX_TIME_PER_MOVE:
            raise e.invalid("time_per_move", "time_per_move must be between 0 and 24 hours")
        if seconds:
            created.time_per_move.CopyFrom(request.time_per_move)
    if request.on_timeout not in (
        svc.TIMEOUT_ACTION_UNSPECIFIED,
        svc.TIMEOUT_ACTION_DEFAULT_MOVE,
        svc.TIMEOUT_ACTION_BOT,
    ):
        raise e.invalid("on_timeout", "on_timeout must be DEFAULT_MOVE or BOT")
    created.bot_on_timeout = request.on_timeout == svc.TIMEOUT_ACTION_BOT
    seats: set[int] = set()
    for i, bot in enumerate(request.bots):
        if not 0 <= bot.seat < created.players or bot.seat in seats:
            raise e.invalid(f"bots[{i}].seat", "each bot needs its own seat of the table")
        if bot.bot not in BOT_NAMES:
            raise e.invalid(f"bots[{i}].bot", f"bot must be one of {', '.join(BOT_NAMES)}")
        seats.add(bot.seat)


def table_id(ctx: Context, request_id: str) -> str:
    """The table a CreateTable request id makes: derived, so a retry finds the same table."""
    key = hmac.new(ctx.config.secret, f"create-table:{request_id}".encode(), hashlib.sha256)
    return key.hexdigest()[: 2 * TABLE_ID_BYTES]


def creation_batch(
    table_id: str,
    created: ev.TableCreated,
    request: svc.CreateTableRequest,
    now: float,
    shuffle: Shuffler,
) -> Batch:
    """TableCreated, a PlayerSeated per bot, and the first deal when the bots fill the table."""
    batch = Batch(fold(None, table_id, 1, created), [created])
    for bot in sorted(request.bots, key=lambda b: b.seat):
        batch.add(
            ev.PlayerSeated(seat=bot.seat, name=BOT_NAMES_SHOWN.get(bot.bot, bot.bot), bot=bot.bot)
        )
    if request.bots and not batch.table.free_seats():
        commands.deal_next(batch, shuffle)
        commands.stamp_deadline(batch, now)
    return batch


async def created_before(ctx: Context, table_id: str, request_id: str) -> svc.CreateTableResponse:
    """The answer to a repeated CreateTable request id: the table it created, as it is now."""
    seq = await ctx.store.find_request(table_id, request_id)
    if seq != 1:
        raise e.invalid("request_id", "request_id was already used for another request")
    table = await ctx.cache.load(table_id)
    return svc.CreateTableResponse(table_id=table_id, version=table.version)
