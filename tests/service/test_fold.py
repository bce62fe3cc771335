"""Replaying a log through the fast path (runs of moves at once) equals folding event by event."""

from __future__ import annotations

import asyncio
import random

import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.app import TarokApp
from tarok_service.server.cache import apply_stored
from tarok_service.server.config import ServerConfig
from tarok_service.server.table import fold
from tarok_service.store import StoredEvent, open_store
from tarok_service.variants.registry import all_variants

CASES = [(v.id, n) for v in all_variants() for n in v.player_counts]


async def played_log(variant: str, players: int, seed: int) -> list[StoredEvent]:
    store = open_store("sqlite:///:memory:")
    await store.open()
    app = TarokApp(store, ServerConfig(store_url="memory:", host="127.0.0.1", port=0, secret=b"k"))
    created = await app.create_table(
        svc.CreateTableRequest(variant=variant, players=players, hands=2)
    )
    table_id = created.table_id
    tokens = [
        (await app.join_table(svc.JoinTableRequest(table_id=table_id))).token
        for _ in range(players)
    ]
    rng = random.Random(seed)
    while True:
        table = await app.ctx.cache.load(table_id)
        if table.hand is None or table.hand.turn is None:
            break
        move = rng.choice(table.variant.legal_moves(table.hand))
        request = svc.SubmitMoveRequest(token=tokens[table.hand.turn], move_id=move.id)
        await app.submit_move(request)
    stored = await store.read(table_id)
    await store.close()
    return stored


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_fast_replay_of_a_log_equals_event_by_event_fold(variant: str, players: int) -> None:
    from tarok_service.server import events

    stored = asyncio.run(played_log(variant, players, seed=players))
    table = None
    for item in stored:
        table = fold(table, "t", item.seq, events.decode(item))
    fast = apply_stored(None, "t", stored)
    assert fast == table and fast is not None and fast.status == "finished"
    middle = len(stored) // 2  # from a cached state part-way through, too
    partial = apply_stored(apply_stored(None, "t", stored[:middle]), "t", stored[middle:])
    assert partial == table
