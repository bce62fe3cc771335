"""The state every trick-taking hand shares; variants extend it with their own fields."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .options import Rules

SCORED = "scored"
REDEAL = "redeal"
TRICKS = "tricks"
ENDED = frozenset({SCORED, REDEAL})  # the phases that end a hand (no moves, no handlers)

Play = tuple[int, Card]


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: the cards in playing order and the seat that won it."""

    plays: tuple[Play, ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)

    @property
    def leader(self) -> int:
        return self.plays[0][0]


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand in progress.

    Seats are numbered in the direction of play; `dealer + 1` is forehand. `piles` hold the
    cards each seat has won (tricks, discards, talon cards given to it).
    """

    rules: Rules
    dealer: int
    phase: str
    turn: int | None
    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.rules.players

    @property
    def finished(self) -> bool:
        return self.phase in ENDED

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    def tricks_won(self) -> tuple[int, ...]:
        counts = [0] * self.rules.players
        for t in self.tricks:
            counts[t.winner] += 1
        return tuple(counts)


def replace_at(
    items: tuple[tuple[Card, ...], ...], seat: int, new: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """`items` with the entry of `seat` replaced."""
    return (*items[:seat], new, *items[seat + 1 :])


def without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """`cards` less one copy of `card` (the very object if present: the cards of a deal are
    distinct, and an identity search skips the slow comparisons of dataclass equality)."""
    for i, c in enumerate(cards):
        if c is card:
            return cards[:i] + cards[i + 1 :]
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]
