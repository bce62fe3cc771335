"""The state of one Zwanzigerrufen hand and the facts derived from it (sides, levels)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...engine.cards import Card
from ...engine.moves import MoveKind
from ...engine.state import REDEAL, SCORED, TRICKS, HandState
from ...engine.view import Fact
from . import data as d


class Phase(StrEnum):
    """The phases of a hand (the values are the phase strings of logs and views)."""

    AUCTION = "auction"
    TRICKS = TRICKS
    SCORED = SCORED
    REDEAL = REDEAL


CALLED = MoveKind.CALL.value  # the kind of the public fact naming the called tarok (not a move)


@dataclass(frozen=True, slots=True)
class ZwanzigerState(HandState):
    """A hand: the dealt cards, the game announced so far and what was said about it."""

    dealt: tuple[tuple[Card, ...], ...] = ()
    game: str = ""
    declarer: int | None = None
    called: Card | None = None
    partner: int | None = None
    accepted: frozenset[int] = frozenset()  # passed or added: no higher game any more
    announced: tuple[tuple[str, int], ...] = ()  # (item, seat), items of the current game
    levels: tuple[tuple[str, int], ...] = ()  # (item, kontra level)
    passes: int = 0  # turns in a row that were passes
    speaking: bool = False  # the seat to move has made a statement this turn
    mond_caught: int | None = None  # seat whose mond the skis won (mondfang)
    facts: tuple[Fact, ...] = ()

    def team(self) -> tuple[int, ...]:
        """The playing side: the declarer and, in a call game, the holder of the called tarok."""
        if self.declarer is None:
            return ()
        if self.partner is None:
            return (self.declarer,)
        return tuple(sorted((self.declarer, self.partner)))

    def playing_side(self, seat: int) -> bool:
        return seat in self.team()

    def level(self, item: str) -> int:
        return dict(self.levels).get(item, 0)

    def announcer(self, item: str) -> int | None:
        return dict(self.announced).get(item)

    def valat_announced(self) -> bool:
        return any(d.base_addition(item) == d.VALAT for item, _ in self.announced)
