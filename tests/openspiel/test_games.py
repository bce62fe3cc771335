"""Every rule set as an OpenSpiel game: loads, simulates and serialises as OpenSpiel tests its
own games, and agrees with the engine move by move on seeded deals."""

from __future__ import annotations

import random

import pyspiel
import pytest
import tarok_openspiel
from tarok_openspiel.game import TarokGame, TarokState

from tarok_service.engine.cards import Card
from tarok_service.engine.state import HandState
from tarok_service.variants.registry import find_variant

CONFIGS = [
    "python_tarok_slovenian",
    "python_tarok_slovenian(players=3)",
    "python_tarok_double",
    "python_tarok_double(players=6)",
    "python_tarok_zwanzigerrufen",
    "python_tarok_taroky",
    "python_tarok_bolognese",
    "python_tarok_french_tarot",
    "python_tarok_french_tarot(players=3)",
    "python_tarok_french_tarot(players=5)",
    "python_tarok_koenigrufen",
]


def load(name: str) -> TarokGame:
    game = pyspiel.load_game(name)
    assert isinstance(game, TarokGame)
    return game


def test_every_rule_set_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert set(tarok_openspiel.GAMES) <= names


@pytest.mark.parametrize("name", CONFIGS)
def test_random_simulation_with_serialisation(name: str) -> None:
    pyspiel.random_sim_test(load(name), num_sims=2, serialize=True, verbose=False)


def deal_into(state: TarokState, order: list[Card], dealer: int) -> None:
    index = {card: i for i, card in enumerate(state.game_.deck.cards)}
    state.apply_action(dealer)
    for card in order:
        state.apply_action(index[card])


@pytest.mark.parametrize("name", CONFIGS)
def test_same_deals_same_legal_moves_and_scores_as_the_engine(name: str) -> None:
    game = load(name)
    variant, rules = game.variant, game.rules
    assert variant is find_variant(variant.id)
    rng = random.Random(name)
    for deal in range(12):
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        dealer = deal % rules.players
        engine: HandState = variant.deal(rules, order, dealer)
        state = game.new_initial_state()
        deal_into(state, order, dealer)
        while not engine.finished:
            legal = sorted(m.id for m in variant.legal_moves(engine))
            actions = state.legal_actions()
            assert sorted(game.space.decode(a).id for a in actions) == legal
            assert state.current_player() == engine.turn
            action = rng.choice(actions)
            engine = variant.apply(engine, game.space.decode(action))
            state.apply_action(action)
        assert state.is_terminal()
        result = variant.result(engine)
        want = [0.0] * rules.players if result is None or result.redeal else result.totals
        assert state.returns() == [float(x) for x in want]


def test_action_strings_use_the_move_labels() -> None:
    game = load("python_tarok_slovenian")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert state.hand is not None
    for action in state.legal_actions():
        move = game.space.decode(action)
        label = state.action_to_string(state.current_player(), action)
        assert label == game.variant.label(state.hand, move)


def test_actions_are_fixed_numbers() -> None:
    game = load("python_tarok_slovenian")
    space = game.space
    for action in range(0, space.size, 7):
        assert space.encode(space.decode(action)) == action
    with pytest.raises(ValueError):
        space.decode(space.size)
    assert game.num_distinct_actions() == space.size
