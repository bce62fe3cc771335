"""Strings and tensors built from a seat's view only: no card the seat has not been shown ever
appears in them (and the check itself catches a leak); resampled worlds look the same to it."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pyspiel
import pytest
import tarok_openspiel.game as game_module
from tarok_openspiel.game import TarokGame, TarokState
from tarok_openspiel.observe import view_string

from tarok_service.engine.cards import Card
from tarok_service.engine.view import View

NAMES = ["python_tarok_slovenian", "python_tarok_double", "python_tarok_zwanzigerrufen",
         "python_tarok_taroky", "python_tarok_bolognese", "python_tarok_french_tarot",
         "python_tarok_koenigrufen"]  # fmt: skip


def card_tokens(text: str, codes: dict[str, Card]) -> set[Card]:
    """The cards a string names (card codes are whole tokens between separators)."""
    return {codes[t] for t in re.split(r"[\s,;:=@\n]+", text) if t in codes}


def named(view: View, codes: dict[str, Card]) -> set[Card]:
    """Cards the view names publicly without placing them: the called king or tarok."""
    names = {view.called} | {f.value for f in view.facts if f.kind in ("call", "called")}
    return {codes[n] for n in names if n in codes}


def leaks(game: TarokGame, rng: random.Random) -> list[str]:
    """Play one random hand; every card named in a seat's strings must have been shown to it."""
    codes = {game.deck.code(c): c for c in game.deck.cards}
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    shown: list[set[Card]] = [set() for _ in range(game.num_players())]
    found = []
    while True:
        for seat in range(game.num_players()):
            view = state.view(seat)
            assert view is not None
            shown[seat] |= view.visible_cards() | named(view, codes)
            text = state.information_state_string(seat) + state.observation_string(seat)
            extra = card_tokens(text, codes) - shown[seat]
            if extra:
                found.append(f"seat {seat} sees {sorted(map(game.deck.code, extra))}")
        if state.is_terminal():
            return found
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", NAMES)
def test_no_hidden_card_reaches_a_seat_string(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    for _ in range(3):
        assert leaks(game, rng) == []


def test_the_leak_check_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    real: Callable[..., str] = view_string

    def leaky(view: View, deck: object) -> str:
        return real(view, deck) + " secret=" + ",".join(
            deck.code(c) for c in deck.cards  # type: ignore[attr-defined]
        )

    monkeypatch.setattr(game_module, "view_string", leaky)
    game = pyspiel.load_game("python_tarok_slovenian")
    assert leaks(game, random.Random(1)) != []


@pytest.mark.parametrize("name", NAMES)
def test_resampled_worlds_look_the_same_to_the_seat(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    checked = 0
    for _ in range(3):
        state: TarokState = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            player = state.current_player()
            if rng.random() < 0.25:
                try:
                    twin = state.resample_from_infostate(player, None)
                except RuntimeError:
                    # Known gap: taroky's declarations of a sixth obligation constrain every
                    # hand at once; neither the sampler nor re-deals find a world there.
                    seen = state.view(player)
                    assert seen is not None and seen.phase == "declaring"
                    assert name == "python_tarok_taroky"
                    continue
                assert twin.information_state_string(player) == state.information_state_string(
                    player
                )
                assert twin.legal_actions() == state.legal_actions()
                assert twin.hand is not None and state.hand is not None
                assert twin.hand.hands[player] == state.hand.hands[player]
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
