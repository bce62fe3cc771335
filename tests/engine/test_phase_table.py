"""The declared phase table: checked when a rule set registers (a broken table fails at import,
with a clear error), dispatched by phase, and a phase without a rule is an engine bug (never a
rule reason)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import EngineBug, IllegalMove, Move
from tarok_service.engine.phases import RuleSetError
from tarok_service.variants import all_variants, registry
from tests.engine.toy_rules import (
    DECK,
    Kind,
    MissingPhase,
    NoApply,
    Phase,
    RuleForScored,
    Toy,
    ToyState,
    Undeclared,
)


def _deal(toy: Toy, seed: int = 1) -> ToyState:
    order = list(DECK.cards)
    random.Random(seed).shuffle(order)
    return toy.deal(toy.make_rules(2), order, 0)


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        (NoApply, "phase 'bid' has no apply handler"),
        (MissingPhase, "phase 'tricks' has no PhaseRule"),
        (Undeclared, "names 'auction', not one of"),
        (RuleForScored, "phase 'scored' ends the hand"),
    ],
)
def test_a_broken_phase_table_fails_registration(broken: type[Toy], words: str) -> None:
    before = dict(registry._REGISTRY)
    with pytest.raises(RuleSetError, match=words) as err:
        registry.register(broken())
    assert broken.id in str(err.value)
    assert before == registry._REGISTRY  # nothing registered


def test_a_broken_rule_set_module_fails_at_import(tmp_path: Path) -> None:
    """Registration runs at import, so importing a module that registers a broken rule set
    raises (the rule set never reaches the registry)."""
    source = (
        "from tarok_service.variants.registry import register\n"
        "from tests.engine.toy_rules import NoApply\n"
        "BROKEN = register(NoApply())\n"
    )
    path = tmp_path / "broken_rule_set.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("broken_rule_set", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(RuleSetError, match="no apply handler"):
        spec.loader.exec_module(module)
    assert "broken_rule_set" not in sys.modules
    assert "toy_no_apply" not in {v.id for v in all_variants()}


def test_every_registered_rule_set_has_a_checked_table() -> None:
    for variant in all_variants():
        table = variant.checked_table()
        assert table, variant.id
        if variant.phases is not None:
            assert set(table) == {str(p) for p in variant.phases} - {"scored", "redeal"}


def test_the_toy_plays_to_the_end_through_its_table() -> None:
    toy = Toy()
    state = _deal(toy)
    assert state.phase == Phase.BID and toy.legal_moves(state) == [Move("bid"), Move("pass")]
    assert toy.phase_rule(Phase.BID).legal(state) == toy.legal_moves(state)
    rng = random.Random(2)
    while not state.finished:
        state = toy.apply(state, rng.choice(toy.legal_moves(state)))
    assert state.phase == Phase.SCORED and len(state.tricks) == 10
    result = toy.result(state)
    assert result is not None and sum(result.scores) == 10


def test_explain_comes_from_the_table() -> None:
    toy = Toy()
    state = _deal(toy)
    with pytest.raises(IllegalMove) as err:
        toy.apply(state, Move("play", "T21"))
    assert err.value.reason == m.Reason.BID_NOT_ALLOWED
    assert str(Kind.BID) == "bid" and Move(Kind.BID).id == "bid"  # kinds are strings on the wire


def test_a_phase_without_a_rule_is_an_engine_bug_not_a_rule_reason() -> None:
    toy = Toy()
    impossible = evolve(_deal(toy), phase="auction")
    for call in (
        lambda: toy.phase_rule(impossible.phase),
        lambda: toy.legal_moves(impossible),
        lambda: toy.apply(impossible, Move("bid")),
        lambda: toy.is_legal(impossible, Move("bid")),
        lambda: toy.replay(impossible, [Move("bid")]),
    ):
        with pytest.raises(EngineBug, match="no phase rule for phase 'auction'"):
            call()
    assert not issubclass(EngineBug, IllegalMove) and not issubclass(EngineBug, ValueError)


def test_a_talon_group_that_cannot_exist_is_an_engine_bug() -> None:
    toy = Toy()
    with pytest.raises(EngineBug, match="no talon group 0 of 0"):
        toy.talon_group(_deal(toy), 0)


def test_default_move_is_a_declared_hook() -> None:
    toy = Toy()
    state = _deal(toy)
    assert toy.default_move(state) == Move("bid")
    while not state.finished:
        state = toy.apply(state, toy.legal_moves(state)[-1])
    assert toy.default_move(state) is None
