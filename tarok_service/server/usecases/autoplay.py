"""Free tables the server plays at: built-in bots' seats and the clock.

A table created with bots or a time per move is recorded in the `DRIVEN` log. Every replica
runs a `Driver` that follows that log and keeps one task per unfinished table. The task
plays the bots' turns with the very code tournament tables use (`botturns.play_run`),
and when the seat to move lets its deadline pass it records TimedOut and the default move
(`commands.time_out`), or hands the seat to a heuristic bot when the table says so. Nothing
is held in memory that matters: every decision is an append at the table's version, so
when another replica (or the player) got there first the append fails and the task
decides again on the newer state.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import structlog
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...bots import Bot, make_bot
from ...store import NewEvent
from .. import errors as e
from ..model import commands
from ..model.commands import Batch
from ..model.events import timestamp
from ..model.fold import FINISHED, PLAYING, TableState
from . import botturns
from .botseats import TAKEOVER_BOT
from .context import Context
from .write import record_once

DRIVEN = "driven-tables"
DRIVEN_TYPE = "TableDriven"
POLL_SECONDS = 2.0
APPEND_RETRIES = 32
log = structlog.get_logger("tarok.tables")


async def record_driven(ctx: Context, table_id: str, variant: str, players: int) -> None:
    """Put a table in the driven log (once, however often it is retried)."""
    entry = ev.TableListed(table_id=table_id, variant=variant, players=players)
    event = NewEvent(DRIVEN_TYPE, entry.SerializeToString(), f"drive:{table_id}")
    await record_once(
        ctx, DRIVEN, event, retries=APPEND_RETRIES, busy="the server is too busy: try again"
    )


def needs_driving(created: ev.TableCreated, bots: int) -> bool:
    return bots > 0 or created.time_per_move.ToNanoseconds() > 0


def step(table: TableState, brains: dict[int, Bot], now: float, ctx: Context) -> Batch | None:
    """What the server does at `table` now: bots' moves, a timeout, or nothing."""
    hand = table.hand
    if table.status != PLAYING or hand is None or hand.turn is None:
        return None
    seat = hand.turn
    if table.bots[seat]:
        return botturns.play_run(table, brains, set(), ctx.clock, ctx.shuffle)
    if not botturns.expired(table, now):
        return None
    if not table.bot_on_timeout:
        return commands.time_out(table, now, ctx.shuffle)
    missed = timestamp(table.deadline if table.deadline is not None else now)
    batch = Batch(table)
    batch.add(ev.TimedOut(seat=seat, deadline=missed, bot=TAKEOVER_BOT))
    brains[seat] = make_bot(TAKEOVER_BOT)
    rest = botturns.play_run(batch.table, brains, set(), ctx.clock, ctx.shuffle)
    assert rest is not None
    return Batch(rest.table, batch.payloads + rest.payloads)


class Driver:
    """This replica's tasks for the driven tables (see the module docstring)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._main: asyncio.Task[None] | None = None
        self._seen = 0
        # Bots think one at a time, off the event loop.
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarok-table-bots")

    def start(self) -> None:
        self._main = asyncio.ensure_future(self._follow())

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        if self._main is not None:
            tasks.append(self._main)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.tasks.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def _follow(self) -> None:
        while not self.ctx.stopping:
            try:
                for item in await self.ctx.store.read(DRIVEN, self._seen):
                    self._seen = item.seq
                    table_id = ev.TableListed.FromString(item.payload).table_id
                    if table_id not in self.tasks:
                        self.tasks[table_id] = asyncio.ensure_future(self._drive(table_id))
                await self.ctx.wait_for_change(DRIVEN, self._seen, POLL_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store may be briefly away: try again
                log.warning("driven tables unavailable", error=repr(exc))
                await asyncio.sleep(POLL_SECONDS)

    async def _drive(self, table_id: str) -> None:
        brains: dict[int, Bot] = {}
        while not self.ctx.stopping:
            try:
                table = await self.ctx.cache.load(table_id)
            except e.ServiceError as err:
                if err.reason != e.TABLE_NOT_FOUND:
                    raise
                table = None  # listed, not (yet) created
            if table is not None and table.status == FINISHED:
                return
            if table is not None and await self._act(table, brains):
                continue
            await self.ctx.wait_for_change(
                table_id, table.version if table else 0, self._wait(table)
            )

    async def _act(self, table: TableState, brains: dict[int, Bot]) -> bool:
        """Play the server's part at the table; True when something was appended."""
        for seat, kind in enumerate(table.bots):
            if not kind:
                brains.pop(seat, None)  # a person took the seat back
            elif seat not in brains:
                brains[seat] = make_bot(kind)
        run = partial(step, table, brains, self.ctx.clock(), self.ctx)
        batch = await asyncio.get_running_loop().run_in_executor(self.pool, run)
        if batch is None:
            return False
        await botturns.append(self.ctx, table, batch)
        return True

    def _wait(self, table: TableState | None) -> float:
        """How long to wait for a change: until the deadline, at most POLL_SECONDS."""
        if table is None or table.deadline is None:
            return POLL_SECONDS
        return min(POLL_SECONDS, max(table.deadline - self.ctx.clock(), 0.0) + 0.01)
