"""SQLite's two commit paths agree: the same appends (lone and batched, conflicting and
repeated) committed on the event loop (`_flush_on_loop_fastpath`, NORMAL) and by the
worker thread (`_flush`, FULL) get the same outcomes and leave the same log."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tarok_service.store import NewEvent, open_store


def event(n: int, request_id: str | None = None) -> NewEvent:
    return NewEvent("tarok.v1.MoveMade@1", f"e{n}".encode(), request_id)


async def script(url: str, sync: str) -> tuple[list[object], list[tuple[str, int, bytes]]]:
    store = open_store(url, sqlite_sync=sync)
    await store.open()
    outcomes: list[object] = []

    async def append(table: str, at: int, events: list[NewEvent]) -> None:
        try:
            outcomes.append(await store.append(table, at, events, 1.0))
        except Exception as exc:  # the kind of refusal is what must agree
            outcomes.append(type(exc).__name__)

    try:
        await append("a", 0, [event(1, "r1")])
        await append("a", 1, [event(2), event(3)])
        await append("a", 1, [event(4)])  # stale version
        await append("a", 3, [event(5, "r1")])  # repeated request id
        # one loop turn: a batch with a conflict in the middle
        await asyncio.gather(
            append("b", 0, [event(6)]),
            append("b", 0, [event(7)]),
            append("c", 0, [event(8, "r2"), event(9)]),
            append("a", 3, [event(10)]),
        )
        rows = [
            (s.table_id, s.seq, s.payload)
            for table in ("a", "b", "c")
            for s in await store.read(table, 0)
        ]
    finally:
        await store.close()
    return outcomes, rows


def test_loop_commits_and_worker_commits_agree(tmp_path: Path) -> None:
    fast = asyncio.run(script(f"sqlite:///{tmp_path / 'fast.db'}", "normal"))
    plain = asyncio.run(script(f"sqlite:///{tmp_path / 'plain.db'}", "full"))
    assert fast == plain
    outcomes, rows = fast
    assert outcomes[:4] == [1, 3, "VersionConflict", "DuplicateRequest"]
    assert sorted(outcomes[4:], key=str) == [1, 2, 4, "VersionConflict"]
    assert len(rows) == 7
