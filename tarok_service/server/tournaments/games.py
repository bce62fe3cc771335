"""The tables of a tournament: created with preset deals and every seat taken in one append,
and each game's result read back from its log. The bots' turns and the claims of expired
deadlines are the server's shared bot-turn code (`server/usecases/botturns.py`).
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...competition import Game, deal_orders
from ...variants.registry import find_variant
from ..model import commands, events
from ..model.commands import Batch, Shuffler
from ..model.fold import TableState, fold
from ..usecases.context import Context
from ..usecases.write import save_once, table_append
from .log import TournamentState


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

    def created(b: Batch) -> TableState:
        ctx.metrics.table_created(state.spec.variant)
        return b.table

    async def lost() -> TableState:
        return await ctx.cache.load(table_id)

    return await save_once(ctx, table_id, table_append(ctx, 0, batch, created), lost)


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
