"""The move path reads nothing from the store while the cache is warm, so a move costs the
same on a long table as on a short one; a stale cache is refreshed with newer events only."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.usecases.app import TarokApp
from tarok_service.store import EventStore, NewEvent, StoredEvent, open_store

from .harness import choose, config


class CountingStore:
    """Wraps a store and records every read (table, after)."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner
        self.reads: list[tuple[str, int]] = []

    async def append(
        self, table_id: str, expected: int, events: Sequence[NewEvent], now: float
    ) -> int:
        return await self.inner.append(table_id, expected, events, now)

    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        self.reads.append((table_id, after))
        return await self.inner.read(table_id, after, limit)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def seated(app: TarokApp, players: int = 4) -> list[str]:
    table = await app.create_table(svc.CreateTableRequest(variant="slovenian", players=players))
    join = svc.JoinTableRequest(table_id=table.table_id)
    return [(await app.join_table(join)).token for _ in range(players)]


async def move(app: TarokApp, tokens: list[str], rng: random.Random) -> None:
    public = (await app.get_view(svc.GetTableViewRequest(token=tokens[0]))).view
    seat = public.hand.turn
    mine = (await app.get_view(svc.GetTableViewRequest(token=tokens[seat]))).view
    await app.submit_move(svc.SubmitMoveRequest(token=tokens[seat], move_id=choose(mine, rng)))


def test_moves_do_not_read_and_refreshes_read_only_newer_events() -> None:
    async def body() -> None:
        inner = open_store("sqlite:///:memory:")
        await inner.open()
        store = CountingStore(inner)
        one = TarokApp(store, config())
        two = TarokApp(store, config())
        tokens = await seated(one)
        rng = random.Random(3)
        for _ in range(6):
            await move(one, tokens, rng)
        public = (await one.get_view(svc.GetTableViewRequest(token=tokens[0]))).view
        seat = public.hand.turn
        mine = (await one.get_view(svc.GetTableViewRequest(token=tokens[seat]))).view
        store.reads.clear()
        await one.submit_move(svc.SubmitMoveRequest(token=tokens[seat], move_id=choose(mine, rng)))
        assert store.reads == []  # warm cache: decided and appended without reading
        await move(two, tokens, rng)  # the other replica moves; `one` is now stale
        store.reads.clear()
        await move(one, tokens, rng)
        afters = {after for _, after in store.reads}
        assert afters and min(afters) >= mine.version  # only events newer than the cache
        await inner.close()

    asyncio.run(body())
