"""CreateTable: a free table as the request describes it (rule set, options, preset deals,
lobby name and visibility, bots, clock), listed and driven as needed; idempotent on request id."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...engine.options import OptionError
from ...engine.variant import Variant
from ...variants.registry import find_variant
from .. import errors as e
from ..model import commands, events
from ..model.commands import Batch, Shuffler
from ..model.fold import fold
from . import autoplay, derived, lobby, quotas
from .botseats import check_bot, shown_name
from .context import Context, request_id
from .derived import ID_BYTES as TABLE_ID_BYTES
from .limits import MAX_DISPLAY_NAME, MAX_ID, check_options, check_text
from .quotas import BotTables
from .write import Append, save_once

MAX_TIME_PER_MOVE = 24 * 3600.0


def describe(created: ev.TableCreated, request: svc.CreateTableRequest) -> None:
    """Copy the lobby and clock settings of a CreateTable request onto its TableCreated
    (INVALID_ARGUMENT naming the field when one is bad)."""
    name = check_text(request.display_name, "display_name", MAX_DISPLAY_NAME)
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
    created.rated = request.rated
    seats: set[int] = set()
    for i, bot in enumerate(request.bots):
        if not 0 <= bot.seat < created.players or bot.seat in seats:
            raise e.invalid(f"bots[{i}].seat", "each bot needs its own seat of the table")
        check_bot(f"bots[{i}].bot", bot.bot)
        seats.add(bot.seat)


def idempotency_key(request_id: str, request: svc.CreateTableRequest) -> str:
    """What a CreateTable request id is recorded as: bound to the request's content (a hash
    of the request without its id) so that reusing the id for another request is refused.
    (Its scope, the caller, is in the table id it is recorded under: `table_label`.)"""
    content = svc.CreateTableRequest()
    content.CopyFrom(request)
    content.request_id = ""
    digest = hashlib.sha256(content.SerializeToString(deterministic=True)).hexdigest()
    return f"create/{digest[:32]}/{request_id}"


def table_label(caller: str, request_id: str) -> str:
    """What the table id of a request id is derived from: the caller and the id (a request
    id is scoped to its caller: another caller using it makes another table)."""
    return f"create-table:{len(caller)}:{caller}:{request_id}"


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
        batch.add(ev.PlayerSeated(seat=bot.seat, name=shown_name(bot.bot), bot=bot.bot))
    if request.bots and not batch.table.free_seats():
        commands.deal_next(batch, shuffle)
        commands.stamp_deadline(batch, now)
    return batch


async def created_before(ctx: Context, table_id: str, request_id: str) -> svc.CreateTableResponse:
    """The answer to a repeated CreateTable request id: the table it created, as it is now."""
    seq = await ctx.store.find_request(table_id, request_id)
    if seq != 1:
        raise e.invalid(
            "request_id", "request_id was already used for another request", e.REQUEST_ID_REUSED
        )
    table = await ctx.cache.load(table_id)
    return svc.CreateTableResponse(table_id=table_id, version=table.version)


async def create_table(
    ctx: Context,
    request: svc.CreateTableRequest,
    caller: str = "",
    bot_tables: BotTables | None = None,
) -> svc.CreateTableResponse:
    """Validate and record TableCreated (and the bots' seats); INVALID_ARGUMENT names the
    bad field. Public tables are listed in the lobby first. A request id is the caller's
    (`caller`: see `transport/principal.py`) and bound to the request: repeated with the
    same request it returns the table it created, with another it is REQUEST_ID_REUSED.
    Tables with bots count against the caller's quota (`bot_tables`, see `quotas.py`)."""
    variant = checked_variant(request.variant)
    hands = request.hands or 1
    if not 1 <= hands <= ctx.config.max_hands:
        raise e.invalid("hands", f"hands must be in 1..{ctx.config.max_hands}")
    rid = request_id(request.request_id)
    if len(request.preset_deals) > ctx.config.max_hands:
        raise e.invalid("preset_deals", f"at most {ctx.config.max_hands} preset deals")
    options = check_options(request.options)
    try:
        created = commands.table_created(
            variant, request.players, options, hands, _presets(request)
        )
    except OptionError as err:
        raise option_error(err) from None
    _check_presets(variant, request)
    describe(created, request)
    quotas.check_request(ctx, request, hands)
    if not rid:
        key, table_id = None, secrets.token_hex(TABLE_ID_BYTES)
    else:
        key = idempotency_key(rid, request)
        table_id = await derived.derived_id(ctx, table_label(caller, rid))
        if await ctx.store.version(table_id) > 0:
            return await created_before(ctx, table_id, key)
    if bot_tables is None:
        return await _create(ctx, request, created, variant, table_id, key)
    await bot_tables.prune(caller)
    with bot_tables.reserve(caller, bool(request.bots)) as made:
        out = await _create(ctx, request, created, variant, table_id, key)
        made.append(out.table_id)
    return out


async def _create(
    ctx: Context,
    request: svc.CreateTableRequest,
    created: ev.TableCreated,
    variant: Variant[Any],
    table_id: str,
    key: str | None,
) -> svc.CreateTableResponse:
    """Record the table (`key`: the request's idempotency key, None without a request id)."""
    now = ctx.clock()
    batch = creation_batch(table_id, created, request, now, ctx.shuffle)
    if not created.private:
        await lobby.list_table(ctx, table_id, variant.id, created.players)
    if autoplay.needs_driving(created, len(request.bots)):
        await autoplay.record_driven(ctx, table_id, variant.id, created.players)

    async def saved(version: int) -> svc.CreateTableResponse:
        ctx.metrics.table_created(variant.id)
        ctx.metrics.appended(variant.id, batch.payloads[1:])
        return svc.CreateTableResponse(table_id=table_id, version=version)

    async def before(_: int = 0) -> svc.CreateTableResponse:
        if key is None:
            raise e.ServiceError(e.ABORTED, e.CONTENTION, "the table id was taken: try again")
        return await created_before(ctx, table_id, key)

    append = Append(0, events.encode(batch.payloads, key), saved)
    return await save_once(ctx, table_id, append, before, on_duplicate=before)


def checked_variant(variant_id: str) -> Variant[Any]:
    """The rule set of an id (INVALID_ARGUMENT UNKNOWN_VARIANT naming `variant` otherwise)."""
    if not variant_id:
        raise e.invalid("variant", "variant is required", e.UNKNOWN_VARIANT)
    if len(variant_id) > MAX_ID or not variant_id.replace("_", "").replace("-", "").isalnum():
        raise e.invalid("variant", f"unknown variant {e.shown(variant_id)!r}", e.UNKNOWN_VARIANT)
    try:
        return find_variant(variant_id)
    except KeyError as err:
        raise e.invalid("variant", str(err.args[0]), e.UNKNOWN_VARIANT) from None


def option_error(err: OptionError) -> e.ServiceError:
    """INVALID_ARGUMENT for a bad player count or option."""
    if err.field == "players":
        return e.invalid("players", str(err), e.BAD_PLAYER_COUNT)
    return e.invalid(f"options.{err.field}", str(err), e.BAD_OPTION)


async def create_at(
    ctx: Context, request: svc.CreateTableRequest, table_id: str, key: str
) -> svc.CreateTableResponse:
    """A table made by the server itself (matchmaking) at a chosen id, recorded with the
    idempotency `key`: whoever asks again (another replica) gets the table made first."""
    variant = checked_variant(request.variant)
    try:
        created = commands.table_created(variant, request.players, dict(request.options), 1, [])
    except OptionError as err:
        raise option_error(err) from None
    describe(created, request)
    if await ctx.store.version(table_id) > 0:
        return await created_before(ctx, table_id, key)
    return await _create(ctx, request, created, variant, table_id, key)


def _presets(request: svc.CreateTableRequest) -> list[list[str]]:
    return [list(d.cards) for d in request.preset_deals]


def _check_presets(variant: Variant[Any], request: svc.CreateTableRequest) -> None:
    """Every preset deal must name each card of the table's deck exactly once."""
    rules = variant.make_rules(request.players, dict(request.options))
    codes = sorted(variant.deck(rules).by_code)
    for i, deal in enumerate(request.preset_deals):
        if sorted(deal.cards) != codes:
            raise e.invalid(
                f"preset_deals[{i}]",
                f"preset deal {i} must list each of the {len(codes)} card codes exactly once",
                e.BAD_DEAL,
            )
