"""The example rule sets of docs/variants.md register and play through the public API, and the
document shows them as they are in the repository."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.variant import Variant
from tarok_service.selfplay import check_hand, run
from tarok_service.variants import find_variant, registry
from tarok_service.variants import vocabulary as vocab
from tarok_service.variants.slovenian.rules import SLOVENIAN
from tarok_service.variants.vocabulary import vocabulary

from .example_duel import Duel, DuelState, Kind, Phase
from .example_house_tarok import HouseTarok
from .slovenian_helpers import finished, pile_worth, result_of
from .test_slovenian_scoring import KINGS, TRULA, klop_state

ROOT = Path(__file__).resolve().parents[2]


V = TypeVar("V", bound=Variant[Any])


def registered(variant: V) -> Iterator[V]:
    """`variant` registered for one test only (every registered rule set needs a rules page)."""
    before = dict(registry._REGISTRY)
    yield registry.register(variant)
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def registration_from_the_doc() -> str:
    """The duel subpackage's `__init__.py` as docs/variants.md shows it."""
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    after = doc.split("Its registration, the subpackage's `__init__.py`", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.fixture
def duel() -> Iterator[Duel]:
    """The duel registered by the `__init__.py` the document shows (its `.rules` being
    tests/variants/example_duel.py), for one test only."""
    code = registration_from_the_doc().replace("from .rules import", "from .example_duel import")
    namespace: dict[str, Any] = {"__name__": __name__, "__package__": __package__}
    before = dict(registry._REGISTRY)
    exec(compile(code, "docs/variants.md", "exec"), namespace)
    yield namespace["DUEL"]
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def test_the_duel_registers_and_plays_through_the_registry(duel: Duel) -> None:
    variant = find_variant("example_duel")
    assert variant is duel
    rules = variant.make_rules(2)
    order = list(variant.deck(rules).cards)
    random.Random(3).shuffle(order)
    state: DuelState = variant.deal(rules, order, dealer=1)
    assert state.phase == Phase.STAKE and state.turn == 0 and len(state.hands[0]) == 12
    assert [m.id for m in variant.legal_moves(state)] == ["stake:1", "stake:2"]
    with pytest.raises(IllegalMove) as err:
        variant.apply(state, Move(Kind.STAKE, "3"))
    assert err.value.reason == "BID_NOT_ALLOWED"
    state = variant.apply(state, Move(Kind.STAKE, "2"))
    assert state.phase == Phase.TRICKS and state.stake == 2
    while not state.finished:
        legal = variant.legal_moves(state)
        assert all(variant.label(state, move).startswith("Play ") for move in legal)
        state = variant.apply(state, legal[-1])
    result = variant.result(state)
    assert result is not None and sorted(result.scores) == [-20, 20]
    assert check_hand(variant, state, result) == []
    assert variant.view(state, None).result == result


def test_the_duel_survives_random_selfplay(duel: Duel) -> None:
    tally = run(duel, 2, 40, seed=1, pass_rate=0.5)
    assert tally.failures == [] and tally.games == 40


def test_the_document_shows_the_examples_as_they_are() -> None:
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    for name in ("example_duel.py", "example_house_tarok.py"):
        source = (Path(__file__).parent / name).read_text(encoding="utf-8")
        assert source in doc, f"docs/variants.md does not show tests/variants/{name} as it is"


@pytest.fixture
def house() -> Iterator[HouseTarok]:
    yield from registered(HouseTarok())


def test_the_house_variant_is_slovenian_tarok_configured_otherwise(house: HouseTarok) -> None:
    assert find_variant("example_house_tarok") is house
    assert "open_beggar" not in [c.id for c in house.contracts(4)]
    assert ("trula", 20, 40) in [(b.id, b.silent, b.announced) for b in house.bonuses(4)]
    rules = house.make_rules(4)
    order = list(house.deck(rules).cards)
    random.Random(5).shuffle(order)
    state = house.deal(rules, order, dealer=3)
    while Move("pass") in house.legal_moves(state):
        state = house.apply(state, Move("pass"))
    bids = [m.id for m in house.legal_moves(state)]  # forehand, everybody else passed
    assert "bid:klop" in bids and "bid:open_beggar" not in bids
    words, slovenian = vocabulary(house), vocabulary(SLOVENIAN)  # what a frontend translates
    assert words[vocab.MOVE] == slovenian[vocab.MOVE] and words[vocab.WORD] == slovenian[vocab.WORD]
    assert "open_beggar" not in words[vocab.CONTRACT]


def test_the_house_variant_scores_by_its_own_tables(house: HouseTarok) -> None:
    trula_kings = finished("three", [*TRULA, *KINGS, *pile_worth(14, 20, exclude=TRULA + KINGS)])
    lines = {line.item: line.points for line in result_of(trula_kings).lines}
    assert (lines["trula (silent)"], lines["kings (silent)"]) == (10, 10)  # Slovenian tarok
    house_result = house.result(trula_kings)
    assert house_result is not None
    lines = {line.item: line.points for line in house_result.lines}
    assert (lines["trula (silent)"], lines["kings (silent)"]) == (20, 20)
    empty = klop_state([0, 30, 20, 20])
    assert result_of(empty).totals == (70, 0, 0, 0)
    klop = house.result(empty)
    assert klop is not None and klop.totals == (100, 0, 0, 0)


def test_the_house_variant_survives_random_selfplay(house: HouseTarok) -> None:
    tally = run(house, 4, 30, seed=2, pass_rate=0.6)
    assert tally.failures == [] and tally.games == 30
