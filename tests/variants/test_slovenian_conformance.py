"""Random-playout conformance and property tests for Slovenian tarok."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarok_service.engine.moves import Move
from tarok_service.selfplay import card_census, choose, run
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState

from ..engine.knowledge import Knowledge, check_move_made, check_viewer


@pytest.mark.slow
@pytest.mark.parametrize(("players", "games"), [(4, 2000), (3, 1200)])
def test_random_playouts_keep_every_invariant_and_reach_every_contract(
    players: int, games: int
) -> None:
    tally = run(SLOVENIAN, players, games, seed=players, pass_rate=0.6)
    assert tally.failures == []
    rules = SLOVENIAN.make_rules(players)
    expected = {SLOVENIAN.contract_table[i].id for i in SLOVENIAN.open_contracts(rules)}
    assert expected <= set(tally.contracts)
    assert tally.games == games


def playout(seed: int, players: int) -> list[tuple[SlovenianState, Move, SlovenianState]]:
    rng = random.Random(seed)
    rules = SLOVENIAN.make_rules(players)
    order = list(SLOVENIAN.deck(rules).cards)
    rng.shuffle(order)
    state = SLOVENIAN.deal(rules, order, rng.randrange(players))
    steps = []
    while not state.finished:
        moves = SLOVENIAN.legal_moves(state)
        assert moves, f"no legal move in phase {state.phase}"
        move = choose(moves, rng, 0.6)
        after = SLOVENIAN.apply(state, move)
        steps.append((state, move, after))
        state = after
    return steps


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_properties_cards_conserved_moves_available_views_leak_nothing(
    seed: int, players: int
) -> None:
    steps = playout(seed, players)
    full = Counter(SLOVENIAN.deck(SLOVENIAN.make_rules(players)).cards)
    if not steps:
        return  # thrown in at once
    knowledge = Knowledge.dealt(SLOVENIAN, steps[0][0])
    viewers: list[int | None] = [*range(players), None]
    for before, move, after in steps:
        assert card_census(after) == full
        knowledge.observe(before, move, after)
        check_move_made(knowledge, SLOVENIAN, before, move, viewers)
        for seat in viewers:  # cards and every string shown agree with the model
            check_viewer(knowledge, SLOVENIAN, after, seat)
            view = SLOVENIAN.view(after, seat)
            assert (view.legal != ()) == (seat is not None and seat == after.turn)
        assert SLOVENIAN.view(after, None).hand == ()
    assert steps[-1][2].finished and SLOVENIAN.result(steps[-1][2]) is not None


def test_replay_without_checks_reaches_the_same_state() -> None:
    steps = playout(12345, 4)
    state = steps[0][0]
    for _, move, _ in steps:
        state = SLOVENIAN.apply(state, move, check=False)
    assert state == steps[-1][2]
