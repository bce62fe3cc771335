"""Stateful property tests: one hypothesis state machine per rule set.

Each machine deals a hand at a drawn player count with drawn table options, then advances it
by moves drawn from the legal ones. After every move it checks:
- every card of the pack is in exactly one place (hands, talon, piles, the trick);
- until the hand is scored there is a player to move with at least one legal move;
- every legal move applies, and a move that is not legal raises IllegalMove with one of the
  engine's stable reason codes;
- what a viewer is shown agrees with the knowledge model (tests/engine/knowledge.py);
and once the hand is scored: the card points add up (the rule set's own invariants), each
seat's score is the sum of its score lines, and the hand's totals are scores plus penalties.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tarok_service.engine import moves as m
from tarok_service.engine.cards import Card
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.options import OptionError, OptionValue, Rules
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import find_variant

from .knowledge import Knowledge, check_move_made, check_viewer

pytestmark = pytest.mark.slow  # hypothesis state machines: many hands per rule set
REASONS = frozenset(reason.value for reason in m.Reason)
SETTINGS = settings(
    max_examples=8,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def census(state: HandState) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def option_values(variant: Variant[Any]) -> dict[str, st.SearchStrategy[OptionValue]]:
    """A strategy per option: its choices, true/false, or its default."""
    out: dict[str, st.SearchStrategy[OptionValue]] = {}
    for spec in variant.option_specs:
        if isinstance(spec.default, bool):
            out[spec.name] = st.booleans()
        elif spec.choices:
            out[spec.name] = st.sampled_from(spec.choices)
    return out


class HandMachine(RuleBasedStateMachine):
    """Deal, then play drawn legal moves; `variant_id` is set by each subclass."""

    variant_id = ""

    def __init__(self) -> None:
        super().__init__()
        self.variant = find_variant(self.variant_id)
        self.state: HandState | None = None
        self.knowledge: Knowledge | None = None
        self.rng = random.Random(0)

    @initialize(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        players = data.draw(st.sampled_from(self.variant.player_counts), label="players")
        chosen = data.draw(st.fixed_dictionaries(option_values(self.variant)), label="options")
        rules = self.make_rules(players, chosen)
        seed = data.draw(st.integers(0, 2**32 - 1), label="shuffle")
        self.rng = random.Random(seed)
        cards = list(self.variant.deck(rules).cards)
        self.rng.shuffle(cards)
        dealer = data.draw(st.integers(0, players - 1), label="dealer")
        self.state = self.variant.deal(rules, cards, dealer)
        self.knowledge = Knowledge.dealt(self.variant, self.state)

    def make_rules(self, players: int, chosen: dict[str, OptionValue]) -> Rules:
        try:
            return self.variant.make_rules(players, chosen)
        except OptionError:  # a combination the rule set refuses: its defaults
            return self.variant.make_rules(players)

    @rule(data=st.data())
    def moves(self, data: st.DataObject) -> None:
        """Up to eight moves, each drawn from the legal ones, all checked."""
        count = data.draw(st.integers(1, 8), label="moves")
        for _ in range(count):
            state = self.state
            if state is None or state.finished:
                return
            legal = self.variant.legal_moves(state)
            for move in legal:
                self.variant.apply(state, move)  # every legal move applies
            self.refuse(state, legal, data)
            move = self.choose(legal, data)
            after = self.variant.apply(state, move)
            assert self.knowledge is not None
            self.knowledge.observe(state, move, after)
            viewers = [*range(state.players), None]
            check_move_made(self.knowledge, self.variant, state, move, viewers)
            self.state = after
            self.check_step()

    def choose(self, legal: list[Move], data: st.DataObject) -> Move:
        """A drawn legal move; a pass is preferred when there is a bid too, so that the hands
        reach the ordinary contracts and not mostly the highest."""
        passes = [mv for mv in legal if mv.kind == "pass"]
        bidding = passes and any(mv.kind == "bid" for mv in legal)
        if bidding and data.draw(st.integers(0, 9), label="pass?") < 7:
            return passes[0]
        return data.draw(st.sampled_from(legal), label="move")

    def refuse(self, state: HandState, legal: list[Move], data: st.DataObject) -> None:
        """A move that is not legal raises IllegalMove with a stable reason."""
        deck = self.variant.deck(state.rules)
        kinds = sorted({mv.kind for mv in legal} | {"play", "pass", "bid"})
        kind = data.draw(st.sampled_from(kinds), label="refused kind")
        value = data.draw(st.sampled_from(["", "nonsense", *deck.by_code]), label="refused value")
        move = Move(kind, value)
        if move in legal:
            return
        try:
            self.variant.apply(state, move)
        except IllegalMove as err:
            assert err.reason in REASONS, err.reason
        else:
            raise AssertionError(f"{move.id} is not legal yet applied")

    def check_step(self) -> None:
        state, k = self.state, self.knowledge
        assert state is not None and k is not None
        deck = self.variant.deck(state.rules)
        assert census(state) == Counter(deck.cards)
        if not state.finished:
            assert state.turn is not None and self.variant.legal_moves(state)
        viewer = self.rng.choice([*range(state.players), None])
        check_viewer(k, self.variant, state, viewer)

    @invariant()
    def scored_hand_adds_up(self) -> None:
        state = self.state
        if state is None or not state.finished:
            return
        result = self.variant.result(state)
        assert result is not None
        event(f"scored: {result.contract}")
        assert self.variant.invariants(state, result) == []
        assert result.totals == tuple(
            s + p for s, p in zip(result.scores, result.penalties, strict=True)
        )
        if result.redeal:
            return
        for seat in range(state.players):
            own = sum(line.points for line in result.lines if seat in line.seats)
            team = sum(line.points for line in result.lines if not line.seats)
            assert result.scores[seat] == own + (team if seat in result.team else 0)


def machine(variant_id: str) -> Any:
    cls: Any = type(f"{variant_id.title()}Machine", (HandMachine,), {"variant_id": variant_id})
    cls.TestCase.settings = SETTINGS
    return cls.TestCase


TestSlovenian = machine("slovenian")
TestDoubleTarok = machine("double_tarok")
TestTaroky = machine("taroky")
TestZwanzigerrufen = machine("zwanzigerrufen")
TestTaroccoBolognese = machine("tarocco_bolognese")
TestFrenchTarot = machine("french_tarot")
TestKoenigrufen = machine("koenigrufen")
