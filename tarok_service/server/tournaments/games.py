"""The tables of a tournament: created with preset deals and every seat taken in one append,
built-in bots' turns played in-process (many moves per append, no network round trip), and
expired deadlines claimed with a TimedOut event and the seat's default move.

Every change is an append at the table's version: when another replica got there first the
append fails and the caller decides again on the newer state, so replicas may all drive.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...bots import Bot
from ...engine.moves import IllegalMove
from ...store import VersionConflict
from ...tournament import Game, deal_orders
from ...variants.registry import find_variant
from .. import commands, events
from ..commands import Batch, Shuffler
from ..context import Context
from ..table import PLAYING, TableState, fold
from .log import TournamentState

MAX_RUN = 2000  # moves of built-in bots appended at once
Clock = Callable[[], float]


def table_id_of(tournament_id: str, game: int) -> str:
    """The table of a game: derived, so that a table is created once whoever creates it."""
    return f"{tournament_id}.{game}"


def creation_batch(state: TournamentState, game: Game, now: float, shuffle: Shuffler) -> Batch:
    """TableCreated (preset deals of the game's deal), every PlayerSeated, the first deal."""
    spec = state.spec
    variant = find_variant(spec.variant)
    deck = variant.deck(variant.make_rules(spec.players, dict(spec.options)))
    presets = deal_orders([deck.codes[c] for c in deck.cards], state.seed, game.deal)
    created = commands.table_created(variant, spec.players, dict(spec.options), 1, presets)
    created.time_per_move.CopyFrom(spec.time_per_move)
    created.tournament_id = state.tournament_id
    table_id = table_id_of(state.tournament_id, game.index)
    batch = Batch(fold(None, table_id, 1, created), [created])
    for seat, entrant in enumerate(game.seating):
        batch.add(ev.PlayerSeated(seat=seat, name=state.names[entrant]))
    commands.deal_next(batch, shuffle)
    commands.stamp_deadline(batch, now)
    return batch


async def create_table(ctx: Context, state: TournamentState, game: Game) -> TableState:
    """Create the game's table (or load it, when another replica created it first)."""
    now = ctx.clock()
    batch = creation_batch(state, game, now, ctx.shuffle)
    table_id = batch.table.table_id
    try:
        await ctx.store.append(table_id, 0, events.encode(batch.payloads), now)
    except VersionConflict:
        return await ctx.cache.load(table_id)
    await ctx.cache.appended(0, batch.table)
    ctx.metrics.table_created(state.spec.variant)
    ctx.metrics.appended(state.spec.variant, batch.payloads)
    return batch.table


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
    try:
        await ctx.store.append(
            table.table_id, table.version, events.encode(batch.payloads), ctx.clock()
        )
    except VersionConflict:
        return None
    await ctx.cache.appended(table.version, batch.table)
    ctx.metrics.appended(table.variant.id, batch.payloads)
    return batch.table


async def game_result(ctx: Context, table: TableState) -> tm.GameResult:
    """A finished table's result: the running totals of its last HandScored (before the
    end-of-match adjustments), the last hand's declarer side, and the timeouts per seat."""
    stored = await ctx.store.read(table.table_id, 0)
    scored = [events.decode(s) for s in stored if events.name_of(s) == events.HAND_SCORED]
    last = scored[-1]
    assert isinstance(last, ev.HandScored)
    result = last.result
    out = tm.GameResult(
        scores=last.totals, team=result.team, timeouts=table.timeouts, contract=result.contract
    )
    if result.HasField("declarer"):
        out.declarer = result.declarer
    if result.HasField("won"):
        out.won = result.won
    return out
