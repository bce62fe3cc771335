"""Builders for Zwanzigerrufen test positions with the cards written out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from tarok_service.engine.cards import Card
from tarok_service.engine.moves import Move
from tarok_service.engine.options import OptionValue, Rules
from tarok_service.variants.zwanzigerrufen import auction as auction
from tarok_service.variants.zwanzigerrufen.rules import ZWANZIGERRUFEN
from tarok_service.variants.zwanzigerrufen.state import ZwanzigerState

VARIANT = ZWANZIGERRUFEN
DECK = VARIANT.deck(VARIANT.make_rules(4))

# A full deal (dealer 3, so seat 0 is forehand and calls XX, which seat 1 holds).
HANDS = (
    "T22 T19 T18 T17 T12 T4 HK HQ CK CQ",
    "T20 T16 T15 T11 T5 DK DQ DC SK SQ",
    "T21 T14 T13 T10 T6 HC HJ H1 SC SJ",
    "T1 T9 T8 T7 CC CJ C10 DJ D1 S10",
)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, e.g. "T21 HK S10"."""
    return tuple(DECK.card(code) for code in text.split())


def rules(**options: OptionValue) -> Rules:
    return VARIANT.make_rules(4, options)


def order_for(hands: Sequence[str], dealer: int = 3) -> list[Card]:
    """A card order that deals `hands` (by seat) in packets of 5 from forehand."""
    by_seat = [list(cards(h)) for h in hands]
    order: list[Card] = []
    seat = (dealer + 1) % 4
    while any(by_seat):
        order += by_seat[seat][:5]
        by_seat[seat] = by_seat[seat][5:]
        seat = (seat + 1) % 4
    return order


def dealt(hands: Sequence[str] = HANDS, dealer: int = 3, **options: OptionValue) -> ZwanzigerState:
    """The state right after dealing `hands`."""
    state = VARIANT.deal(rules(**options), order_for(hands, dealer), dealer)
    assert isinstance(state, ZwanzigerState)
    return state


def moves(text: str) -> list[Move]:
    """Moves from space-separated ids, e.g. "bid:call pass kontra:game"."""
    return [Move.parse(mid) for mid in text.split()]


def say(state: ZwanzigerState, text: str) -> ZwanzigerState:
    """Play auction turns (checked) in order, e.g. "bid:solo+announce:absolut pass pass pass".

    Each space-separated word is one turn: a pass, or statements joined by "+" that are
    ended by the `end` move; outside the auction each word is one move."""
    for turn in text.split():
        said = [Move.parse(mid) for mid in turn.split("+")]
        for move in said:
            state = VARIANT.apply(state, move)
        if state.phase == "auction" and said[-1].kind not in ("pass", "end"):
            state = VARIANT.apply(state, Move("end"))
    assert isinstance(state, ZwanzigerState)
    return state


def reason(state: ZwanzigerState, move_id: str, seat: int | None = None) -> str | None:
    """The auction's reason code for a move by `seat` (default: the player to move)."""
    who = state.turn if seat is None else seat
    assert who is not None
    return auction.check(state, who, Move.parse(move_id))


def play_cards(state: ZwanzigerState, codes: Iterable[str]) -> ZwanzigerState:
    """Play the given cards in turn order (checked)."""
    for code in codes:
        state = VARIANT.apply(state, Move("play", code))
    assert isinstance(state, ZwanzigerState)
    return state


def play_first_legal(state: ZwanzigerState) -> ZwanzigerState:
    """Finish the hand, each player playing his first legal card."""
    while not state.finished:
        state = VARIANT.apply(state, VARIANT.legal_moves(state)[0])
    assert isinstance(state, ZwanzigerState)
    return state


def legal_codes(state: ZwanzigerState) -> list[str]:
    return [mv.value for mv in VARIANT.legal_moves(state) if mv.kind == "play"]


def with_hands(state: ZwanzigerState, hands: Sequence[str]) -> ZwanzigerState:
    """The same state with the hands replaced (for trick-rule positions)."""
    return replace(state, hands=tuple(DECK.sort(cards(h)) for h in hands))
