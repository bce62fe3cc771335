"""Finished Königrufen hands written out trick by trick, for the scoring tests.

A hand is written as its 12 tricks, each the four cards in the order they were played; the
first trick is led by forehand (seat 0, the dealer is seat 3) or, in Piccolo, Zwiccolo and
Bettel, by the declarer, every later trick by the winner of the one before, and the winner of
each trick is worked out by the rule set's own trick rules. The declarer's discards go to his
pile, the talon left lying stays in the talon. Every card of the pack appears exactly once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tarok_service.engine import tricks as t
from tarok_service.engine.cards import Card
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.options import OptionValue
from tarok_service.engine.outcome import HandResult
from tarok_service.engine.state import SCORED, Trick
from tarok_service.variants import find_variant
from tarok_service.variants.koenigrufen import scoring
from tarok_service.variants.slovenian.state import SlovenianState

VARIANT = find_variant("koenigrufen")
DEALER = 3
PLAYERS = 4


@dataclass(frozen=True)
class Hand:
    """A hand as written: the declarer's discards, the talon left lying, the 12 tricks."""

    discards: str
    talon: str
    tricks: tuple[str, ...]


def cards(text: str) -> tuple[Card, ...]:
    deck = VARIANT.deck(VARIANT.make_rules(PLAYERS))
    return tuple(deck.card(code) for code in text.split())


def finished(
    contract: str,
    declarer: int | None,
    tricks: Sequence[str],
    *,
    partner: int | None = None,
    called: str = "",
    discards: str = "",
    talon: str = "",
    king_in_talon: bool = False,
    announced: Sequence[tuple[str, int]] = (),
    levels: Sequence[tuple[str, int]] = (),
    options: Mapping[str, OptionValue] | None = None,
) -> SlovenianState:
    """The state at the end of a hand played as written."""
    rules = VARIANT.make_rules(PLAYERS, options)
    index = [c.id for c in VARIANT.contracts(PLAYERS)].index(contract)
    row = VARIANT.contract_table[index]  # type: ignore[attr-defined]
    called_cards = cards(called)
    state = SlovenianState(
        rules=rules,
        dealer=DEALER,
        phase=SCORED,
        turn=None,
        hands=((),) * PLAYERS,
        talon=cards(talon),
        piles=((),) * PLAYERS,
        contract=index,
        declarer=declarer,
        called=called_cards,
        partners=() if partner is None else (partner,),
        talon_kings=called_cards if king_in_talon else (),
        announced=tuple(announced),
        levels=tuple(levels),
    )
    trick_rules: t.TrickRules = VARIANT.trick_rules(state)  # type: ignore[attr-defined]
    leader = declarer if row.declarer_leads and declarer is not None else 0
    piles: list[tuple[Card, ...]] = [()] * PLAYERS
    if declarer is not None:
        piles[declarer] = cards(discards)
    done = []
    for text in tricks:
        plays = tuple(((leader + i) % PLAYERS, card) for i, card in enumerate(cards(text)))
        leader = t.winner(plays, trick_rules)
        done.append(Trick(plays, leader))
        piles[leader] += tuple(c for _, c in plays)
    every = [c for p in piles for c in p] + [*state.talon]
    assert sorted(map(str, every)) == sorted(map(str, VARIANT.deck(rules).cards)), "not 54 cards"
    return evolve(state, piles=tuple(piles), tricks=tuple(done))


def played(hand: Hand, contract: str, declarer: int | None, **kwargs: Any) -> SlovenianState:
    """`finished` for a written `Hand`."""
    return finished(
        contract, declarer, hand.tricks, discards=hand.discards, talon=hand.talon, **kwargs
    )


def result(state: SlovenianState) -> HandResult:
    found = VARIANT.result(state)
    assert found is not None
    return found


def scores(state: SlovenianState) -> tuple[int, ...]:
    """The tournament score (kontra ignored at the default options)."""
    return result(state).scores


def money(state: SlovenianState) -> tuple[int, ...]:
    """What is paid: every item times its kontra (the score under `kontra_in_score`)."""
    return result(
        evolve(state, rules=VARIANT.make_rules(PLAYERS, {"kontra_in_score": True}))
    ).scores


def side_thirds(state: SlovenianState) -> tuple[int, int]:
    """Card points in thirds of the declarer side and of the opponents."""
    points = VARIANT.deck(state.rules).points
    row = VARIANT.contract_table[state.contract]  # type: ignore[attr-defined]
    team, opponents = scoring.side_cards(VARIANT, state, row)  # type: ignore[arg-type]
    return scoring.thirds(team, points), scoring.thirds(opponents, points)
