"""The transport-neutral application layer: one method per use case, protobuf in and out.

No gRPC here: errors are `ServiceError`s that each transport maps to its own status, so
another transport (Connect / gRPC-Web over ASGI) can reuse this class unchanged.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Any

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...engine.options import OptionError
from ...engine.variant import Variant
from ...store import DuplicateRequest, EventStore, VersionConflict
from ...variants.registry import all_variants, find_variant
from .. import errors as e
from ..config import ServerConfig
from ..model import commands, events
from ..model.fold import SEATING, TableState
from ..present import codec
from ..present.i18n import Labels, SeatLocales, negotiate
from ..present.views import table_view
from . import autoplay as drive
from . import create as tables
from . import fanout, lobby, moves, rematch, seats
from . import watch as logs
from .context import Context, check_seat, request_id
from .limits import MAX_ID, check_id, check_name, check_options

__all__ = ["TarokApp"]
TABLE_ID_BYTES = 9
JOIN_SCOPE = "join"


class TarokApp:
    """create, join, view, submit, watch, log (and list variants, ping)."""

    def __init__(self, store: EventStore, config: ServerConfig, ctx: Context | None = None) -> None:
        self.ctx = ctx or Context(store, config)
        self.slots = logs.WatcherSlots(config.max_watchers, config.max_watchers_per_principal)
        self.feeds = fanout.Feeds(self.ctx)
        self.ctx.metrics.watch_streams.set_function(lambda: self.slots.open)
        self._variants: dict[str | None, svc.ListVariantsResponse] = {}
        self.locales = SeatLocales()

    async def ping(self, request: svc.PingRequest) -> svc.PingResponse:
        return svc.PingResponse(payload=request.payload)

    async def list_variants(self, request: svc.ListVariantsRequest) -> svc.ListVariantsResponse:
        locale = negotiate(request.locale)
        found = self._variants.get(locale)
        if found is None:
            found = self._variants[locale] = svc.ListVariantsResponse(
                variants=[codec.variant_msg(v, locale) for v in all_variants()]
            )
        return found

    def labels(self, table: TableState, seat: int | None, requested: str) -> Labels | None:
        """The labels for a viewer's call: its requested locale (remembered for the seat),
        else the seat's last one, else None (the rule set's English labels)."""
        locale = self.locales.choose(table.table_id, seat, requested)
        if locale is None:
            return None
        return Labels(locale, table.variant.id, self.ctx.metrics.translation_missing)

    async def create_table(self, request: svc.CreateTableRequest) -> svc.CreateTableResponse:
        """Validate and record TableCreated (and the bots' seats); INVALID_ARGUMENT names the
        bad field. Public tables are listed in the lobby first; a repeated request id returns
        the table it created."""
        variant = _variant(request.variant)
        hands = request.hands or 1
        if not 1 <= hands <= self.ctx.config.max_hands:
            raise e.invalid("hands", f"hands must be in 1..{self.ctx.config.max_hands}")
        rid = request_id(request.request_id)
        if len(request.preset_deals) > self.ctx.config.max_hands:
            raise e.invalid("preset_deals", f"at most {self.ctx.config.max_hands} preset deals")
        options = check_options(request.options)
        try:
            created = commands.table_created(
                variant, request.players, options, hands, _presets(request)
            )
        except OptionError as err:
            raise _option_error(err) from None
        _check_presets(variant, request)
        tables.describe(created, request)
        table_id = tables.table_id(self.ctx, rid) if rid else secrets.token_hex(TABLE_ID_BYTES)
        now = self.ctx.clock()
        batch = tables.creation_batch(table_id, created, request, now, self.ctx.shuffle)
        if not created.private:
            await lobby.list_table(self.ctx, table_id, variant.id, created.players)
        if drive.needs_driving(created, len(request.bots)):
            await drive.record_driven(self.ctx, table_id, variant.id, created.players)
        try:
            version = await self.ctx.store.append(
                table_id, 0, events.encode(batch.payloads, rid), now
            )
        except (DuplicateRequest, VersionConflict):
            if rid is None:
                raise
            return await tables.created_before(self.ctx, table_id, rid)
        self.ctx.metrics.table_created(variant.id)
        self.ctx.metrics.appended(variant.id, batch.payloads[1:])
        return svc.CreateTableResponse(table_id=table_id, version=version)

    async def list_tables(self, request: svc.ListTablesRequest) -> svc.ListTablesResponse:
        return await lobby.list_tables(self.ctx, request)

    async def leave_table(self, request: svc.LeaveTableRequest) -> svc.LeaveTableResponse:
        return await seats.leave(self.ctx, request)

    async def rematch(self, request: svc.RematchRequest) -> svc.RematchResponse:
        table_id, seat, name, rid = await rematch.rematch(self.ctx, request)
        join = svc.JoinTableRequest(table_id=table_id, seat=seat, name=name, request_id=rid)
        try:
            joined = await self.join_table(join)
        except e.ServiceError as err:
            # Asking again: the caller holds the old seat's current token, which proves it is
            # the player this seat was taken for (unless the seat changed hands since).
            table = await self.ctx.cache.load(table_id)
            if err.reason != e.ALREADY_JOINED or table.generations[seat] != 1:
                raise
            joined = self._joined(table, seat)
        return svc.RematchResponse(
            token=joined.token,
            seat=seat,
            table_id=table_id,
            version=joined.version,
            expires=joined.expires,
        )

    async def hand_seat_to_bot(
        self, request: svc.HandSeatToBotRequest
    ) -> svc.HandSeatToBotResponse:
        return await seats.hand_to_bot(self.ctx, request)

    async def rejoin_table(self, request: svc.RejoinTableRequest) -> svc.RejoinTableResponse:
        table, seat = await seats.rejoin(self.ctx, request)
        joined = self._joined(table, seat)
        return svc.RejoinTableResponse(
            token=joined.token,
            seat=seat,
            table_id=joined.table_id,
            version=joined.version,
            expires=joined.expires,
        )

    async def join_table(self, request: svc.JoinTableRequest) -> svc.JoinTableResponse:
        """Take a seat (or the first free one), or a spectator token."""
        check_id("table_id", request.table_id)
        name = check_name(request.name)
        rid = request_id(request.request_id, JOIN_SCOPE)
        table = await self.ctx.cache.load(request.table_id)
        if table.tournament_id and not await self.ctx.tournament_over(table.tournament_id):
            raise e.sealed(table.tournament_id, "the tables", "closed to spectators until it ends")
        if request.spectator:
            return self._joined(table, None)
        await lobby.check_open(self.ctx, table)
        for _ in range(self.ctx.config.move_retries):
            seat = await self._pick_seat(table, request, rid)
            if isinstance(seat, svc.JoinTableResponse):
                return seat
            batch = commands.seat_player(
                table, seat, name or f"Player {seat + 1}", self.ctx.shuffle
            )
            commands.stamp_deadline(batch, self.ctx.clock())
            try:
                await self.ctx.store.append(
                    table.table_id,
                    table.version,
                    events.encode(batch.payloads, rid),
                    self.ctx.clock(),
                )
            except DuplicateRequest as dup:
                raise await self._already_joined(table.table_id, dup.seq, request) from None
            except VersionConflict:
                table = await self.ctx.cache.load(table.table_id)
                continue
            await self.ctx.cache.appended(table.version, batch.table)
            self.ctx.metrics.appended(table.variant.id, batch.payloads)
            self.locales.choose(table.table_id, seat, request.locale)
            return self._joined(batch.table, seat)
        raise e.ServiceError(e.ABORTED, e.CONTENTION, "the table is too busy: try again")

    async def get_view(self, request: svc.GetTableViewRequest) -> svc.GetTableViewResponse:
        claim = self.ctx.claim(request.token)
        table = await self.ctx.cache.load(claim.table_id)
        check_seat(claim, table)
        seats.check_current(claim, table)
        words = self.labels(table, claim.seat, request.locale)
        return svc.GetTableViewResponse(view=table_view(table, claim.seat, words, self.ctx.clock()))

    async def submit_move(self, request: svc.SubmitMoveRequest) -> svc.SubmitMoveResponse:
        if request.locale:
            claim = self.ctx.claim(request.token)
            if claim.seat is not None:
                self.locales.choose(claim.table_id, claim.seat, request.locale)
        try:
            return await moves.submit_move(self.ctx, request)
        except e.ServiceError as err:
            self.ctx.metrics.move_rejected(err.reason)
            raise

    def watch_table(
        self, request: svc.WatchTableRequest, peer: str = ""
    ) -> AsyncIterator[svc.WatchTableResponse]:
        """`peer`: the client's address (limits per caller), empty when unknown."""
        return logs.watch(self.ctx, self.slots, request, self.feeds, self.labels, peer)

    async def get_table_log(
        self, request: svc.GetTableLogRequest, peer: str = ""
    ) -> svc.GetTableLogResponse:
        return await logs.get_log(self.ctx, request, peer)

    # --- helpers ----------------------------------------------------------------------------

    async def _pick_seat(
        self, table: TableState, request: svc.JoinTableRequest, rid: str | None
    ) -> int | svc.JoinTableResponse:
        """The seat to take, or an error (ALREADY_JOINED for a repeated request id)."""
        try:
            return _choose_seat(table, request)
        except e.ServiceError:
            seq = await self.ctx.store.find_request(table.table_id, rid) if rid else None
            if seq is None:
                raise
            raise await self._already_joined(table.table_id, seq, request) from None

    async def _already_joined(
        self, table_id: str, seq: int, request: svc.JoinTableRequest
    ) -> e.ServiceError:
        """The error for a repeated JoinTable request id.

        The seat's token is never sent again: a request id is not a password, and whoever
        repeats one must not get a seat's hidden hand.
        """
        stored = await self.ctx.store.read(table_id, seq - 1, 1)
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

    def _joined(
        self, table: TableState, seat: int | None, generation: int | None = None
    ) -> svc.JoinTableResponse:
        if generation is None:
            generation = table.generations[seat] if seat is not None else 1
        token, expires = self.ctx.tokens.issue(table.table_id, seat, self.ctx.clock(), generation)
        out = svc.JoinTableResponse(token=token, table_id=table.table_id, version=table.version)
        out.expires.FromSeconds(expires)
        if seat is not None:
            out.seat = seat
        return out


def _variant(variant_id: str) -> Variant[Any]:
    if not variant_id:
        raise e.invalid("variant", "variant is required", e.UNKNOWN_VARIANT)
    if len(variant_id) > MAX_ID or not variant_id.replace("_", "").replace("-", "").isalnum():
        raise e.invalid("variant", f"unknown variant {e.shown(variant_id)!r}", e.UNKNOWN_VARIANT)
    try:
        return find_variant(variant_id)
    except KeyError as err:
        raise e.invalid("variant", str(err.args[0]), e.UNKNOWN_VARIANT) from None


def _option_error(err: OptionError) -> e.ServiceError:
    if err.field == "players":
        return e.invalid("players", str(err), e.BAD_PLAYER_COUNT)
    return e.invalid(f"options.{err.field}", str(err), e.BAD_OPTION)


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
