"""Rules are frozen and hashable, and so is every rule set's state: equal states hash equal and
serve as dict keys (transposition tables, memos)."""

from __future__ import annotations

import pickle
import random
from dataclasses import fields
from typing import Any

import pytest

from tarok_service.engine.options import Options, Rules
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.variants import all_variants


def _copy(state: HandState) -> HandState:
    """An equal state that shares no object with `state` at the top level."""
    return type(state)(**{f.name: getattr(state, f.name) for f in fields(state)})


def _play(variant: Variant[Any], players: int, seed: int) -> list[HandState]:
    rules = variant.make_rules(players)
    order = list(variant.deck(rules).cards)
    rng = random.Random(seed)
    rng.shuffle(order)
    states = [variant.deal(rules, order, seed % players)]
    while not states[-1].finished:
        states.append(variant.apply(states[-1], rng.choice(variant.legal_moves(states[-1]))))
    return states


CASES = [(v, n) for v in all_variants() for n in v.player_counts]


@pytest.mark.parametrize(("variant", "players"), CASES, ids=lambda x: getattr(x, "id", str(x)))
def test_states_hash_equal_when_equal_and_serve_as_keys(
    variant: Variant[Any], players: int
) -> None:
    for seed in range(3):
        states = _play(variant, players, seed)
        seen: dict[HandState, int] = {}
        for i, state in enumerate(states):
            twin = _copy(state)
            assert twin == state and twin is not state
            assert hash(twin) == hash(state)
            seen[state] = i
            assert seen[twin] == i
        assert len(seen) == len(states)  # every move changes the state


def test_rules_are_frozen_and_hashable() -> None:
    variant = all_variants()[0]
    players = variant.player_counts[0]
    a, b = variant.make_rules(players), variant.make_rules(players)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert isinstance(a.options, Options)
    name = next(iter(a.options))
    with pytest.raises(TypeError):
        a.options[name] = a.options[name]
    with pytest.raises(TypeError):
        a.options.update({})
    assert pickle.loads(pickle.dumps(a)) == a
    plain = Rules(a.variant, players, dict(a.options))  # a plain mapping is frozen on the way in
    assert plain == a and hash(plain) == hash(a) and isinstance(plain.options, Options)
