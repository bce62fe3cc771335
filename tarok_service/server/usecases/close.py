"""An operator ends a table now (PlayerService.CloseTable, in the players feature): the
table's log ends with a TableClosed naming the operator. A hand in play is not scored; the
totals are those of the hands scored so far. A table already over is left as it is."""

from __future__ import annotations

from ..model.commands import Batch
from ..model.fold import FINISHED, TableState, operator_closed
from .context import Context
from .limits import check_id
from .write import Done, save_table


async def close_table(ctx: Context, table_id: str, closed_by: str, reason: str) -> tuple[int, bool]:
    """(the table's version after it, whether this call closed it)."""
    table_id = check_id("table_id", table_id)

    async def decide(table: TableState, fresh: bool) -> Batch | Done[tuple[int, bool]]:
        if table.status == FINISHED:
            return Done((table.version, False))
        batch = Batch(table)
        batch.add(operator_closed(table, closed_by, reason))
        return batch

    return await save_table(ctx, table_id, decide, lambda b: (b.table.version, True))
