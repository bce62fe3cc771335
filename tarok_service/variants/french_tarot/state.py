"""The state of one French Tarot hand and the sides derived from it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...engine.cards import Card
from ...engine.state import REDEAL, SCORED, TRICKS, HandState
from ...engine.view import Fact


class Phase(StrEnum):
    """The phases of a hand (the values are the phase strings of logs and views)."""

    BIDDING = "bidding"  # one round: pass or a higher contract
    CALL = "call"  # 5 players: the taker calls a king
    ECART = "ecart"  # prise, garde: the taker lays away as many cards as the chien held
    CHELEM = "chelem"  # the taker may announce a chelem
    DECLARE = "declare"  # each player may show a poignée (and declare a misère) before play
    TRICKS = TRICKS
    SCORED = SCORED
    REDEAL = REDEAL


@dataclass(frozen=True, slots=True)
class TarotState(HandState):
    """A hand: the dealt cards, the bids, the call, the écart and the declarations."""

    dealt: tuple[tuple[Card, ...], ...] = ()
    spoken: int = 0  # players who have bid or passed
    contract: str = ""  # the highest contract bid so far
    taker: int | None = None
    called: Card | None = None
    partner: int | None = None  # holder of the called card, when not the taker himself
    chien: tuple[Card, ...] = ()  # the chien as turned up in prise and garde (now the taker's)
    ecart: tuple[Card, ...] = ()  # also on the taker's pile
    chelem_announced: bool = False
    declared: int = 0  # seats whose declaration turn is over
    poignees: tuple[tuple[int, str, tuple[Card, ...]], ...] = ()  # (seat, step, cards shown)
    miseres: tuple[tuple[int, str], ...] = ()  # (seat, kind)
    facts: tuple[Fact, ...] = ()

    def attack(self) -> tuple[int, ...]:
        """The taker and his partner (5 players), in seat order; () before a contract."""
        if self.taker is None:
            return ()
        if self.partner is None:
            return (self.taker,)
        return tuple(sorted((self.taker, self.partner)))

    def first_leader(self) -> int:
        """Forehand, or the taker after an announced chelem."""
        if self.chelem_announced and self.taker is not None:
            return self.taker
        return self.forehand
