"""Builders for Tarocco Bolognese test positions with the cards written out."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tarok_service.engine.cards import Card
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.variants.tarocco_bolognese.combinations import Combinations, find
from tarok_service.variants.tarocco_bolognese.rules import DECK, TAROCCO_BOLOGNESE, BologneseState

V = TAROCCO_BOLOGNESE
Policy = Callable[[BologneseState, list[Move]], Move]


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, e.g. "TAngel SwK Matto"."""
    return tuple(DECK.card(code) for code in text.split())


def combos(text: str, **kw: Any) -> Combinations:
    return find(cards(text), **kw)


def points(text: str, **kw: Any) -> dict[str, int]:
    """{combination name: points} for the cards written out."""
    return {c.name: c.points for c in combos(text, **kw).all}


def sizes(text: str) -> dict[str, int]:
    return {c.name: len(c.cards) for c in combos(text).all}


def rules(**options: Any) -> Rules:
    return V.make_rules(4, options)


def order_for(hands: Sequence[str], dealer: int) -> list[Card]:
    """A card order that deals `hands` (by seat; the dealer's has 17 cards): packets of 5 from
    the dealer's right, three rounds, then the dealer's last 2."""
    by_seat = [list(cards(h)) for h in hands]
    assert sorted(len(h) for h in by_seat) == [15, 15, 15, 17], [len(h) for h in by_seat]
    order: list[Card] = []
    for r in range(3):
        for k in range(4):
            order += by_seat[(dealer + 1 + k) % 4][5 * r : 5 * r + 5]
    return order + by_seat[dealer][15:]


def deal(hands: Sequence[str], dealer: int, **options: Any) -> BologneseState:
    state = V.deal(rules(**options), order_for(hands, dealer), dealer)
    assert isinstance(state, BologneseState)
    return state


def random_deal(seed: int, dealer: int | None = None) -> BologneseState:
    rng = random.Random(seed)
    order = list(DECK.cards)
    rng.shuffle(order)
    state = V.deal(rules(), order, rng.randrange(4) if dealer is None else dealer)
    assert isinstance(state, BologneseState)
    return state


def first_legal(state: BologneseState, legal: list[Move]) -> Move:
    return legal[0]


def passing(state: BologneseState, legal: list[Move]) -> Move:
    """Pass every declaration, otherwise the first legal move."""
    return next((mv for mv in legal if mv.kind == "pass"), legal[0])


def play(state: BologneseState, *move_ids: str) -> BologneseState:
    """Apply moves written as ids, e.g. "discard:Sw6", "play:TAngel"."""
    for move_id in move_ids:
        state = V.apply(state, Move.parse(move_id))
    assert isinstance(state, BologneseState)
    return state


def play_until(state: BologneseState, phase: str, policy: Policy = first_legal) -> BologneseState:
    """Play with `policy` until the phase is reached (or the hand is over)."""
    while state.phase != phase and not state.finished:
        state = V.apply(state, policy(state, V.legal_moves(state)))
    assert isinstance(state, BologneseState)
    return state


def play_out(state: BologneseState, policy: Policy = first_legal) -> BologneseState:
    return play_until(state, "scored", policy)


def legal_ids(state: BologneseState) -> list[str]:
    return [mv.id for mv in V.legal_moves(state)]
