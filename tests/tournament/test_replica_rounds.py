"""Replicas that drive one tournament: a worker decides each round on the tournament as it
was when the round began, whatever its replica learns meanwhile, so its append at that
version fails when another replica recorded first (it then decides again on the news)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.engine.fairness import SALT_BYTES
from tarok_service.server.config import ServerConfig
from tarok_service.server.model.fold import FINISHED
from tarok_service.server.tournaments import log, spec
from tarok_service.server.tournaments.games import table_id_of
from tarok_service.server.tournaments.log import TournamentLogs
from tarok_service.server.tournaments.worker import Worker
from tarok_service.server.usecases.context import Context
from tarok_service.store import EventStore, open_store

P = ParamSpec("P")
R = TypeVar("R")
CONFIG = ServerConfig(
    store_url="memory:", host="127.0.0.1", port=0, secret=b"k", tournament_bot_share=1.0
)
TOURNAMENT = "T" + "0" * 16
WAIT = 60.0  # only a safety net: every wait below ends on an event


class Gate(ThreadPoolExecutor):
    """A worker's bot thread that lets its first `passes` calls through and holds the later
    ones until `opened` is set (`held` is set once one is held)."""

    def __init__(self, passes: int) -> None:
        super().__init__(max_workers=1)
        self.passes = passes
        self.held = threading.Event()
        self.opened = threading.Event()

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        if self.passes > 0:
            self.passes -= 1
            return super().submit(fn, *args, **kwargs)

        def held() -> R:
            self.held.set()
            self.opened.wait(WAIT)
            return fn(*args, **kwargs)

        return super().submit(held)


async def _create(store: EventStore, parallel: int) -> int:
    """A tournament of three built-in bots, one deal played three times; its games."""
    entrants = [tm.Entrant(name=f"b{i}", bot="random") for i in range(3)]
    checked = spec.validated(
        tm.TournamentSpec(
            variant="slovenian",
            players=3,
            deals=1,
            duplicate=True,
            parallel_tables=parallel,
            entrants=entrants,
        )
    )
    created = tm.TournamentCreated(spec=checked, seed=8, seed_salt=b"s" * SALT_BYTES)
    await store.append(TOURNAMENT, 0, log.encode([created]), 0.0)
    return len(log.schedule_of(checked))


async def _held(gate: Gate) -> None:
    assert await asyncio.to_thread(gate.held.wait, WAIT)


async def _until_finished(ctx: Context, table_id: str) -> None:
    while (table := await ctx.cache.load(table_id)).status != FINISHED:
        await ctx.store.wait_for_change(table_id, table.version, WAIT)


def test_a_loaded_tournament_stays_at_its_version_when_a_later_load_finds_news() -> None:
    async def run() -> None:
        store = open_store("sqlite:///:memory:")
        await store.open()
        try:
            logs = TournamentLogs(Context(store, CONFIG))
            await _create(store, parallel=2)
            first = await logs.load(TOURNAMENT)
            started = tm.GameStarted(game=0, table_id=table_id_of(TOURNAMENT, 0))
            await store.append(TOURNAMENT, 1, log.encode([started]), 0.0)
            second = await logs.load(TOURNAMENT)
            assert (first.version, first.started) == (1, {})
            assert (second.version, second.started) == (2, {0: started.table_id})
            assert await logs.load(TOURNAMENT) is second  # no news: the same state
        finally:
            await store.close()

    asyncio.run(run())


def test_a_worker_round_never_records_from_news_learnt_during_the_round() -> None:
    """Replica A's round plays table 0 out while its move at table 1 is held; meanwhile
    replica B records games 0 and 1 and starts game 2, and a call on A reads the tournament.
    A must not then record game 0 a second time, nor count it twice and finish the
    tournament while game 2's table has just been dealt."""

    async def run() -> list[log.Body]:
        store = open_store("sqlite:///:memory:")
        await store.open()
        a_ctx, b_ctx = Context(store, CONFIG), Context(store, CONFIG)
        a_logs = TournamentLogs(a_ctx)
        a_gate, b_gate = Gate(passes=1), Gate(passes=1)
        try:
            games = await _create(store, parallel=2)
            assert games == 3
            a = asyncio.ensure_future(Worker(a_ctx, a_logs, TOURNAMENT, pool=a_gate).run())
            await _held(a_gate)  # A: games 0 and 1 started, table 0 played out, 1 held
            await _until_finished(b_ctx, table_id_of(TOURNAMENT, 0))
            b_logs = TournamentLogs(b_ctx)
            b = asyncio.ensure_future(Worker(b_ctx, b_logs, TOURNAMENT, pool=b_gate).run())
            await _held(b_gate)  # B: table 1 played out, games 0, 1 recorded, game 2 held
            assert (await b_logs.load(TOURNAMENT)).started.keys() == {0, 1, 2}
            await a_logs.load(TOURNAMENT)  # a call on replica A reads the news
            a_gate.opened.set()
            await asyncio.wait_for(a, WAIT)
            b_gate.opened.set()
            await asyncio.wait_for(b, WAIT)
            for game in range(games):
                table = await b_ctx.cache.load(table_id_of(TOURNAMENT, game))
                assert table.status == FINISHED
            return [log.decode(s) for s in await store.read(TOURNAMENT, 0)]
        finally:
            a_gate.opened.set()
            b_gate.opened.set()
            a_gate.shutdown()
            b_gate.shutdown()
            await store.close()

    bodies = asyncio.run(run())
    finished = [b.game for b in bodies if isinstance(b, tm.GameFinished)]
    assert sorted(finished) == [0, 1, 2]  # each game recorded once
    assert [type(b) for b in bodies].count(tm.TournamentFinished) == 1
    assert isinstance(bodies[-1], tm.TournamentFinished)  # after every game
