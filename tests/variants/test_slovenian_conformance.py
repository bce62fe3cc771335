"""Random-playout conformance and property tests for Slovenian tarok."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarok_service.engine.cards import Card
from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.selfplay import card_census, choose, run
from tarok_service.variants.slovenian import SLOVENIAN, SlovenianState


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


class Knowledge:
    """What each seat has legitimately seen, tracked from the moves alone (not from views)."""

    def __init__(self, state: SlovenianState) -> None:
        self.seen = [set(h) for h in state.hands]

    def observe(self, before: SlovenianState, move: Move, after: SlovenianState) -> None:
        everyone: set[Card] = set()
        deck = SLOVENIAN.deck(before.rules)
        if after.exposed_talon and not before.exposed_talon:
            everyone |= set(after.exposed_talon)
        if move.kind in ("play", "discard"):
            card = deck.card(move.value)
            if move.kind == "play" or card.is_tarok:
                everyone.add(card)
        if after.gifts != before.gifts:
            everyone |= set(after.gifts)
        cid = SLOVENIAN.contract_table[after.contract].id if after.contract >= 0 else ""
        if cid == "open_beggar" and after.tricks and after.declarer is not None:
            everyone |= set(after.hands[after.declarer])
        for seat, seen in enumerate(self.seen):
            seen |= everyone | set(after.hands[seat])


def playout(seed: int, players: int) -> list[tuple[SlovenianState, Move, SlovenianState]]:
    rng = random.Random(seed)
    rules = SLOVENIAN.make_rules(players)
    order = list(SLOVENIAN.deck(rules).cards)
    rng.shuffle(order)
    state: HandState = SLOVENIAN.deal(rules, order, rng.randrange(players))
    steps = []
    while not state.finished:
        moves = SLOVENIAN.legal_moves(state)
        assert moves, f"no legal move in phase {state.phase}"
        move = choose(moves, rng, 0.6)
        after = SLOVENIAN.apply(state, move)
        assert isinstance(state, SlovenianState) and isinstance(after, SlovenianState)
        steps.append((state, move, after))
        state = after
    return steps


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_properties_cards_conserved_moves_available_views_leak_nothing(
    seed: int, players: int
) -> None:
    steps = playout(seed, players)
    full = Counter(SLOVENIAN.deck(SLOVENIAN.make_rules(players)).cards)
    if not steps:
        return  # thrown in at once
    knowledge = Knowledge(steps[0][0])
    for before, move, after in steps:
        assert card_census(after) == full
        knowledge.observe(before, move, after)
        for seat in range(players):
            view = SLOVENIAN.view(after, seat)
            leaked = view.visible_cards() - knowledge.seen[seat]
            assert not leaked, (seat, after.phase, leaked)
            assert (view.legal != ()) == (seat == after.turn)
        spectator = SLOVENIAN.view(after, None)
        assert spectator.hand == ()
        assert spectator.visible_cards() <= set.intersection(*knowledge.seen)
    assert steps[-1][2].finished and SLOVENIAN.result(steps[-1][2]) is not None


def test_replay_without_checks_reaches_the_same_state() -> None:
    steps = playout(12345, 4)
    state: HandState = steps[0][0]
    for _, move, _ in steps:
        state = SLOVENIAN.apply(state, move, check=False)
    assert state == steps[-1][2]
