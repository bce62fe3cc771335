"""Bot turns on a table: the moves of the seats the server plays (built-in bots, forfeited
entrants) decided in-process from the seats' views, many moves per append, and the append at
the decided-on version. Free tables (`autoplay.py`) and tournament tables use this same code.

Every change is an append at the table's version: when another replica got there first the
append fails and the caller decides again on the newer state, so replicas may all drive.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from ...bots import Bot
from ...engine.moves import IllegalMove
from ..model import commands, events
from ..model.commands import Batch, Shuffler
from ..model.fold import PLAYING, TableState
from .context import Context
from .write import always, save_once, table_append

MAX_RUN = 2000  # moves of built-in bots appended at once
Clock = Callable[[], float]


def play_run(
    table: TableState,
    brains: Mapping[int, Bot],
    forfeited: set[int],
    clock: Clock,
    shuffle: Shuffler,
    pace: Callable[[float], None] = lambda spent: None,
) -> Batch | None:
    """The moves of the seats played by the server (built-in bots, forfeited entrants) from
    here until a remote seat is to move or the table is over; None when there are none.
    `pace(seconds)` is called after each bot decision with the time it took (to pause)."""
    table_now, payloads = table, list[events.Payload]()
    for _ in range(MAX_RUN):
        hand = table_now.hand
        if table_now.status != PLAYING or hand is None or hand.turn is None:
            break
        seat = hand.turn
        if seat in brains:
            began = time.perf_counter()
            step = bot_move(table_now, seat, brains[seat], clock(), shuffle)
            pace(time.perf_counter() - began)
        elif seat in forfeited:
            step = commands.time_out(table_now, clock(), shuffle, forfeited=True)
        else:
            break
        table_now = step.table
        payloads.extend(step.payloads)
    return Batch(table_now, payloads) if payloads else None


def bot_move(table: TableState, seat: int, brain: Bot, now: float, shuffle: Shuffler) -> Batch:
    """A built-in bot's move from its seat's view (a bot that errs plays the default move)."""
    hand = table.hand
    assert hand is not None
    view = table.variant.view(hand, seat)
    try:
        move = brain.choose(view, table.variant, table.rules)
        after = table.variant.apply(hand, move, check=True)
    except (IllegalMove, ValueError):
        move = commands.default_move(table)
        after = table.variant.apply(hand, move, check=True)
    return commands.make_move(table, seat, move, after, now, shuffle)


def expired(table: TableState, now: float) -> bool:
    """Whether the seat to move has let its deadline pass."""
    return table.status == PLAYING and table.deadline is not None and now >= table.deadline


async def append(ctx: Context, table: TableState, batch: Batch) -> TableState | None:
    """Append a batch decided at `table`; None when another writer was first."""

    def after(done: Batch) -> TableState | None:
        return done.table

    append = table_append(ctx, table.version, batch, after)
    return await save_once(ctx, table.table_id, append, always(None))
