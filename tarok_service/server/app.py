"""The transport-neutral application layer: one method per use case, protobuf in and out.

No gRPC here: errors are `ServiceError`s that each transport maps to its own status, so
another transport (Connect / gRPC-Web over ASGI) can reuse this class unchanged.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..engine.options import OptionError
from ..engine.variant import Variant, all_variants, find_variant
from ..store import DuplicateRequest, EventStore, VersionConflict
from . import codec, commands, drive, events, lobby, logs, moves, rematch, seats, tables
from . import errors as e
from .config import ServerConfig
from .context import Context, request_id
from .table import SEATING, TableState
from .views import table_view

MAX_NAME = 40
TABLE_ID_BYTES = 9


class TarokApp:
    """create, join, view, submit, watch, log (and list variants, ping)."""

    def __init__(self, store: EventStore, config: ServerConfig, ctx: Context | None = None) -> None:
        self.ctx = ctx or Context(store, config)
        self.slots = logs.WatcherSlots(config.max_watchers)
        self.ctx.metrics.watch_streams.set_function(lambda: self.slots.open)
        self._variants: svc.ListVariantsResponse | None = None

    async def ping(self, request: svc.PingRequest) -> svc.PingResponse:
        return svc.PingResponse(payload=request.payload)

    async def list_variants(self, request: svc.ListVariantsRequest) -> svc.ListVariantsResponse:
        if self._variants is None:
            self._variants = svc.ListVariantsResponse(
                variants=[codec.variant_msg(v) for v in all_variants()]
            )
        return self._variants

    async def create_table(self, request: svc.CreateTableRequest) -> svc.CreateTableResponse:
        """Validate and record TableCreated (and the bots' seats); INVALID_ARGUMENT names the
        bad field. Public tables are listed in the lobby first; a repeated request id returns
        the table it created."""
        variant = _variant(request.variant)
        hands = request.hands or 1
        if not 1 <= hands <= self.ctx.config.max_hands:
            raise e.invalid("hands", f"hands must be in 1..{self.ctx.config.max_hands}")
        rid = request_id(request.request_id)
        try:
            created = commands.table_created(
                variant, request.players, dict(request.options), hands, _presets(request)
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
        joined = await self.join_table(join)
        return svc.RematchResponse(
            token=joined.token,
            seat=seat,
            table_id=table_id,
            version=joined.version,
            expires=joined.expires,
        )

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
        if not request.table_id:
            raise e.invalid("table_id", "table_id is required")
        name = request.name.strip()
        if len(name) > MAX_NAME:
            raise e.invalid("name", f"name is longer than {MAX_NAME} characters")
        rid = request_id(request.request_id)
        table = await self.ctx.cache.load(request.table_id)
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
                return await self._rejoin(table.table_id, dup.seq)
            except VersionConflict:
                table = await self.ctx.cache.load(table.table_id)
                continue
            self.ctx.cache.put(batch.table)
            self.ctx.metrics.appended(table.variant.id, batch.payloads)
            return self._joined(batch.table, seat)
        raise e.ServiceError(e.ABORTED, e.CONTENTION, "the table is too busy: try again")

    async def get_view(self, request: svc.GetTableViewRequest) -> svc.GetTableViewResponse:
        claim = self.ctx.claim(request.token)
        table = await self.ctx.cache.load(claim.table_id)
        seats.check_current(claim, table)
        return svc.GetTableViewResponse(view=table_view(table, claim.seat))

    async def submit_move(self, request: svc.SubmitMoveRequest) -> svc.SubmitMoveResponse:
        try:
            return await moves.submit_move(self.ctx, request)
        except e.ServiceError as err:
            self.ctx.metrics.move_rejected(err.reason)
            raise

    def watch_table(self, request: svc.WatchTableRequest) -> AsyncIterator[svc.WatchTableResponse]:
        return logs.watch(self.ctx, self.slots, request)

    async def get_table_log(self, request: svc.GetTableLogRequest) -> svc.GetTableLogResponse:
        return await logs.get_log(self.ctx, request)

    # --- helpers ----------------------------------------------------------------------------

    async def _pick_seat(
        self, table: TableState, request: svc.JoinTableRequest, rid: str | None
    ) -> int | svc.JoinTableResponse:
        """The seat to take, a replayed answer for a repeated request id, or an error."""
        try:
            return _choose_seat(table, request)
        except e.ServiceError:
            seq = await self.ctx.store.find_request(table.table_id, rid) if rid else None
            if seq is None:
                raise
            return await self._rejoin(table.table_id, seq)

    async def _rejoin(self, table_id: str, seq: int) -> svc.JoinTableResponse:
        """The answer to a repeated JoinTable request: a token for the seat it took."""
        stored = await self.ctx.store.read(table_id, seq - 1, 1)
        payload = events.decode(stored[0])
        if stored[0].type != events.PLAYER_SEATED:
            raise e.invalid("request_id", "request_id was already used for another request")
        table = await self.ctx.cache.load(table_id)
        return self._joined(table, payload.seat)  # type: ignore[union-attr]

    def _joined(self, table: TableState, seat: int | None) -> svc.JoinTableResponse:
        generation = table.generations[seat] if seat is not None else 1
        token, expires = self.ctx.tokens.issue(
            table.table_id, seat, self.ctx.clock(), generation
        )
        out = svc.JoinTableResponse(token=token, table_id=table.table_id, version=table.version)
        out.expires.FromSeconds(expires)
        if seat is not None:
            out.seat = seat
        return out


def _variant(variant_id: str) -> Variant:
    if not variant_id:
        raise e.invalid("variant", "variant is required", e.UNKNOWN_VARIANT)
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


def _check_presets(variant: Variant, request: svc.CreateTableRequest) -> None:
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
