"""PostgreSQL group commit: concurrent appends share one statement, each keeps its outcome."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

import psycopg
import pytest

from tarok_service.store import (
    DuplicateRequest,
    NewEvent,
    StoreClosed,
    VersionConflict,
)
from tarok_service.store._pending import Pending
from tarok_service.store._pglisten import PgListener, notified
from tarok_service.store._pgwrite import note_chars
from tarok_service.store._wakeup import TableSignals
from tarok_service.store.postgres import PostgresEventStore
from tests.pg_locks import until_a_session_waits_on_a_lock

NOW = 1_700_000_000.5


@pytest.fixture(scope="module")
def dsn(postgres_dsn: str) -> str:
    return postgres_dsn


def table() -> str:
    return f"b-{uuid.uuid4()}"


def ev(n: int, request_id: str | None = None) -> NewEvent:
    return NewEvent(type=f"E{n}", payload=bytes([n]), request_id=request_id)


@asynccontextmanager
async def opened(store: PostgresEventStore) -> AsyncIterator[PostgresEventStore]:
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def count_batches(store: PostgresEventStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the batches `store` writes from now on, in order."""
    sizes: list[int] = []
    writer = store._writer
    assert writer is not None
    write_batch = writer._write_batch

    def counted(batch: list[Pending]) -> None:
        sizes.append(len(batch))
        write_batch(batch)

    monkeypatch.setattr(writer, "_write_batch", counted)
    return sizes


def test_a_batch_of_mixed_appends_gets_each_outcome(
    dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(dsn)) as s:
            tables = [table() for _ in range(12)]
            for t in tables[8:]:  # these tables already hold one event (request id "seen")
                await s.append(t, 0, [ev(1, "seen")], NOW)
            sizes = count_batches(s, monkeypatch)
            calls = [s.append(t, 0, [ev(1, f"r-{t}"), ev(2)], NOW) for t in tables[:8]]
            calls += [s.append(tables[8], 0, [ev(9)], NOW)]  # stale version
            calls += [s.append(tables[9], 1, [ev(9, "seen")], NOW)]  # repeated request id
            calls += [s.append(t, 1, [ev(2)], NOW) for t in tables[10:]]
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
            assert outcomes[:8] == [2] * 8
            assert isinstance(outcomes[8], VersionConflict) and outcomes[8].actual == 1
            assert isinstance(outcomes[9], DuplicateRequest) and outcomes[9].seq == 1
            assert outcomes[10:] == [2, 2]
            assert sizes == [12]  # all in one statement
            for t in tables[:8]:
                stored = await s.read(t)
                assert [(e.seq, e.type, e.request_id) for e in stored] == [
                    (1, "E1", f"r-{t}"),
                    (2, "E2", None),
                ]
            assert [e.type for e in await s.read(tables[8])] == ["E1"]
            assert [e.type for e in await s.read(tables[9])] == ["E1"]

    asyncio.run(body())


def test_concurrent_appends_to_one_table_let_exactly_one_in(dsn: str) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(dsn)) as s:
            t = table()
            outcomes = await asyncio.gather(
                *(s.append(t, 0, [ev(n)], NOW) for n in range(6)), return_exceptions=True
            )
            assert outcomes.count(1) == 1
            assert all(isinstance(x, VersionConflict) for x in outcomes if x != 1)
            assert len(await s.read(t)) == 1

    asyncio.run(body())


def test_another_replica_is_woken_for_every_table_of_a_batch(dsn: str) -> None:
    async def body() -> None:
        watcher = PostgresEventStore(dsn, recheck_interval=3600.0)  # only NOTIFY can wake it
        async with opened(PostgresEventStore(dsn)) as writer, opened(watcher):
            tables = [table() for _ in range(10)]
            waits = [asyncio.create_task(watcher.wait_for_change(t, 0, timeout=60)) for t in tables]
            async with asyncio.timeout(60):  # the waiters have read version 0 and subscribed
                while not all(watcher._signals._waiters.get(t) for t in tables):
                    await asyncio.sleep(0.01)
            versions = await asyncio.gather(
                *(writer.append(t, 0, [ev(1), ev(2), ev(3)], NOW) for t in tables)
            )
            assert versions == [3] * 10
            assert await asyncio.wait_for(asyncio.gather(*waits), 60) == [3] * 10

    asyncio.run(body())


def test_a_batch_that_loses_an_insert_race_retries_each_append(dsn: str) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(dsn)) as s:
            contested, free = table(), [table(), table()]
            rival = await psycopg.AsyncConnection.connect(dsn)
            try:
                await rival.execute(
                    "INSERT INTO events VALUES (%s, 1, 'Rival', %s, NULL, %s)",
                    (contested, b"", NOW),
                )
                batch = asyncio.gather(
                    *(s.append(t, 0, [ev(1)], NOW) for t in [contested, *free]),
                    return_exceptions=True,
                )
                await until_a_session_waits_on_a_lock(dsn)  # the batch, on the rival's row
                assert not batch.done()
                await rival.commit()
            finally:
                await rival.close()
            outcomes = await asyncio.wait_for(batch, 60)
            assert isinstance(outcomes[0], VersionConflict) and outcomes[0].actual == 1
            assert outcomes[1:] == [1, 1]
            assert [e.type for e in await s.read(contested)] == ["Rival"]

    asyncio.run(body())


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("t-1:7", [("t-1", 7)]),
        ('[["a", 3], ["b:c", 12]]', [("a", 3), ("b:c", 12)]),
        ("weird", [("", None)]),
        ("[[broken", [("", None)]),
    ],
)
def test_notification_payloads(payload: str, expected: list[tuple[str, int | None]]) -> None:
    assert notified(payload) == expected


