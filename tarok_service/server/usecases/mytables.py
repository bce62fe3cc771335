"""Each signed-in player's tables: the log `mytables.<player id>`, one `TableEntered` per
table the player took a seat at (written before the seat, once per table however often it
is retried, so no seat of the player is missing from it).

The log is an index, not the truth: a table is the player's while the table's own log says
so (`TableState.player_ids`), which `open_tables` checks for every entry it returns.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import players_pb2 as pl

from ...store import NewEvent
from .. import errors as e
from ..model.fold import FINISHED, TableState
from .context import Context
from .write import record_once

ENTERED = pl.TableEntered.DESCRIPTOR.full_name
APPEND_RETRIES = 16
MAX_OPEN = 200  # the open tables one ListMyTables answers at most (newest first)
SCAN = 1000  # entries of the log read for it at most (newest first)


def log_id(player_id: str) -> str:
    return f"mytables.{player_id}"


async def entered(ctx: Context, player_id: str, table_id: str) -> None:
    """Record that `player_id` takes a seat at `table_id` (a no-op when it did before)."""
    entry = pl.TableEntered(table_id=table_id)
    entry.at.FromSeconds(int(ctx.clock()))
    event = NewEvent(ENTERED, entry.SerializeToString(), f"entered:{table_id}")
    await record_once(
        ctx, log_id(player_id), event, retries=APPEND_RETRIES, busy="too busy: try again"
    )


async def tables_of(ctx: Context, player_id: str, limit: int = SCAN) -> list[str]:
    """The tables `player_id` ever took a seat at, newest first (at most `limit`)."""
    log = log_id(player_id)
    version = await ctx.store.version(log)
    stored = await ctx.store.read(log, max(0, version - limit))
    return [pl.TableEntered.FromString(s.payload).table_id for s in reversed(stored)]


async def open_tables(ctx: Context, player_id: str) -> list[tuple[TableState, int]]:
    """(table, seat) of each unfinished table where `player_id` holds a seat, newest first."""
    out: list[tuple[TableState, int]] = []
    for table_id in await tables_of(ctx, player_id):
        try:
            table = await ctx.cache.load(table_id)
        except e.ServiceError:
            continue  # a table that is gone (or never written: the seat was not taken)
        if table.status == FINISHED or player_id not in table.player_ids:
            continue
        out.append((table, table.player_ids.index(player_id)))
        if len(out) == MAX_OPEN:
            break
    return out
