"""Waiting for a PostgreSQL session to block on a lock: how a race test knows that its
second writer has reached the row a rival holds (instead of sleeping and hoping)."""

from __future__ import annotations

import asyncio

import psycopg

_WAITING = (
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


async def until_a_session_waits_on_a_lock(dsn: str, timeout: float = 60.0) -> None:
    """Return once some session of the DSN's database waits on a lock; fail after `timeout` s."""
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as admin:
        async with asyncio.timeout(timeout):
            while True:
                cur = await admin.execute(_WAITING)  # autocommit: a fresh snapshot each time
                row = await cur.fetchone()
                if row is not None and row[0] > 0:
                    return
                await asyncio.sleep(0.02)
