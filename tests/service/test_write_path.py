"""The one write path (`usecases/write.py`): decide, append at the expected version, decide
again when another writer was first, CONTENTION after the bound, a repeated request id
answered by its first answer - and no other module of the server appends to the store."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server import errors as e
from tarok_service.server.config import ServerConfig
from tarok_service.server.model import events
from tarok_service.server.model.commands import Batch
from tarok_service.server.model.fold import TableState
from tarok_service.server.usecases.app import TarokApp
from tarok_service.server.usecases.write import (
    Append,
    Decision,
    Done,
    record_once,
    save,
    save_table,
)
from tarok_service.store import NewEvent, open_store

SERVER = Path(__file__).resolve().parents[2] / "tarok_service" / "server"
T = TypeVar("T")


def run(make: Callable[[TarokApp], Awaitable[T]]) -> T:
    async def go() -> T:
        store = open_store("sqlite:///:memory:")
        await store.open()
        cfg = ServerConfig(store_url="memory:", host="127.0.0.1", port=0, secret=b"k")
        try:
            return await make(TarokApp(store, cfg))
        finally:
            await store.close()

    return asyncio.run(go())


async def new_table(app: TarokApp) -> str:
    created = await app.create_table(svc.CreateTableRequest(variant="slovenian", players=4))
    return created.table_id


def sit(table: TableState) -> Batch:
    """A player sits at the first free seat."""
    batch = Batch(table)
    batch.add(ev.PlayerSeated(seat=table.free_seats()[0], name="sitter"))
    return batch


def left(table: TableState, seat: int) -> Batch:
    batch = Batch(table)
    batch.add(ev.PlayerLeft(seat=seat))
    return batch


async def sneak_in(app: TarokApp, table_id: str) -> None:
    """Another writer's join, straight to the store (the cache does not see it)."""
    await app.join_table(svc.JoinTableRequest(table_id=table_id, name="other"))


def test_a_conflict_is_decided_again_on_the_newer_table() -> None:
    async def scenario(app: TarokApp) -> tuple[list[int], int]:
        table_id = await new_table(app)
        await app.join_table(svc.JoinTableRequest(table_id=table_id, seat=0))
        seen: list[int] = []

        async def decide(table: TableState, fresh: bool) -> Batch:
            seen.append(table.version)
            if len(seen) == 1:  # someone else writes between this decision and its append
                await sneak_in(app, table_id)
            return left(table, 0)

        version = await save_table(app.ctx, table_id, decide, lambda b: b.table.version)
        return seen, version

    seen, version = run(scenario)
    assert seen == [2, 3] and version == 4


def test_contention_after_the_bound() -> None:
    async def scenario(app: TarokApp) -> int:
        table_id = await new_table(app)
        calls = 0

        async def decide(table: TableState, fresh: bool) -> Batch:
            nonlocal calls
            calls += 1
            await app.join_table(svc.JoinTableRequest(table_id=table_id))  # always first
            return sit(table)

        with pytest.raises(e.ServiceError) as caught:
            await save_table(app.ctx, table_id, decide, lambda b: b, retries=3)
        assert (caught.value.kind, caught.value.reason) == (e.ABORTED, e.CONTENTION)
        return calls

    assert run(scenario) == 3


def test_an_error_decided_on_a_cached_table_is_decided_again_on_a_fresh_one() -> None:
    async def scenario(app: TarokApp) -> list[bool]:
        table_id = await new_table(app)
        stale = await app.ctx.cache.load(table_id)
        await app.join_table(svc.JoinTableRequest(table_id=table_id, seat=0))
        fresh_flags: list[bool] = []

        async def decide(table: TableState, fresh: bool) -> Batch | Done[int]:
            fresh_flags.append(fresh)
            if table.seats[0] is None:
                raise e.precondition(e.TABLE_NOT_STARTED, "nobody to leave")
            return left(table, 0)

        await save_table(app.ctx, table_id, decide, lambda b: b.table.version, table=stale)
        with pytest.raises(e.ServiceError):  # on a fresh table the error is final
            await save_table(app.ctx, table_id, decide, lambda b: 0)
        return fresh_flags

    assert run(scenario) == [False, True, True]


def test_a_repeated_request_id_gets_the_first_answer() -> None:
    async def scenario(app: TarokApp) -> tuple[int, list[int]]:
        table_id = await new_table(app)
        duplicates: list[int] = []

        async def first(seq: int) -> int:
            duplicates.append(seq)
            return -seq

        async def decide(table: TableState, fresh: bool) -> Batch:
            return sit(table)

        def version(batch: Batch) -> int:
            return batch.table.version

        one = await save_table(
            app.ctx, table_id, decide, version, request_id="r1", on_duplicate=first
        )
        again = await save_table(
            app.ctx, table_id, decide, version, request_id="r1", on_duplicate=first
        )
        return one, [again, *duplicates]

    one, (again, *dups) = run(scenario)
    assert one == 2 and dups == [2] and again == -2


def test_record_once_appends_an_entry_once() -> None:
    async def scenario(app: TarokApp) -> int:
        event = NewEvent("Listed", b"x", "list:t1")
        for _ in range(3):
            await record_once(app.ctx, "a-list", event, retries=4, busy="busy")
        return len(await app.ctx.store.read("a-list", 0))

    assert run(scenario) == 1


def test_done_writes_nothing() -> None:
    async def scenario(app: TarokApp) -> tuple[str, int]:
        async def decide(attempt: int) -> Decision[str]:
            return Done("as it stands")

        answer = await save(app.ctx, "a-log", decide, retries=2)
        return answer, await app.ctx.store.version("a-log")

    assert run(scenario) == ("as it stands", 0)


def test_append_hands_the_new_version_to_its_answer() -> None:
    async def scenario(app: TarokApp) -> int:
        async def saved(version: int) -> int:
            return version

        async def decide(attempt: int) -> Decision[int]:
            return Append(0, events.encode([ev.PlayerLeft(seat=1)]), saved)

        return await save(app.ctx, "another-log", decide, retries=1)

    assert run(scenario) == 1


def store_appends(path: Path) -> list[int]:
    """Lines of `path` that call `<something>.store.append(...)`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "store"
        ):
            out.append(node.lineno)
    return out


def test_only_the_write_path_appends_to_the_store() -> None:
    found = {
        str(p.relative_to(SERVER)): lines
        for p in sorted(SERVER.rglob("*.py"))
        if (lines := store_appends(p))
    }
    assert list(found) == ["usecases/write.py"], found
