"""Every built-in bot returns a legal move in every phase of every rule set and player count."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tarok_service.bots import BOT_NAMES, Bot, make_bot
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import View
from tarok_service.variants.registry import all_variants

TABLES = [(v.id, n) for v in all_variants() for n in v.player_counts]
FAST_PIMC = {"budget": 0.002, "max_samples": 2}
FAST_EXPERT = {"budget": 0.01, "min_worlds": 1, "max_worlds": 3}
FAST = {"pimc": FAST_PIMC, "hard": FAST_PIMC, "expert": FAST_EXPERT}
GAMES = 3  # per bot and table


class Checked:
    """Wraps a bot: asserts that each move is legal and that the bot saw only its own seat."""

    def __init__(self, bot: Bot, seat: int, phases: Counter[str]) -> None:
        self.bot, self.seat, self.phases = bot, seat, phases
        self.name = bot.name

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        assert view.seat == self.seat and view.turn == self.seat
        move = self.bot.choose(view, variant, rules)
        assert move in view.legal, (variant.id, view.phase, move, view.legal)
        self.phases[view.phase] += 1
        return move


def options(name: str) -> dict[str, float]:
    return FAST.get(name, {})


def play(
    variant: Variant[Any], players: int, names: list[str], seed: int, phases: Counter[str]
) -> str:
    rules = variant.make_rules(players)
    rng = random.Random(seed)
    order = list(variant.deck(rules).cards)
    rng.shuffle(order)
    state = variant.deal(rules, order, seed % players)
    names_by_seat = [names[s % len(names)] for s in range(players)]
    bots = [
        Checked(make_bot(name, seed + s, **options(name)), s, phases)
        for s, name in enumerate(names_by_seat)
    ]
    while not state.finished:
        assert state.turn is not None
        view = variant.view(state, state.turn)
        move = bots[state.turn].choose(view, variant, rules)
        state = variant.apply(state, move)
    result = variant.result(state)
    assert result is not None
    return result.contract


@pytest.mark.parametrize(("variant_id", "players"), TABLES)
@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in ("pimc", "hard") else n for n in BOT_NAMES],
)
def test_bot_plays_legal_moves(variant_id: str, players: int, name: str) -> None:
    variant = next(v for v in all_variants() if v.id == variant_id)
    phases: Counter[str] = Counter()
    for games in range(GAMES):  # a fixed number: the same seeds on a fast or a loaded machine
        play(variant, players, [name], 100 * games + players, phases)
    assert phases["tricks"] > 0


@pytest.mark.slow
@pytest.mark.parametrize(("variant_id", "players"), TABLES)
def test_mixed_table(variant_id: str, players: int) -> None:
    variant = next(v for v in all_variants() if v.id == variant_id)
    phases: Counter[str] = Counter()
    for seed in range(2):
        play(variant, players, ["pimc", "heuristic", "random"], seed, phases)
    assert phases


def test_make_bot_names() -> None:
    brains = {"random", "heuristic", "pimc", "expert"}
    levels = {"easy": "easy", "medium": "heuristic", "hard": "pimc", "expert": "expert"}
    assert set(BOT_NAMES) == brains | set(levels)
    for name in brains:
        assert make_bot(name, 1).name == name
    for level, brain in levels.items():
        assert make_bot(level, 1).name == brain
    with pytest.raises(KeyError, match="unknown bot"):
        make_bot("genius")


def test_random_bot_is_seeded() -> None:
    variant = next(v for v in all_variants() if v.id == "slovenian")
    a: Counter[str] = Counter()
    assert play(variant, 4, ["random"], 7, a) == play(variant, 4, ["random"], 7, Counter())
