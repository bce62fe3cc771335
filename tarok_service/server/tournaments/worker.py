"""Driving tournaments: a supervisor per replica follows the registry of running tournaments
and runs one worker per tournament.

A worker holds nothing that matters in memory: each round it reads the tournament's log and
its tables' logs, then (1) plays the turns of built-in bots and forfeited entrants in-process,
(2) claims expired deadlines, (3) records finished tables, forfeits and newly started tables
in the tournament log (one append at the log's version), (4) creates the started tables, and
(5) when every table is done, finishes the tournament and records the ratings. Every replica
may run the same worker: whoever appends second fails and decides again on the newer state.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import structlog
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...bots import Bot
from ...bots.configured import entrant_bot
from .. import errors as e
from ..model.commands import time_out
from ..model.fold import FINISHED, TableState
from ..usecases import botturns
from ..usecases.context import Context
from ..usecases.write import Append, always, save_once
from . import games, log, ratings
from .log import TournamentLogs, TournamentState
from .spec import DEFAULT_CHECK_IN, DEFAULT_MAX_TIMEOUTS, DEFAULT_PARALLEL

POLL_SECONDS = 1.0  # longest sleep between rounds (changes wake a worker at once)
REGISTRY_POLL = 2.0
MAX_PAUSE = 5.0  # longest pause a worker takes to keep to its share of the server
logger = structlog.get_logger("tarok.tournament")


@dataclass
class Outcome:
    """What one round found at one table."""

    game: int
    table: TableState | None
    acted: bool = False

    @property
    def finished(self) -> bool:
        return self.table is not None and self.table.status == FINISHED


@dataclass
class Worker:
    """Drives one tournament until it has finished."""

    ctx: Context
    logs: TournamentLogs
    tournament_id: str
    report: Callable[[], None] = lambda: None  # called after each round (metrics)
    pool: Executor | None = None  # where built-in bots think (None: the loop's default)
    brains: dict[tuple[int, int], Bot] = field(default_factory=dict)
    in_progress: int = 0

    async def run(self) -> None:
        while not self.ctx.stopping:
            began = time.thread_time()  # this (the event loop's) thread only: not the bots'
            state = await self.logs.load(self.tournament_id)
            if state.finished:
                await ratings.wrap_up(self.ctx, state)
                self.in_progress = 0
                self.report()
                return
            playing = state.in_progress()
            tables = await asyncio.gather(*(self._load(state, g) for g in playing))
            budget = timeouts_left(state, zip(playing, tables, strict=True))
            outcomes = await asyncio.gather(
                *(self._act(state, g, t, budget) for g, t in zip(playing, tables, strict=True))
            )
            self.in_progress = sum(not o.finished for o in outcomes)
            self.report()
            recorded = await self._record(state, outcomes)
            if not recorded and not any(o.acted for o in outcomes):
                await self._wait(state, outcomes)
            else:
                await self._keep_to_share(time.thread_time() - began)

    def _pause(self, busy: float) -> float:
        share = self.ctx.config.tournament_bot_share
        return min(busy * (1 / share - 1), MAX_PAUSE) if 0 < share < 1 else 0.0

    def _pace(self, spent: float) -> None:
        """After a bot decision that took `spent` seconds (in the bots' thread): pause, so that
        built-in bots use at most `tournament_bot_share` of the server and other tables stay
        fast (the pause releases the interpreter lock)."""
        pause = self._pause(spent)
        if pause > 0:
            time.sleep(pause)

    async def _keep_to_share(self, busy: float) -> None:
        """The same for the worker's own rounds on the event loop."""
        pause = self._pause(busy)
        if pause > 0:
            await asyncio.sleep(pause)

    # --- one table ----------------------------------------------------------------------

    async def _load(self, state: TournamentState, game: int) -> TableState:
        """The game's table (created if its GameStarted was recorded but it is missing)."""
        try:
            return await self.ctx.cache.load(state.started[game])
        except e.ServiceError as err:
            if err.reason != e.TABLE_NOT_FOUND:
                raise
            return await games.create_table(self.ctx, state, state.games[game])

    async def _act(
        self, state: TournamentState, game: int, table: TableState, budget: list[int]
    ) -> Outcome:
        """Play the server's seats, or claim an expired deadline; `budget` is the timeouts
        each entrant has left before it forfeits (later ones are played as forfeited)."""
        if table.status == FINISHED:
            self._forget(game)
            return Outcome(game, table)
        brains, forfeited = self._brains(state, game), self._forfeited_seats(state, game)
        turn = table.hand.turn if table.hand is not None else None
        batch = None
        if turn in brains or turn in forfeited:
            run = partial(
                botturns.play_run,
                table,
                brains,
                forfeited,
                self.ctx.clock,
                self.ctx.shuffle,
                self._pace,
            )
            batch = await asyncio.get_running_loop().run_in_executor(self.pool, run)
        elif botturns.expired(table, self.ctx.clock()):
            assert table.hand is not None and table.hand.turn is not None
            entrant = state.games[game].seating[table.hand.turn]
            budget[entrant] -= 1
            gone = budget[entrant] < 0
            batch = time_out(table, self.ctx.clock(), self.ctx.shuffle, forfeited=gone)
        if batch is None:
            return Outcome(game, table)
        after = await botturns.append(self.ctx, table, batch)
        return Outcome(game, after, acted=True)

    def _brains(self, state: TournamentState, game: int) -> dict[int, Bot]:
        out = {}
        for seat, entrant in enumerate(state.games[game].seating):
            bot = state.spec.entrants[entrant].bot
            if not bot:
                continue
            key = (game, seat)
            if key not in self.brains:
                seed = (state.seed * 1_000_003 + game * 101 + seat) & 0x7FFF_FFFF
                options = state.spec.entrants[entrant].bot_options
                self.brains[key] = entrant_bot(bot, options, seed)
            out[seat] = self.brains[key]
        return out

    def _forfeited_seats(self, state: TournamentState, game: int) -> set[int]:
        seating = state.games[game].seating
        return {seat for seat, entrant in enumerate(seating) if entrant in state.forfeited}

    def _forget(self, game: int) -> None:
        for key in [k for k in self.brains if k[0] == game]:
            del self.brains[key]

    # --- the tournament log -------------------------------------------------------------

    async def _record(self, state: TournamentState, outcomes: list[Outcome]) -> bool:
        """Append finished games, forfeits, new games and the end; True when appended."""
        bodies: list[log.Body] = []
        for o in outcomes:
            if o.finished and o.table is not None:
                result = await games.game_result(self.ctx, o.table)
                bodies.append(tm.GameFinished(game=o.game, result=result))
        bodies += forfeits(state, outcomes)
        running = sum(not o.finished for o in outcomes)
        parallel = state.spec.parallel_tables or DEFAULT_PARALLEL
        starting = [] if state.paused else state.unstarted()[: max(parallel - running, 0)]
        if not state.started:  # the clocks start once the remote entrants have checked in
            if check_in_open(state, self.ctx.clock()):
                starting = []
            else:
                bodies += no_shows(state)
        for game in starting:
            table_id = games.table_id_of(state.tournament_id, game)
            bodies.append(tm.GameStarted(game=game, table_id=table_id))
        done = len(state.results) + sum(o.finished for o in outcomes)
        if done == len(state.games):
            bodies.append(tm.TournamentFinished())
        if not bodies:
            return False
        append = Append(state.version, log.encode(bodies), always(True))
        if not await save_once(self.ctx, state.tournament_id, append, always(False)):
            return True  # another replica recorded first: decide again on its news
        state = await self.logs.load(state.tournament_id)
        await asyncio.gather(
            *(games.create_table(self.ctx, state, state.games[g]) for g in starting)
        )
        return True

    async def _wait(self, state: TournamentState, outcomes: list[Outcome]) -> None:
        """Until a table or the tournament log changes, a deadline passes, or POLL_SECONDS."""
        targets = {state.tournament_id: state.version}
        timeout = POLL_SECONDS
        now = self.ctx.clock()
        for o in outcomes:
            if o.table is None:
                continue
            targets[o.table.table_id] = o.table.version
            if o.table.deadline is not None:
                timeout = min(timeout, max(o.table.deadline - now, 0.0) + 0.01)
        await wait_any(self.ctx, targets, timeout)


def timeout_counts(
    state: TournamentState, tables: Iterable[tuple[int, TableState | None]]
) -> list[int]:
    """Deadlines missed per entrant: in finished games and in the given tables."""
    counts = [0] * len(state.spec.entrants)
    for game, result in state.results.items():
        for seat, n in enumerate(result.timeouts):
            counts[state.games[game].seating[seat]] += n
    for game, table in tables:
        if table is not None and game not in state.results:
            for seat, n in enumerate(table.timeouts):
                counts[state.games[game].seating[seat]] += n
    return counts


def timeouts_left(
    state: TournamentState, tables: Iterable[tuple[int, TableState | None]]
) -> list[int]:
    """Per entrant, the timeouts it may still miss before it forfeits."""
    limit = state.spec.max_timeouts or DEFAULT_MAX_TIMEOUTS
    return [limit - n for n in timeout_counts(state, tables)]


def forfeits(state: TournamentState, outcomes: Iterable[Outcome]) -> list[tm.EntrantForfeited]:
    """EntrantForfeited for each remote entrant whose timeouts reached the limit."""
    limit = state.spec.max_timeouts or DEFAULT_MAX_TIMEOUTS
    counts = timeout_counts(state, ((o.game, o.table) for o in outcomes))
    return [
        tm.EntrantForfeited(entrant=i, timeouts=n)
        for i, n in enumerate(counts)
        if n >= limit and i not in state.forfeited and not state.spec.entrants[i].bot
    ]


def not_checked_in(state: TournamentState) -> list[int]:
    """Remote entrants that have neither checked in nor forfeited."""
    return [
        i
        for i, x in enumerate(state.spec.entrants)
        if not x.bot and i not in state.checked_in and i not in state.forfeited
    ]


def check_in_open(state: TournamentState, now: float) -> bool:
    """Whether the first tables still wait for remote entrants to check in."""
    window = state.spec.check_in.ToNanoseconds() / 1e9 or DEFAULT_CHECK_IN
    return bool(not_checked_in(state)) and now < state.created_at + window


def no_shows(state: TournamentState) -> list[tm.EntrantForfeited]:
    """EntrantForfeited for each remote entrant that did not check in in time."""
    return [tm.EntrantForfeited(entrant=i, never_checked_in=True) for i in not_checked_in(state)]


async def wait_any(ctx: Context, targets: dict[str, int], timeout: float) -> bool:
    """Wait until any log in `targets` (id -> known version) moves on, or `timeout` passes;
    True when one did."""
    if not targets:
        await asyncio.sleep(timeout)
        return False
    tasks = [
        asyncio.ensure_future(ctx.wait_for_change(log_id, version, timeout))
        for log_id, version in targets.items()
    ]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    versions = dict(zip(targets, tasks, strict=True))
    return any(
        t in done and not t.cancelled() and t.exception() is None and t.result() > targets[k]
        for k, t in versions.items()
    )


class Supervisor:
    """Follows the registry and keeps one worker per running tournament on this replica."""

    def __init__(self, ctx: Context, logs: TournamentLogs) -> None:
        self.ctx = ctx
        self.logs = logs
        self.workers: dict[str, tuple[Worker, asyncio.Task[None]]] = {}
        self._task: asyncio.Task[None] | None = None
        # Bots think one at a time: Python threads share one core anyway, and a bot with a
        # time budget (pimc) then gets the whole of it.
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarok-bots")

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        tasks = [t for _, t in self.workers.values()]
        if self._task is not None:
            tasks.append(self._task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.workers.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def tables_in_progress(self) -> int:
        return sum(w.in_progress for w, t in self.workers.values() if not t.done())

    def report(self) -> None:
        """Set the `tarok_tournament_tables_in_progress` gauge."""
        self.ctx.metrics.set_tournament_tables_in_progress(self.tables_in_progress())

    async def _run(self) -> None:
        version, known = 0, set[str]()
        while not self.ctx.stopping:
            try:
                version = await log.running(self.ctx, version, known)
            except Exception as exc:  # the store is away: try again shortly
                logger.warning("tournament registry unavailable", error=repr(exc))
                await asyncio.sleep(REGISTRY_POLL)
                continue
            for tournament_id in known:
                self.ensure(tournament_id)
            self.report()
            await self.ctx.wait_for_change(log.REGISTRY, version, REGISTRY_POLL)

    def ensure(self, tournament_id: str) -> None:
        """Start a worker for the tournament unless one is running here."""
        known = self.workers.get(tournament_id)
        if known is not None and not known[1].done():
            return
        worker = Worker(self.ctx, self.logs, tournament_id, self.report, self.pool)
        task = asyncio.ensure_future(self._guarded(worker))
        self.workers[tournament_id] = (worker, task)

    async def _guarded(self, worker: Worker) -> None:
        try:
            await worker.run()
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the supervisor starts a new worker next round
            logger.exception("tournament worker failed", tournament=worker.tournament_id)
            await asyncio.sleep(REGISTRY_POLL)
