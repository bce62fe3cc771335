"""The state of a Czech taroky hand and small questions about it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...engine.announce import AnnouncingState
from ...engine.auction import Auction
from ...engine.cards import Card, tarok54
from ...engine.state import REDEAL, SCORED, TRICKS
from . import data as d

DECK = tarok54()


class Phase(StrEnum):
    """The phases of a hand (the values are the phase strings of logs and views)."""

    BIDDING = "bidding"
    VARSAVA_CHOICE = "varsava_choice"
    CALLING = "calling"
    THIRD_TALON = "third_talon"
    EXCHANGE = "exchange"
    DECLARING = "declaring"  # the announcement round (engine.announce)
    TRICKS = TRICKS
    SCORED = SCORED
    REDEAL = REDEAL


DECLARATION = "declaration"  # the kind of the facts of revealing declarations (not a move)


@dataclass(frozen=True, slots=True)
class TarokyState(AnnouncingState):
    """A Czech hand: the auction of obligations, the team and (in `AnnouncingState`, with
    `announced` the binding declarations and `levels` the flek) what has been declared.

    `talon` holds the cards no player has: the undistributed talon, then (third obligation)
    the cards that go to the opponents, (sixth) the talon that goes to the winner, (varsava)
    the cards still to be given to the first six tricks.
    """

    auction: Auction | None = None
    contract: str = ""
    declarer: int | None = None
    called: Card | None = None
    partner: int | None = None
    multiplier: int = 1  # talon multiplier of the game part
    third_step: int = 0  # third obligation: 0 looking at the first three, 1 at the second
    shown: tuple[tuple[Card, ...], ...] = ()  # third obligation: rejected threes, face up
    queue: tuple[tuple[int, int], ...] = ()  # (seat, cards to discard), first one discarding
    discards: tuple[tuple[int, Card], ...] = ()
    received: tuple[tuple[int, Card], ...] = ()  # talon cards handed to a player
    declarations: tuple[tuple[int, str], ...] = ()  # revealing, automatic: (seat, id)
    gifts: tuple[tuple[int, Card], ...] = ()  # varsava: talon cards given to trick winners
    misdealt: bool = False

    def team(self) -> tuple[int, ...]:
        """The declaring side: declarer and partner (none in varsava)."""
        if self.declarer is None or self.contract == d.VARSAVA:
            return ()
        if self.partner is None or self.partner == self.declarer:
            return (self.declarer,)
        return (self.declarer, self.partner)

    def opponents(self) -> tuple[int, ...]:
        team = self.team()
        return tuple(s for s in range(self.players) if s not in team)

    @property
    def flek(self) -> int:
        """The flek level of the game part (1 flek, 2 reflek, ...): the only kontra item."""
        return self.level(d.GAME)

    @property
    def obligation(self) -> d.Obligation:
        return d.BY_ID[self.contract]
