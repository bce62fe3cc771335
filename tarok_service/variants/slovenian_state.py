"""The hand state of Slovenian tarok (and of the rule sets built on it), and card predicates."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.auction import Auction
from ..engine.cards import KING, MOND, PAGAT, SKIS, TAROK, Card
from ..engine.state import HandState
from ..engine.view import Fact

BIDDING, CALLING, TALON, ANNOUNCE = "bidding", "calling", "talon", "announce"
BID, PASS, CALL, PICK, DISCARD, ANNOUNCE_MOVE, KONTRA, PLAY = (
    "bid",
    "pass",
    "call",
    "talon",
    "discard",
    "announce",
    "kontra",
    "play",
)
TRULA_RANKS = (PAGAT, MOND, SKIS)


@dataclass(frozen=True, slots=True)
class SlovenianState(HandState):
    """A Slovenian hand: the auction, the contract and what has been said about it."""

    auction: Auction | None = None
    contract: int = -1
    declarer: int | None = None
    called: Card | None = None
    partner: int | None = None
    king_in_talon: bool = False
    exposed_talon: tuple[Card, ...] = ()
    group: int | None = None
    to_discard: int = 0
    discards: tuple[Card, ...] = ()
    announced: tuple[tuple[str, int], ...] = ()  # (item, seat)
    levels: tuple[tuple[str, int], ...] = ()  # (item, kontra level)
    passes: int = 0
    mond_left: bool = False
    mond_captured: int | None = None
    talon_won: bool = False
    gifts: tuple[Card, ...] = ()  # klop: talon cards given to trick winners
    facts: tuple[Fact, ...] = ()

    def mates(self) -> tuple[int, ...]:
        """The declarer's partners: here the holder of the called card, if another player."""
        return () if self.partner is None else (self.partner,)

    def called_cards(self) -> tuple[Card, ...]:
        """The cards whose holders are the declarer's partners."""
        return () if self.called is None else (self.called,)

    def zaruf_cards(self) -> tuple[Card, ...]:
        """Called cards that lay in the talon: one winning a trick brings the talon rest."""
        return self.called_cards() if self.king_in_talon else ()

    def team(self) -> tuple[int, ...]:
        """The declarer side: the declarer first, then his partners."""
        if self.declarer is None:
            return ()
        return (self.declarer, *(p for p in self.mates() if p != self.declarer))

    def level(self, item: str) -> int:
        return dict(self.levels).get(item, 0)

    def announcer(self, item: str) -> int | None:
        return dict(self.announced).get(item)


def is_trula(card: Card) -> bool:
    """Škis, mond or pagat (of any pack)."""
    return card.suit == TAROK and card.rank in TRULA_RANKS


def is_mond(card: Card) -> bool:
    return card.suit == TAROK and card.rank == MOND


def is_pagat(card: Card) -> bool:
    return card.suit == TAROK and card.rank == PAGAT


def is_suit_king(card: Card) -> bool:
    return card.rank == KING and not card.is_tarok


def st(state: HandState) -> SlovenianState:
    assert isinstance(state, SlovenianState)
    return state
