"""The expert bot, the levels for people, and the hand analysis."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tarok_service.bots import make_bot
from tarok_service.bots.analysis import analyse_hand, lost_cards
from tarok_service.bots.expert import ExpertBot, stakes
from tarok_service.bots.heuristic import HeuristicBot
from tarok_service.bots.levels import LEVEL_BOTS, LEVELS, EasyBot
from tarok_service.bots.pimc import PimcBot
from tarok_service.bots.solver import card_values, models, objective, solvable
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.variant import Variant
from tarok_service.server.present.i18n import LOCALES, Labels
from tarok_service.variants.registry import all_variants, find_rule_set, find_variant
from tarok_service.variants.slovenian.rules import SlovenianFamily


def heuristic_hand(variant: Variant[Any], players: int, seed: int) -> HandState:
    """A finished hand of heuristic play with some card play."""
    rules = variant.make_rules(players)
    bot = HeuristicBot()
    rng = random.Random(seed)
    while True:
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state: HandState = variant.deal(rules, order, 0)
        while not state.finished:
            assert state.turn is not None
            view = variant.view(state, state.turn)
            state = variant.apply(state, bot.choose(view, variant, rules))
        if state.tricks:
            return state


def in_tricks(variant: Variant[Any], players: int, seed: int, tricks: int) -> HandState:
    """A hand of heuristic play stopped at trick play with `tricks` tricks done."""
    rules = variant.make_rules(players)
    bot = HeuristicBot()
    rng = random.Random(seed)
    while True:
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state: HandState = variant.deal(rules, order, 0)
        while not state.finished:
            if state.phase == TRICKS and len(state.tricks) == tricks and not state.trick:
                return state
            assert state.turn is not None
            view = variant.view(state, state.turn)
            state = variant.apply(state, bot.choose(view, variant, rules))


@pytest.mark.parametrize("variant_id", [v.id for v in all_variants()])
def test_expert_solves_many_deals_within_its_budget(variant_id: str) -> None:
    variant = find_variant(variant_id)
    players = variant.player_counts[0]
    state = in_tricks(variant, players, seed=3, tricks=2)
    assert state.turn is not None
    view = variant.view(state, state.turn)
    bot = ExpertBot(seed=1)
    move = bot.choose(view, variant, state.rules)
    assert move in view.legal
    if len(view.legal) > 1 and solvable(variant) and not bot.delegated:
        assert bot.worlds_used >= 1
    if bot.delegated or not solvable(variant):  # PIMC decided (too early, or not modelled)
        assert bot.worlds_used == 0 and bot.unsolved.samples_used >= (len(view.legal) > 1)
    # the same position searched a few tricks deep and estimated, never handed to PIMC
    estimating = ExpertBot(seed=1, deep="estimate")
    assert estimating.choose(view, variant, state.rules) in view.legal
    assert not estimating.delegated
    if len(view.legal) > 1 and solvable(variant):
        assert estimating.worlds_used >= 1


def test_expert_hands_early_decisions_to_playouts_and_solves_late_ones() -> None:
    variant = find_variant("slovenian")
    early = in_tricks(variant, 4, seed=3, tricks=0)
    assert early.turn is not None
    bot = ExpertBot(seed=1)
    bot.choose(variant.view(early, early.turn), variant, early.rules)
    assert bot.delegated and bot.worlds_used == 0 and bot.unsolved.samples_used >= 1
    late = in_tricks(variant, 4, seed=3, tricks=9)
    assert late.turn is not None
    bot.choose(variant.view(late, late.turn), variant, late.rules)
    assert not bot.delegated and bot.worlds_used >= 1 and bot.horizon_used == -1


def test_pimc_with_a_deadline_gone_draws_one_sample() -> None:
    variant = find_variant("slovenian")
    state = in_tricks(variant, 4, seed=3, tricks=1)
    assert state.turn is not None
    view = variant.view(state, state.turn)
    sampler = find_rule_set("slovenian").sampler
    assert sampler is not None
    bot = PimcBot(seed=1, budget=5.0)
    found = bot.evaluate(view, variant, state.rules, sampler, deadline=time.perf_counter() - 1)
    assert found is not None and len(found) == len(view.legal) and bot.samples_used == 1


@pytest.mark.parametrize("seed", range(6))
def test_stakes_are_the_contract_line_and_the_difference(seed: int) -> None:
    """The score shape the expert averages, taken before the last trick and given the value
    the declarer side then took, is the hand's score without bonuses: the contract's value
    won or lost and the difference (unrounded, in thirds; no kontra in these hands)."""
    variant = find_variant("slovenian")
    bot = HeuristicBot()
    rng = random.Random(seed)
    found = 0
    while found < 3:
        order = list(variant.deck(variant.make_rules(4)).cards)
        rng.shuffle(order)
        state: HandState = variant.deal(variant.make_rules(4), order, 0)
        before: HandState | None = None
        while not state.finished:
            if state.phase == TRICKS and not state.trick and len(state.tricks) == 11:
                before = state
            assert state.turn is not None
            state = variant.apply(state, bot.choose(variant.view(state, state.turn), variant,
                                                    state.rules))  # fmt: skip
        result = variant.result(state)
        if before is None or result is None or result.team == ():
            continue
        deck = variant.deck(state.rules)
        team = result.team
        aim = objective("slovenian", deck, result.contract, team, team[0])
        shape = stakes(variant, before, aim)
        lines = {line.item: line.points for line in result.lines}
        if shape is None or lines.get(result.contract) is None:
            assert result.contract in ("klop", "beggar", "open_beggar", "valat",
                                       "colour_valat") or "valat (silent)" in lines  # fmt: skip
            continue
        assert isinstance(variant, SlovenianFamily)
        contract = variant.contract_table[variant.contract_index[result.contract]]
        if abs(lines[result.contract]) != contract.value:  # a kontra: not these hands
            continue
        last = state.tricks[-1]
        rest = sum(aim.values[deck.index[c]] for c in last.cards) if last.winner in team else 0
        score = shape.score(rest) / aim.scale
        assert (score > 0) == result.won
        margin = 1.0 if not contract.fixed else 0.0
        assert score - lines[result.contract] == pytest.approx(
            margin * (result.side_points[0] - 35), abs=1
        )
        found += 1


def test_expert_plays_the_last_tricks_exactly() -> None:
    variant = find_variant("slovenian")
    state = in_tricks(variant, 4, seed=5, tricks=10)
    assert state.turn is not None
    bot = ExpertBot(seed=2, budget=0.5)
    bot.choose(variant.view(state, state.turn), variant, state.rules)
    assert bot.horizon_used == -1 and bot.worlds_used >= 10


def test_levels_are_bots_with_labels_in_every_locale() -> None:
    for level in LEVELS:
        assert make_bot(level, 1).name == level or LEVEL_BOTS[level] == make_bot(level, 1).name
        for locale in LOCALES:
            labels = Labels(locale)
            assert labels.has(f"bot.{level}"), (locale, level)
    assert Labels("sl").term("bot", "expert") != Labels("en").term("bot", "expert")


def test_easy_slips_to_random_cards() -> None:
    variant = find_variant("slovenian")
    state = in_tricks(variant, 4, seed=8, tricks=3)
    assert state.turn is not None
    view = variant.view(state, state.turn)
    steady = EasyBot(seed=1, slips=0.0)
    assert steady.choose(view, variant, state.rules) == HeuristicBot().choose(
        view, variant, state.rules
    )
    sloppy = EasyBot(seed=1, slips=1.0)
    picks = {sloppy.choose(view, variant, state.rules) for _ in range(60)}
    assert picks <= set(view.legal)
    assert len(picks) == len(view.legal)


@pytest.mark.parametrize(
    "variant_id",
    [v.id if v.id == "slovenian" else pytest.param(v.id, marks=pytest.mark.slow)
     for v in all_variants() if solvable(v)],
)  # fmt: skip
def test_analysis_is_consistent_with_the_hand(variant_id: str) -> None:
    """Perfect play from after a card is the best the next player can do; the last card's
    value is what the side actually took."""
    variant = find_variant(variant_id)
    players = variant.player_counts[0]
    final = heuristic_hand(variant, players, seed=11)
    found = analyse_hand(variant, final)
    plays = [p for tr in final.tricks for p in tr.plays]
    assert [(c.seat, c.card) for c in found.cards] == plays
    checked = 0
    for now, after in zip(found.cards, found.cards[1:], strict=False):
        if now.exact and after.exact and now.side == after.side:
            assert now.value == pytest.approx(after.best), (now, after)
            checked += 1
    assert all(c.exact for c in found.cards[-2 * players :])  # the last two tricks, exactly
    # pairs of consecutive cards of one side: every card of a side of several players in the
    # last two tricks but the first; with every player for himself (Trischaken) fewer pairs
    teams = any(len(c.side) > 1 for c in found.cards)
    assert checked >= (2 * players - 1 if teams else 1)
    last = found.cards[-1]
    deck = variant.deck(final.rules)
    aim = objective(variant_id, deck, found.contract, last.side, last.seat)
    took = sum(
        sum(aim.values[deck.index[c]] for c in tr.cards) + aim.bonus
        for tr in final.tricks
        if tr.winner in aim.team
    )
    assert last.value == pytest.approx(took / aim.scale)
    costs = [(c.best - c.value) * (1 if c.seat in c.side else -1) for c in found.cards]
    lost = [c for c, cost in zip(found.cards, costs, strict=True) if cost > 0]
    assert list(lost_cards(found)) == lost  # every card that cost its side, and only those


def test_koenigrufen_aims_count_thirds_and_bettel_takes_no_trick() -> None:
    variant = find_variant("koenigrufen")
    deck = variant.deck(variant.make_rules(4))
    assert sum(card_values("koenigrufen", deck)) == 210  # 70 points, counted in thirds
    bettel = objective("koenigrufen", deck, "bettel", (0,), 0)
    assert bettel.stop_win and bettel.bonus == -1 and bettel.team == frozenset({0})
    rufer = objective("koenigrufen", deck, "rufer", (0, 2), 0)
    assert rufer.scale == 3 and rufer.team == frozenset({0, 2})
    assert not models("piccolo") and not models("zwiccolo") and models("bettel")
