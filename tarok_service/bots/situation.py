"""What a bot can work out from a view: sides, cards gone, voids, and a trick-play situation.

Everything here reads only a `View` (or, inside a simulation, a sampled state the simulation
owns); nothing reaches into the real hand state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine import tricks as t
from ..engine.cards import FOOL, MOND, PAGAT, SKIS, TAROK, Card, Deck
from ..engine.inference import called_cards, completed_tricks, talon_split
from ..engine.moves import Move, MoveKind
from ..engine.state import Play
from ..engine.view import View

NEGATIVE_CONTRACTS = frozenset(
    {"klop", "beggar", "open_beggar", "varsava", "trischaken", "piccolo", "zwiccolo", "bettel"}
    | {"piccolo_ouvert", "bettel_ouvert"}
)
NO_TRUMP_CONTRACTS = frozenset({"colour_valat", "colour_solo"})
OUT_OF_PLAY = frozenset({"discards", "talon cards given", "rejected talon 1", "rejected talon 2"})


@dataclass(frozen=True, slots=True)
class Situation:
    """One card decision: who plays, what may be played, and what is known about the rest."""

    seat: int
    players: int
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    trick: tuple[Play, ...]
    gone: frozenset[Card]  # played in earlier tricks or otherwise out of play
    unseen: frozenset[Card]  # cards that may still be in another hand (or a hidden talon)
    friends: frozenset[int]  # seats known to play on this seat's side
    negative: bool  # the aim is to avoid winning tricks (klop, beggar, varsava)
    points: Mapping[Card, int]
    deck: tuple[Card, ...]
    rules: t.TrickRules

    @property
    def last(self) -> bool:
        return len(self.trick) == self.players - 1

    @property
    def last_trick(self) -> bool:
        return len(self.hand) == 1


def excuse_card(deck: Deck) -> Card | None:
    """The card that never wins and is never followed (the Bolognese Matto), if the deck has one."""
    return next((c for c in deck.cards if c.suit == FOOL), None)


def default_rules(deck: Deck, contract: str) -> t.TrickRules:
    """Trick rules a bot assumes without access to the state (the variant's need the state)."""
    excuse = excuse_card(deck)
    if excuse is not None:
        return t.TrickRules(emperor=False, tie=t.TIE_LAST, excuse=excuse)
    if contract in NO_TRUMP_CONTRACTS:
        return t.TrickRules(trumps_win=False, emperor_needs_tarok_lead=True)
    if len(deck) > 62:
        return t.TrickRules(tie=t.TIE_LEAD_PACK)
    return t.TrickRules()


def gone_cards(view: View) -> frozenset[Card]:
    """Cards known to be out of play: played in completed tricks, discarded face up, given."""
    gone = {c for plays in completed_tricks(view) for _, c in plays}
    for group in view.public:
        if group.name in OUT_OF_PLAY:
            gone.update(group.cards)
    _, rest = talon_split(view)
    gone.update(rest)
    return frozenset(gone)


def declarer_alone(view: View, deck: Deck) -> bool:
    """Whether the declarer is known to play alone: nothing was called, or every called card
    lies face up in the talon or in the declarer's own hand as this seat sees it."""
    if view.declarer is None:
        return False
    called = called_cards(view, deck)
    if not view.called:
        return True
    if not called:
        return False
    talon = {c for g in view.public if g.name == "talon" for c in g.cards}
    own = set(view.hand) if view.seat == view.declarer else set()
    return all(c in talon or c in own for c in called)


def friends_of(view: View, deck: Deck) -> frozenset[int]:
    """Seats known to be on the viewer's side (never the viewer)."""
    me, n = view.seat, len(view.hand_sizes)
    if me is None:
        return frozenset()
    if view.declarer is None:  # fixed partnerships (listed as partners) or each for himself
        return frozenset(view.partners) - {me}
    side = {view.declarer, *view.partners}
    if me in side:
        return frozenset(side - {me})
    if view.partners or declarer_alone(view, deck):
        return frozenset(set(range(n)) - side - {me})
    return frozenset()


def legal_cards(view: View, deck: Deck) -> tuple[Card, ...]:
    """The cards of the legal `play` moves."""
    return tuple(deck.by_code[mv.value] for mv in view.legal if mv.kind == MoveKind.PLAY)


def situation_from_view(view: View, deck: Deck) -> Situation:
    """The trick-play situation of the seat to move, from its view alone."""
    assert view.seat is not None
    trick_cards = {c for _, c in view.trick}
    gone = gone_cards(view) - trick_cards
    seen = gone | set(view.hand) | trick_cards
    return Situation(
        seat=view.seat,
        players=len(view.hand_sizes),
        hand=view.hand,
        legal=legal_cards(view, deck),
        trick=view.trick,
        gone=gone,
        unseen=frozenset(c for c in deck.cards if c not in seen),
        friends=friends_of(view, deck),
        negative=view.contract in NEGATIVE_CONTRACTS,
        points=deck.points,
        deck=deck.cards,
        rules=default_rules(deck, view.contract),
    )


def friends_in_team(seat: int, players: int, team: Sequence[int]) -> frozenset[int]:
    """A seat's side given the declarer side `team` (empty: each plays for himself)."""
    if not team:
        return frozenset()
    if seat in team:
        return frozenset(team) - {seat}
    return frozenset(range(players)) - set(team) - {seat}


def is_rank(card: Card, rank: int) -> bool:
    return card.suit == TAROK and card.rank == rank


def is_pagat(card: Card) -> bool:
    return is_rank(card, PAGAT)


def is_mond(card: Card) -> bool:
    return is_rank(card, MOND)


def is_skis(card: Card) -> bool:
    return is_rank(card, SKIS)


def moves_of(view: View, kind: str) -> list[Move]:
    return [mv for mv in view.legal if mv.kind == kind]
