"""Tournament tables for every rule set: created with preset deals and every seat taken, and
played to the end by timeouts alone (the default move is always legal), deadlines recorded."""

from __future__ import annotations

import pytest
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.bots import make_bot
from tarok_service.server.model import commands
from tarok_service.server.model.commands import secure_shuffle
from tarok_service.server.model.fold import FINISHED
from tarok_service.server.tournaments.games import creation_batch
from tarok_service.server.tournaments.log import TournamentState, created_state
from tarok_service.server.usecases.botturns import play_run
from tarok_service.variants.registry import all_variants

CASES = [(v.id, n) for v in all_variants() for n in v.player_counts]


def _state(variant: str, players: int, bots: str = "") -> TournamentState:
    spec = tm.TournamentSpec(
        variant=variant, players=players, deals=2, duplicate=True, full_rotation=True
    )
    spec.entrants.extend(tm.Entrant(name=f"e{i}", bot=bots) for i in range(players))
    spec.time_per_move.FromSeconds(5)
    return created_state("T" + "0" * 16, 1, tm.TournamentCreated(spec=spec, seed=3))


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_table_played_by_timeouts_alone_finishes(variant: str, players: int) -> None:
    state = _state(variant, players)
    batch = creation_batch(state, state.games[0], 100.0, secure_shuffle)
    table = batch.table
    assert table.seats == tuple(f"e{i}" for i in range(players)) and table.deadline == 105.0
    assert table.tournament_id == state.tournament_id
    now = 200.0
    while table.status != FINISHED:
        now += 10
        before = table
        table = commands.time_out(table, now, secure_shuffle).table
        assert table.version > before.version
        if table.status != FINISHED:
            assert table.deadline == pytest.approx(now + 5)
    assert sum(table.timeouts) > 0


def test_rotations_of_a_deal_get_the_same_cards() -> None:
    state = _state("slovenian", 4)
    first, second = (creation_batch(state, state.games[i], 0.0, secure_shuffle) for i in (0, 1))
    assert first.table.presets == second.table.presets
    assert first.table.hand == second.table.hand


def test_built_in_bots_play_a_whole_table_in_one_run() -> None:
    state = _state("slovenian", 4, bots="heuristic")
    table = creation_batch(state, state.games[0], 0.0, secure_shuffle).table
    brains = {seat: make_bot("heuristic") for seat in range(4)}
    run = play_run(table, brains, set(), lambda: 1.0, secure_shuffle)
    assert run is not None and run.table.status == FINISHED
