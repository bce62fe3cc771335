"""The C solver agrees with the Python engine: its legal cards and trick winners equal
`tricks.legal_plays` / `tricks.winning_index` (and the rule sets' own `legal_moves`), and its
values equal a plain minimax over the engine's own moves on small endgames, for every rule set
and player count."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from tarok_service.bots.heuristic import HeuristicBot
from tarok_service.bots.solver import Objective, objective, solvable, solve_state
from tarok_service.bots.solver.tables import build_game
from tarok_service.engine import tricks as t
from tarok_service.engine.cards import Card
from tarok_service.engine.moves import MoveKind
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.trickplay import TrickPlay
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import all_variants, find_rule_set, find_variant

SOLVED = [v for v in all_variants() if solvable(v)]
TABLES = [(v.id, n) for v in SOLVED for n in v.player_counts]


def trick_states(
    variant: Variant[Any], players: int, hands: int, seed: int
) -> list[HandState]:
    """Every trick-play state of `hands` hands: the heuristic bot's bids (random ones would
    mostly reach a valat, over at the first lost trick), then random legal cards; every
    third hand random bids too."""
    rng = random.Random(seed)
    bidder = HeuristicBot()
    rules = variant.make_rules(players)
    found: list[HandState] = []
    for n in range(hands):
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, rng.randrange(players))
        while not state.finished:
            if state.phase == TRICKS:
                found.append(state)
            if state.phase == TRICKS or n % 3 == 2:
                move = rng.choice(variant.legal_moves(state))
            else:
                assert state.turn is not None
                move = bidder.choose(variant.view(state, state.turn), variant, rules)
            state = variant.apply(state, move, check=False)
    return found


@pytest.mark.parametrize(("variant_id", "players"), TABLES)
def test_legal_cards_and_winners_equal_the_engine(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    assert isinstance(variant, TrickPlay)
    states = trick_states(variant, players, 150, seed=players)
    assert len(states) > 400
    checked = winners = 0
    for state in states:
        deck = variant.deck(state.rules)
        rules = variant.trick_rules(state)
        game = build_game(deck, rules, players, deck.points)
        turn = state.turn
        assert turn is not None
        index = deck.index
        held = [index[c] for c in variant.held_cards(state, turn)]
        trick = [index[c] for _, c in state.trick]
        got = game.legal([index[c] for c in state.hands[turn]], trick, held)
        want = sorted(index[deck.by_code[m.value]] for m in variant.legal_moves(state)
                      if m.kind == MoveKind.PLAY)  # fmt: skip
        assert got == want, (variant_id, state.trick, state.hands[turn])
        checked += 1
        if state.trick:
            cards = [c for _, c in state.trick]
            assert game.winner(trick) == t.winning_index(cards, rules)
            winners += 1
    assert checked == len(states) and winners > 100


RULE_VARIANTS = [
    t.TrickRules(),
    t.TrickRules(must_overtake=True, pagat_last=True),
    t.TrickRules(trumps_win=False, emperor_needs_tarok_lead=True),
    t.TrickRules(emperor_order=t.EMPEROR_PAGAT_LAST, tie=t.TIE_LEAD_PACK),
    t.TrickRules(emperor_order=t.EMPEROR_MOND_SKIS_PAGAT, tie=t.TIE_LAST, must_overtake=True),
    t.TrickRules(
        emperor=False, pagat_last_tarok=True, mond_not_under_skis=True, must_overtake=True
    ),
    t.TrickRules(emperor=False, suits_before_trump_lead=True),
]


@pytest.mark.parametrize("variant_id", [v.id for v in SOLVED])
def test_every_rule_flag_on_random_hands(variant_id: str) -> None:
    """Random hands and tricks (not only the ones play reaches) under each mix of flags."""
    variant = find_variant(variant_id)
    players = variant.player_counts[0]
    rules0 = variant.make_rules(players)
    deck = variant.deck(rules0)
    base = variant.trick_rules(trick_states(variant, players, 1, seed=5)[0])  # type: ignore[attr-defined]
    rng = random.Random(variant_id)
    mixes = [replace(r, excuse=base.excuse) for r in RULE_VARIANTS]
    for rules in mixes:
        game = build_game(deck, rules, players, deck.points)
        for _ in range(600):
            cards = rng.sample(deck.cards, rng.randrange(1, 12) + players)
            k = rng.randrange(players)
            trick, hand = cards[:k], sorted(cards[k:], key=deck.index.__getitem__)
            held: tuple[Card, ...] = (hand[0],) if rng.random() < 0.2 else ()
            want = sorted(deck.index[c] for c in t.legal_plays(hand, trick, rules, held))
            got = game.legal([deck.index[c] for c in hand], [deck.index[c] for c in trick],
                             [deck.index[c] for c in held])  # fmt: skip
            assert got == want, (rules, trick, hand, held)
            full = cards[: rng.randrange(1, players + 1)]
            assert game.winner([deck.index[c] for c in full]) == t.winning_index(full, rules)


def reference(variant: Variant[Any], state: HandState, aim: Objective) -> int:
    """Minimax over the engine's own legal moves: what `aim.team` takes in the rest of the
    hand (the values of the cards of the tricks it wins, and the bonus per trick)."""
    done = len(state.tricks)

    def value(s: HandState) -> int:
        if s.phase != TRICKS or s.turn is None:
            return sum(
                sum(aim.values[deck.index[c]] for c in tr.cards) + aim.bonus
                for tr in s.tricks[done:]
                if tr.winner in aim.team
            )
        after = [value(variant.apply(s, m, check=False)) for m in variant.legal_moves(s)]
        return max(after) if s.turn in aim.team else min(after)

    deck = variant.deck(state.rules)
    return value(state)


@pytest.mark.parametrize(("variant_id", "players"), TABLES)
def test_values_equal_a_python_minimax_on_endgames(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    assert isinstance(variant, TrickPlay)
    sampler = find_rule_set(variant_id).sampler
    assert sampler is not None
    rng = random.Random(7)
    states = [
        s for s in trick_states(variant, players, 40, seed=players + 100)
        if max(map(len, s.hands)) <= (3 if players == 3 else 2)
    ]  # fmt: skip
    rng.shuffle(states)
    checked = 0
    for state in states[:60]:
        turn = state.turn
        assert turn is not None
        contract = variant.view(state, turn).contract
        aim = objective(variant_id, variant.deck(state.rules), contract, sampler.team(state), turn)
        found = solve_state(variant, state, aim)
        assert found is not None
        values, _ = found
        for move in variant.legal_moves(state):
            card = variant.deck(state.rules).by_code[move.value]
            want = reference(variant, variant.apply(state, move, check=False), aim)
            want += _won_now(variant, state, card, aim)
            assert values[card] == want, (variant_id, contract, state.trick, card)
        checked += 1
    assert checked >= 40


def _won_now(variant: Variant[Any], state: HandState, card: Card, aim: Objective) -> int:
    """The value of the trick in play if `card` completes it for the team (the reference
    counts only the tricks after the state it is given)."""
    if len(state.trick) + 1 < state.rules.players:
        return 0
    deck = variant.deck(state.rules)
    cards = [c for _, c in state.trick] + [card]
    rules = variant.trick_rules(state)  # type: ignore[attr-defined]
    seats = [s for s, _ in state.trick] + [state.turn]
    won = seats[t.winning_index(cards, rules)]
    if won not in aim.team:
        return 0
    return sum(aim.values[deck.index[c]] for c in cards) + aim.bonus
