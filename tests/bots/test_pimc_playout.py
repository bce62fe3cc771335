"""PIMC's heuristic playout on the engine's in-place trick loop plays the same hand as the
pure loop through the API (`playable` + `apply`) did, for every rule set with a sampler, from
sampled states the bot would play out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from tarok_service.bots.pimc import playout
from tarok_service.bots.play import choose_card
from tarok_service.bots.situation import Situation, friends_in_team, situation_from_view
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.trickplay import TrickPlay, play_moves
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import all_rule_sets, find_rule_set, find_variant

CONFIGS = sorted(
    (rs.id, n) for rs in all_rule_sets() if rs.sampler for n in rs.variant.player_counts
)


def pure_playout(
    variant: Variant[Any], state: HandState, team: Sequence[int], base: Situation
) -> HandState:
    """The reference: every card through `playable` and `apply`, the situation rebuilt from
    the state at every decision."""
    assert isinstance(variant, TrickPlay)
    moves = play_moves(variant.deck(state.rules))
    friends = [friends_in_team(s, base.players, team) for s in range(base.players)]
    while not state.finished:
        if state.phase != TRICKS or state.turn is None:
            state = variant.apply(state, variant.legal_moves(state)[0], check=False)
            continue
        seat = state.turn
        legal = variant.playable(state, seat)
        card = legal[0]
        if len(legal) > 1:
            gone = frozenset(c for tr in state.tricks for c in tr.cards)
            out = {c for pile in state.piles for c in pile} | set(state.talon)
            hand, trick = state.hands[seat], state.trick
            unseen = frozenset(base.deck) - gone - out - set(hand) - {c for _, c in trick}
            sit = Situation(
                seat, base.players, hand, tuple(legal), trick, gone, unseen, friends[seat],
                base.negative, base.points, base.deck, base.rules,
            )  # fmt: skip
            card = choose_card(sit)
        state = variant.apply(state, moves[card])
    return state


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_pimc_playout_equals_the_pure_loop(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    sampler = find_rule_set(variant_id).sampler
    assert sampler is not None
    rng = random.Random(f"pimc/{variant_id}/{players}")
    rules = variant.make_rules(players)
    compared = 0
    while compared < 25:
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, rng.randrange(players))
        stop = rng.randrange(1, 3 * players)
        while not state.finished and stop:
            state = variant.apply(state, rng.choice(variant.legal_moves(state)))
            stop -= state.phase == TRICKS
        if state.finished or state.phase != TRICKS or state.turn is None:
            continue
        view = variant.view(state, state.turn)
        sampled = sampler.sample(view, rules, rng)
        if sampled is None:
            continue
        base = situation_from_view(view, variant.deck(rules))
        team = sampler.team(sampled)
        for move in view.legal[:3]:
            after = variant.apply(sampled, move, check=False)
            assert playout(variant, after, team, base) == pure_playout(variant, after, team, base)
        compared += 1
