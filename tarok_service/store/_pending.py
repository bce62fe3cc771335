"""An append waiting for the next group commit (both stores batch concurrent appends)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

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
