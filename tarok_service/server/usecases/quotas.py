"""Quotas on free tables, per caller: what one client may make the server play for it.

A free table with bots costs the server CPU for every hand it plays, and a clock makes the
server move (by timeouts) as often as it ticks. So a public server bounds, per caller (the
client's address: `transport/principal.py`), the free tables with bots that are not finished
yet, the hands such a table may have, and the shortest time per move of any table. Each
limit is a `tarok serve` option (see SECURITY.md for the defaults); 0 turns a limit off.

The count of a caller's tables is kept by each replica for the tables it created (a caller
spread over N replicas may have N times the quota); the finished ones are dropped when the
caller asks for another.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from .. import errors as e
from ..model.fold import FINISHED
from . import lobby
from .context import Context


def check_request(ctx: Context, request: svc.CreateTableRequest, hands: int) -> None:
    """INVALID_ARGUMENT naming the field when a free table asks for more than a caller may:
    more hands with bots than `max_bot_hands`, a clock faster than `min_time_per_move`."""
    config = ctx.config
    if request.bots and config.max_bot_hands and hands > config.max_bot_hands:
        raise e.invalid(
            "hands", f"a table with bots plays at most {config.max_bot_hands} hands here"
        )
    if request.HasField("time_per_move"):
        seconds = request.time_per_move.ToNanoseconds() / 1e9
        if 0 < seconds < config.min_time_per_move_seconds:
            raise e.invalid(
                "time_per_move",
                f"time_per_move is at least {config.min_time_per_move_seconds:g} seconds here",
            )


class BotTables:
    """The unfinished free tables with bots of each caller, on this replica."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._tables: dict[str, set[str]] = {}
        self._pending: dict[str, int] = {}

    @contextmanager
    def reserve(self, caller: str, wanted: bool) -> Iterator[list[str]]:
        """A place for one more table with bots of `caller` (when `wanted`), or
        RESOURCE_EXHAUSTED TOO_MANY_TABLES; the table id appended to the list it yields is
        counted from then on (nothing is counted when the creation fails)."""
        made: list[str] = []
        limit = self.ctx.config.max_bot_tables_per_caller
        if not wanted or not limit:
            yield made
            return
        held = len(self._tables.get(caller, ())) + self._pending.get(caller, 0)
        if held >= limit:
            raise e.ServiceError(
                e.RESOURCE_EXHAUSTED,
                e.TOO_MANY_TABLES,
                f"you have {limit} unfinished tables with bots here: finish one first",
                {"limit": str(limit)},
            )
        self._pending[caller] = self._pending.get(caller, 0) + 1
        try:
            yield made
        finally:
            self._pending[caller] -= 1
            if not self._pending[caller]:
                del self._pending[caller]
        self._tables.setdefault(caller, set()).update(made)

    async def prune(self, caller: str) -> None:
        """Forget `caller`'s tables that have finished (or are gone)."""
        tables = self._tables.get(caller)
        if not tables:
            return
        for table_id in list(tables):
            try:
                table = await self.ctx.cache.load(table_id)
            except e.ServiceError:
                tables.discard(table_id)
                continue
            if table.status == FINISHED or await lobby.expired(self.ctx, table):
                tables.discard(table_id)
        if not tables:
            self._tables.pop(caller, None)