def test_the_writer_keeps_one_connection_and_replaces_it_when_it_is_lost(dsn: str) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(dsn)) as s:
            t = table()
            pids = set()
            writer = s._writer
            assert writer is not None
            for n in range(1, 6):
                await s.append(t, n - 1, [ev(n, f"r{n}")], NOW)
                assert writer.conn is not None
                pids.add(writer.conn.info.backend_pid)
            assert len(pids) == 1  # one connection for every append, no pool hop
            with psycopg.connect(dsn, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pids.pop(),))
            # The connection dies under the statement: the writer reads the append back on a
            # fresh connection, finds it missing and writes it again.
            assert await s.append(t, 5, [ev(6, "r6")], NOW) == 6
            assert [e.request_id for e in await s.read(t)] == [f"r{n}" for n in range(1, 7)]
            with pytest.raises(DuplicateRequest):  # a failed statement keeps the connection
                await s.append(t, 6, [ev(7, "r6")], NOW)
            kept = writer.conn
            with pytest.raises(VersionConflict):
                await s.append(t, 3, [ev(7)], NOW)
            assert writer.conn is kept and await s.append(t, 6, [ev(7)], NOW) == 7

    asyncio.run(body())


def test_a_batch_stores_every_byte_and_character_exactly(
    dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        async with opened(PostgresEventStore(dsn)) as s:
            sizes = count_batches(s, monkeypatch)
            odd = ['q"uote', "back\\slash", "tab\tnew\nline", "čšž", "🂡 card", "{[]}:,"]
            tables = [f"{table()}-{text}" for text in odd]
            nows = [NOW + i / 7 for i in range(len(odd))]
            calls = [
                s.append(
                    t,
                    0,
                    [NewEvent(text, bytes(range(256)), f"r-{text}"), NewEvent("x", b"")],
                    now,
                )
                for t, text, now in zip(tables, odd, nows, strict=True)
            ]
            assert await asyncio.gather(*calls) == [2] * len(odd)
            assert max(sizes) > 1  # they went in together
            for t, text, now in zip(tables, odd, nows, strict=True):
                first, second = await s.read(t)
                assert (first.type, first.payload, first.request_id) == (
                    text,
                    bytes(range(256)),
                    f"r-{text}",
                )
                assert (second.type, second.payload, second.request_id) == ("x", b"", None)
                assert first.created_at == second.created_at == now
                assert first.table_id == t

    asyncio.run(body())


@pytest.mark.parametrize("text", ["t-1", 'q"uote', "back\\slash", "tab\tnew\nline", "čšž", "🂡", ""])
@pytest.mark.parametrize("seq", [0, 7, 12345678901234])
def test_note_chars_is_the_length_of_the_json_text(text: str, seq: int) -> None:
    assert note_chars(text, seq) == len(json.dumps([text, seq]))


class FakeLoop:
    """Records what a thread hands to the event loop."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, tuple[Any, ...]]] = []

    def call_soon_threadsafe(self, fn: Any, *args: Any) -> None:
        self.calls.append((fn, args))


def test_the_listener_wakes_the_loop_only_for_tables_someone_waits_for() -> None:
    signals = TableSignals()
    loop = FakeLoop()
    listener = PgListener("", 2, signals, cast(asyncio.AbstractEventLoop, loop))
    listener._on_notify("a:3")
    listener._on_notify("weird")  # unreadable: would wake everyone, but nobody waits
    assert loop.calls == []
    with signals.subscribe("a") as waiter:
        listener._on_notify("b:4")
        listener._on_notify('[["b", 5], ["c", 6]]')
        assert loop.calls == []  # nobody waits for b or c
        listener._on_notify('[["b", 7], ["a", 8]]')
        listener._on_notify("a:9")
        listener._on_notify("weird")
        assert [args for _, args in loop.calls] == [
            ([("a", 8)],),
            ([("a", 9)],),
            ([("", None)],),
        ]
        for fn, args in loop.calls:  # what the loop then runs
            fn(*args)
        assert waiter.event.is_set() and waiter.seen == 9


def test_close_finishes_queued_appends_and_stops_both_threads(dsn: str) -> None:
    async def body() -> None:
        s = PostgresEventStore(dsn)
        await s.open()
        writer, listener = s._writer, s._listener
        assert writer is not None and listener is not None
        threads = [writer._thread, listener._thread]
        tables = [table() for _ in range(20)]
        calls = [asyncio.create_task(s.append(t, 0, [ev(1)], NOW)) for t in tables]
        await asyncio.sleep(0)  # every append is queued
        await s.close()
        assert await asyncio.gather(*calls) == [1] * 20
        assert not any(thread.is_alive() for thread in threads)
        assert listener.conn is None and writer.conn is None
        with pytest.raises(StoreClosed):
            await s.append(tables[0], 1, [ev(2)], NOW)
        async with opened(PostgresEventStore(dsn)) as again:  # all of them were committed
            assert [await again.version(t) for t in tables] == [1] * 20

    asyncio.run(body())
