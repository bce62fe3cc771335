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
    """A hand of a Slovenian-family rule set: the auction, the contract and what has been said
    about it. What may be several with two packs is a tuple from the start (one pack: at most
    one entry): the called cards, the partners, the called cards in the talon, the captured
    monds."""

    auction: Auction | None = None
    contract: int = -1
    declarer: int | None = None
    called: tuple[Card, ...] = ()  # the cards the call named
    partners: tuple[int, ...] = ()  # their holders at the call, other than the declarer
    talon_kings: tuple[Card, ...] = ()  # called cards that lay in the talon (a zaruf)
    exposed_talon: tuple[Card, ...] = ()
    group: int | None = None
    to_discard: int = 0
    discards: tuple[Card, ...] = ()
    announced: tuple[tuple[str, int], ...] = ()  # (item, seat)
    levels: tuple[tuple[str, int], ...] = ()  # (item, kontra level)
    passes: int = 0
    mondfangs: tuple[int, ...] = ()  # the owner of every captured mond
    talon_won: bool = False
    gifts: tuple[Card, ...] = ()  # klop: talon cards given to trick winners
    facts: tuple[Fact, ...] = ()

    def team(self) -> tuple[int, ...]:
        """The declarer side: the declarer first, then his partners."""
        if self.declarer is None:
            return ()
        return (self.declarer, *(p for p in self.partners if p != self.declarer))

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
