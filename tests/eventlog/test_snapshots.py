"""Snapshots beside the log: derivable from it, checked against it, and a cold load reads the
latest one and the current hand's events only, off the event loop."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Sequence

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.selfplay import choose
from tarok_service.server import errors as e
from tarok_service.server.model import cache as cache_module
from tarok_service.server.model import commands, events
from tarok_service.server.model import snapshots as checkpoint
from tarok_service.server.model.cache import TableCache, apply_stored
from tarok_service.server.model.fold import FINISHED, PLAYING, TableState, fold
from tarok_service.store import NewEvent, SqliteEventStore, StoredEvent
from tarok_service.variants.registry import find_variant


class CountingStore(SqliteEventStore):
    """An in-memory store that counts the events its reads return (all read methods)."""

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.events_read = 0

    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        out = await super().read(table_id, after, limit)
        self.events_read += len(out)
        return out

    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        found, out = await super().read_tail(table_id, at_most)
        self.events_read += len(out)
        return found, out


async def play(
    store: SqliteEventStore, variant_id: str, players: int, hands: int, seed: int, stop: int
) -> TableState:
    """Play a seeded game through the commands, appending each batch and keeping its
    snapshots as the server does; stop after `stop` moves (or at the end)."""
    rng = random.Random(seed)
    variant = find_variant(variant_id)
    cache = TableCache(store, 16)

    def shuffle(table: TableState) -> tuple[list[str], bool]:
        order = [table.deck.codes[c] for c in table.deck.cards]
        rng.shuffle(order)
        return order, False

    table_id = f"{variant_id}-{seed}"
    created = commands.table_created(variant, players, {}, hands, [])
    table = fold(None, table_id, 1, created)
    await store.append(table_id, 0, events.encode([created]), 1.0)
    batches: list[commands.Batch] = []
    for seat in range(players):
        batches.append(commands.seat_player(table, seat, f"p{seat}", shuffle))
        table = batches[-1].table
    moves = 0
    while True:
        for batch in batches:
            before = batch.table.version - len(batch.payloads)
            await store.append(table_id, before, events.encode(batch.payloads), 2.0)
            await cache.appended(before, batch.table)
        batches = []
        if table.status != PLAYING or moves >= stop:
            return table
        hand = table.hand
        assert hand is not None and hand.turn is not None
        move = choose(variant.legal_moves(hand), rng, 0.6)
        after = variant.apply(hand, move, check=True)
        batches.append(commands.make_move(table, hand.turn, move, after, 3.0, shuffle))
        table = batches[-1].table
        moves += 1


def same_table(a: TableState, b: TableState) -> None:
    assert a.version == b.version
    assert a.status == b.status
    assert a.seats == b.seats
    assert a.match.totals == b.match.totals
    assert a.match.radelci == b.match.radelci
    assert (a.match.pot, a.match.played, a.match.dealer) == (
        b.match.pot,
        b.match.played,
        b.match.dealer,
    )
    assert a.match.settled == b.match.settled
    assert a.hand == b.hand
    assert a.deal_number == b.deal_number
    assert a.last_result == b.last_result
    assert a.last_settled == b.last_settled
    assert a.timeouts == b.timeouts
    assert a.hand_done == b.hand_done


def cold_load(store: SqliteEventStore, table_id: str) -> TableState:
    async def body() -> TableState:
        return await TableCache(store, 4).load(table_id)

    return asyncio.run(body())


GAMES = [("slovenian", 4, 10, 5), ("double_tarok", 6, 4, 6), ("taroky", 4, 10, 7)]


@pytest.mark.parametrize(("variant_id", "players", "hands", "seed"), GAMES)
def test_every_snapshot_is_the_log_folded_to_its_hand_scored(
    variant_id: str, players: int, hands: int, seed: int
) -> None:
    async def body() -> None:
        store = SqliteEventStore(":memory:")
        await store.open()
        try:
            table = await play(store, variant_id, players, hands, seed, stop=10**6)
            assert table.status == FINISHED
            stored = await store.read(table.table_id)
            scored = [s.seq for s in stored if events.name_of(s) == events.HAND_SCORED]
            assert len(scored) >= hands
            for seq in scored:
                found = await store.latest_snapshot(table.table_id, seq)
                assert found is not None and found[0] == seq
                folded = apply_stored(None, table.table_id, stored[:seq])
                assert folded is not None
                assert ev.TableSnapshot.FromString(found[1]) == folded.checkpoint
                assert folded.checkpoint == checkpoint.snapshot_of(folded)
        finally:
            await store.close()

    asyncio.run(body())


@pytest.mark.parametrize("stop", [0, 1, 150, 333, 10**6])
def test_a_cold_load_from_a_snapshot_equals_a_full_replay(stop: int) -> None:
    async def body() -> None:
        store = CountingStore()
        await store.open()
        try:
            table = await play(store, "slovenian", 4, 12, 11, stop)
            stored = await store.read(table.table_id)
            full = apply_stored(None, table.table_id, stored)
            assert full is not None
            store.events_read = 0
            cold = await TableCache(store, 4).load(table.table_id)
            same_table(cold, full)
            same_table(cold, table)
            if table.match.played >= 2:  # only the current (or last) hand was read
                assert store.events_read < len(stored) / 3
        finally:
            await store.close()

    asyncio.run(body())


@pytest.mark.parametrize("damage", ["totals", "garbage"])
def test_a_snapshot_that_disagrees_with_the_log_is_not_used(damage: str) -> None:
    async def body() -> None:
        store = SqliteEventStore(":memory:")
        await store.open()
        try:
            table = await play(store, "slovenian", 4, 8, 12, 200)
            found = await store.latest_snapshot(table.table_id)
            assert found is not None
            forged = ev.TableSnapshot.FromString(found[1])
            forged.totals[0] += 1000
            data = forged.SerializeToString() if damage == "totals" else b"\xff\x01garbage"
            await store.save_snapshot(table.table_id, found[0], data)
            cold = await TableCache(store, 4).load(table.table_id)
            same_table(cold, table)
        finally:
            await store.close()

    asyncio.run(body())


def test_a_table_logged_before_snapshots_gets_one_on_its_first_load() -> None:
    async def body() -> None:
        store = SqliteEventStore(":memory:")
        await store.open()
        try:
            table = await play(store, "slovenian", 4, 8, 13, 250)
            copy = "no-snapshots"
            old = [NewEvent(s.type, s.payload) for s in await store.read(table.table_id)]
            await store.append(copy, 0, old, 1.0)
            assert await store.latest_snapshot(copy) is None
            first = await TableCache(store, 4).load(copy)
            found = await store.latest_snapshot(copy)
            assert first.checkpoint is not None and found is not None
            assert found[0] == first.checkpoint.seq
            same_table(await TableCache(store, 4).load(copy), first)
        finally:
            await store.close()

    asyncio.run(body())


def test_cold_loads_replay_on_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[threading.Thread] = []
    original = cache_module.replay

    def spy(
        table: TableState | None, table_id: str, stored: list[StoredEvent]
    ) -> TableState | None:
        threads.append(threading.current_thread())
        return original(table, table_id, stored)

    async def body() -> None:
        store = SqliteEventStore(":memory:")
        await store.open()
        try:
            table = await play(store, "slovenian", 4, 3, 14, 10**6)
            monkeypatch.setattr(cache_module, "replay", spy)
            monkeypatch.setattr(checkpoint, "restore", _on_thread(checkpoint.restore, threads))
            monkeypatch.setattr(cache_module, "INLINE_EVENTS", 0)
            copy = "old-table"
            old = [NewEvent(s.type, s.payload) for s in await store.read(table.table_id)]
            await store.append(copy, 0, old, 1.0)
            full = await TableCache(store, 4).load(copy)  # a full replay
            same_table(await TableCache(store, 4).load(table.table_id), full)  # from a snapshot
        finally:
            await store.close()

    asyncio.run(body())
    assert len(threads) == 2
    assert all(t is not threading.main_thread() for t in threads)


Restore = Callable[[TableState, ev.TableSnapshot], TableState]


def _on_thread(fn: Restore, threads: list[threading.Thread]) -> Restore:
    def wrapped(created: TableState, snapshot: ev.TableSnapshot) -> TableState:
        threads.append(threading.current_thread())
        return fn(created, snapshot)

    return wrapped


@pytest.mark.parametrize(
    "payloads",
    [
        [NewEvent("TournamentListed", tm.TournamentListed(tournament_id="T1").SerializeToString())],
        [NewEvent(events.PLAYER_SEATED, ev.PlayerSeated(seat=0, name="x").SerializeToString())],
        [],
    ],
    ids=["registry", "no-table-created", "empty"],
)
def test_an_id_that_is_no_table_log_is_not_found(payloads: Sequence[NewEvent]) -> None:
    async def body() -> None:
        store = SqliteEventStore(":memory:")
        await store.open()
        try:
            if payloads:
                await store.append("tournaments", 0, payloads, 1.0)
            with pytest.raises(e.ServiceError) as caught:
                await TableCache(store, 4).load("tournaments")
            assert (caught.value.kind, caught.value.reason) == (e.NOT_FOUND, e.TABLE_NOT_FOUND)
        finally:
            await store.close()

    asyncio.run(body())

