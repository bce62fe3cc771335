"""The hand state of Slovenian tarok (and of the rule sets built on it), and card predicates."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...engine.announce import AnnouncingState
from ...engine.auction import Auction
from ...engine.cards import KING, MOND, PAGAT, SKIS, TAROK, Card
from ...engine.state import REDEAL, SCORED, TRICKS


class Phase(StrEnum):
    """The phases of a hand (the values are the phase strings of logs and views)."""

    BIDDING = "bidding"
    CALLING = "calling"
    TALON = "talon"
    ANNOUNCE = "announce"
    TRICKS = TRICKS
    SCORED = SCORED
    REDEAL = REDEAL


TRULA_RANKS = (PAGAT, MOND, SKIS)


@dataclass(frozen=True, slots=True)
class SlovenianState(AnnouncingState):
    """A hand of a Slovenian-family rule set: the auction, the contract, the exchange and (in
    `AnnouncingState`) what has been said about it. What may be several with two packs is a
    tuple from the start (one pack: at most one entry): the called cards, the partners, the
    called cards in the talon, the captured monds."""

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
    mondfangs: tuple[int, ...] = ()  # the owner of every captured mond
    talon_won: bool = False
    gifts: tuple[Card, ...] = ()  # klop: talon cards given to trick winners

    def team(self) -> tuple[int, ...]:
        """The declarer side: the declarer first, then his partners."""
        if self.declarer is None:
            return ()
        return (self.declarer, *(p for p in self.partners if p != self.declarer))


def is_trula(card: Card) -> bool:
    """Škis, mond or pagat (of any pack)."""
    return card.suit == TAROK and card.rank in TRULA_RANKS


def is_mond(card: Card) -> bool:
    return card.suit == TAROK and card.rank == MOND


def is_skis(card: Card) -> bool:
    return card.suit == TAROK and card.rank == SKIS


def is_pagat(card: Card) -> bool:
    return card.suit == TAROK and card.rank == PAGAT


def is_suit_king(card: Card) -> bool:
    return card.rank == KING and not card.is_tarok
