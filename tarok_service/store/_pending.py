"""An append waiting for the next group commit (both stores batch concurrent appends)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .base import StoreClosed

# One row to insert: (table_id, seq, type, payload, request_id, created_at).
Row = tuple[str, int, str, bytes, str | None, float]


@dataclass
class Pending:
    """One append waiting for the next group commit; its caller awaits `future`."""

    table_id: str
    expected: int
    request_id: str | None
    rows: list[Row]
    future: asyncio.Future[int]
    outcome: int | BaseException | None = None  # set by a worker thread, delivered on the loop


def deliver(batch: list[Pending]) -> None:
    """Resolve the futures of a written batch with their outcomes (event loop)."""
    for item in batch:
        if item.future.done():
            continue
        if isinstance(item.outcome, int):
            item.future.set_result(item.outcome)
        else:
            item.future.set_exception(item.outcome or StoreClosed())
