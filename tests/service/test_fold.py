"""Replaying a log through the fast path (runs of moves at once) equals folding event by event."""

from __future__ import annotations

import asyncio
import random

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.config import ServerConfig
from tarok_service.server.model.cache import apply_stored
from tarok_service.server.model.fold import TableState, fold
from tarok_service.server.usecases.app import TarokApp
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
    from tarok_service.server.model import events

    stored = asyncio.run(played_log(variant, players, seed=players))
    table = None
    for item in stored:
        table = fold(table, "t", item.seq, events.decode(item))
    fast = apply_stored(None, "t", stored)
    assert fast == table and fast is not None and fast.status == "finished"
    middle = len(stored) // 2  # from a cached state part-way through, too
    partial = apply_stored(apply_stored(None, "t", stored[:middle]), "t", stored[middle:])
    assert partial == table


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_command_sides_table_equals_the_fold_of_its_events(variant: str, players: int) -> None:
    """`commands` folds some events itself (a move's hand, a HandScored it just derived): the
    table it caches is the one folding its events one by one gives, to the end of a match."""
    from tarok_service.server.model import commands
    from tarok_service.variants.registry import find_variant

    rng = random.Random(players)

    def shuffle(table: TableState) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        rng.shuffle(order)
        return order, False

    rules = find_variant(variant)
    table = fold(None, "t", 1, commands.table_created(rules, players, {}, 2, []))
    replayed: TableState | None = table
    batches = [commands.seat_player(table, 0, "p0", shuffle)]
    for seat in range(1, players):
        batches.append(commands.seat_player(batches[-1].table, seat, f"p{seat}", shuffle))
    scored = 0
    while True:
        for batch in batches:
            for payload in batch.payloads:
                assert replayed is not None
                replayed = fold(replayed, "t", replayed.version + 1, payload)
                scored += isinstance(payload, ev.HandScored)
            assert replayed == batch.table
        table = batches[-1].table
        hand = table.hand
        if table.status != "playing" or hand is None or hand.turn is None:
            break
        move = rng.choice(rules.legal_moves(hand))
        after = rules.apply(hand, move, check=True)
        batches = [commands.make_move(table, hand.turn, move, after, 1.0e9, shuffle)]
    assert scored >= 2 and table.status == "finished"
