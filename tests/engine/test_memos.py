"""The engine's remembered answers never outlive what they depend on: memoised legal bids and
kontras follow each table's rules, and `apply`'s check reuses a legal list only for the very
state it was computed for."""

from __future__ import annotations

import random

import pytest

from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.options import OptionValue
from tarok_service.variants.double_tarok.rules import DoubleTarok
from tarok_service.variants.slovenian.rules import SLOVENIAN, Slovenian, SlovenianState

TABLES: list[tuple[int, dict[str, OptionValue]]] = [
    (4, {}),
    (4, {"max_kontra": 0}),
    (4, {"kontra_trula_kings": False, "max_kontra": 1}),
    (3, {"colour_valat_3p": False}),
    (3, {}),
]


def hands(seed: int) -> list[list[SlovenianState]]:
    """One random hand per table (the states before each move), played with SLOVENIAN."""
    rng = random.Random(seed)
    out = []
    for players, options in TABLES:
        rules = SLOVENIAN.make_rules(players, options)
        order = list(SLOVENIAN.deck(rules).cards)
        rng.shuffle(order)
        state = SLOVENIAN.deal(rules, order, rng.randrange(players))
        states = []
        while not state.finished:
            states.append(state)
            legal = SLOVENIAN.legal_moves(state)
            passes = [mv for mv in legal if mv.kind == "pass"]
            move = passes[0] if passes and rng.random() < 0.5 else rng.choice(legal)
            state = SLOVENIAN.apply(state, move)
        out.append(states)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_memoised_legal_moves_follow_each_tables_rules(seed: int) -> None:
    """Positions of tables with different options, asked in turns of the shared variant
    object (whose memos are warm with every table), agree with a variant object that has
    never been asked anything."""
    played = hands(seed)
    for step in range(max(len(states) for states in played)):
        for states in played:
            if step < len(states):
                state = states[step]
                assert SLOVENIAN.legal_moves(state) == Slovenian().legal_moves(state)


def test_equal_table_rules_are_one_object() -> None:
    """`make_rules` gives equal rules as one object (the rule sets' memos are kept by the
    identity of the rules: every table of the same options shares them), and other options
    or player counts as other, unequal rules; a flag given as text is the same flag."""
    made = [SLOVENIAN.make_rules(players, options) for players, options in TABLES]
    again = [SLOVENIAN.make_rules(players, dict(options)) for players, options in TABLES]
    assert all(a is b for a, b in zip(made, again, strict=True))
    assert len({id(rules) for rules in made}) == len({*made}) == len(TABLES)
    flag = SLOVENIAN.make_rules(3, {"colour_valat_3p": "false"})
    assert flag is made[3] and flag.options == made[3].options
    assert DoubleTarok().make_rules(4) is not SLOVENIAN.make_rules(4)


def test_memos_are_per_variant_object() -> None:
    """Double tarok shares the Slovenian code but not its memos: its own forehand-only bids."""
    double = DoubleTarok()
    for players in (4,):
        rules_s = SLOVENIAN.make_rules(players)
        rules_d = double.make_rules(players, {"six_forehand_only": False})
        order_s = list(SLOVENIAN.deck(rules_s).cards)
        order_d = list(double.deck(rules_d).cards)
        state_s = SLOVENIAN.deal(rules_s, order_s, 0)
        state_d = double.deal(rules_d, order_d, 0)
        assert SLOVENIAN.legal_moves(state_s) == Slovenian().legal_moves(state_s)
        assert double.legal_moves(state_d) == DoubleTarok().legal_moves(state_d)


def test_apply_checks_a_move_against_its_own_state() -> None:
    """A move legal in the state whose legal moves were listed last is still refused in
    another state where it is not legal."""
    rng = random.Random(3)
    rules = SLOVENIAN.make_rules(4)
    found: tuple[SlovenianState, Move] | None = None
    while found is None:  # random hands until one reaches an announcement
        order = list(SLOVENIAN.deck(rules).cards)
        rng.shuffle(order)
        state = SLOVENIAN.deal(rules, order, 0)
        while not state.finished and state.phase != "announce":
            state = SLOVENIAN.apply(state, rng.choice(SLOVENIAN.legal_moves(state)))
        if not state.finished:
            said = [mv for mv in SLOVENIAN.legal_moves(state) if mv.kind == "announce"]
            found = (state, said[0]) if said else None
    state, announce = found
    other = SLOVENIAN.apply(state, announce)
    assert announce in SLOVENIAN.legal_moves(state)  # remembered: `state`, not `other`
    with pytest.raises(IllegalMove):
        SLOVENIAN.apply(other, announce)  # announced already: not legal again
    assert SLOVENIAN.apply(state, Move("pass")).passes == 1
