"""Solving a hand state's trick play: what each side aims at (`Objective`, from the contract
and the declarer side) and the solver's value of each legal card (`solve_state`).

Values are in the rule set's counting unit: a card counts its points times `scale` less
`minus`, so that a side's sum is its card points the way the rule set counts them (groups of
three: 3 x points - 2 per card, a third of a point per unit; pairs: 2 x points - 1, half a
point per unit; plain: points). Talon gifts, the talon won with a called king and other
after-trick hooks are not part of the value: only the cards of the tricks still to play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.cards import Card, Deck
from ...engine.state import HandState
from ...engine.trickplay import TrickPlay
from ..situation import NEGATIVE_CONTRACTS
from ._dds import Game
from .tables import game_for

# (scale, minus) of the rule sets' counting (see `engine.counting`)
SCALES: dict[str, tuple[int, int]] = {
    "slovenian": (3, 2),
    "double_tarok": (3, 2),
    "taroky": (3, 2),
    "tarocco_bolognese": (2, 1),
    "zwanzigerrufen": (1, 0),
    "koenigrufen": (3, 2),
}
BEGGARS = frozenset({"beggar", "open_beggar", "bettel", "bettel_ouvert"})
# contracts whose aim the solver cannot express: exactly one or two tricks (Königrufen)
UNMODELLED = frozenset({"piccolo", "zwiccolo", "piccolo_ouvert"})
VALATS = frozenset({"valat", "colour_valat"})


@dataclass(frozen=True, slots=True)
class Objective:
    """What the solver maximises: the value the seats of `team` take in the rest of the hand
    (the other seats minimise it). `values[i]`: deck card i's value; `bonus`: a won trick's;
    play stops when the team wins a trick (`stop_win`) or loses one (`stop_loss`)."""

    team: frozenset[int]
    values: tuple[int, ...]
    bonus: int = 0
    stop_win: bool = False
    stop_loss: bool = False
    scale: int = 1  # units per card point

    @property
    def mask(self) -> int:
        return sum(1 << s for s in self.team)


def card_values(variant_id: str, deck: Deck) -> tuple[int, ...]:
    """Each deck card's value in the rule set's counting unit."""
    scale, minus = SCALES.get(variant_id, (1, 0))
    return tuple(deck.points[c] * scale - minus for c in deck.cards)


def objective(
    variant_id: str, deck: Deck, contract: str, team: Sequence[int], seat: int
) -> Objective:
    """The aim of trick play in `contract`, seen from the declarer side `team` (for a contract
    with no declarer - klop, varšava - from `seat` alone, who wants to take little): card
    points; in a beggar winning no trick (-1 for the first, then play stops); in a valat
    winning every trick (+1 each, play stops at the first lost)."""
    scale = SCALES.get(variant_id, (1, 0))[0]
    values = card_values(variant_id, deck)
    none = tuple(0 for _ in values)
    side = frozenset(team)
    if contract in BEGGARS and side:
        return Objective(side, none, bonus=-1, stop_win=True, scale=-1)
    if contract in VALATS and side:
        return Objective(side, none, bonus=1, stop_loss=True, scale=1)
    if contract in NEGATIVE_CONTRACTS or not side:
        return Objective(frozenset({seat}), tuple(-v for v in values), scale=-scale)
    return Objective(side, values, scale=scale)


def models(contract: str) -> bool:
    """Whether `objective` can express the contract's aim (see `UNMODELLED`)."""
    return contract not in UNMODELLED


def for_seat(aim: Objective, seat: int, value: float) -> float:
    """A solver value as the seat's gain (the team's value, negated for the other side)."""
    return value if seat in aim.team else -value


def solve_state(
    variant: TrickPlay[Any],
    state: HandState,
    aim: Objective,
    horizon: int = -1,
    node_limit: int = 0,
    own: dict[Any, Game] | None = None,
    seconds: float = 0.0,
) -> tuple[dict[Card, int], int] | None:
    """The value (for `aim.team`) of the rest of the hand after each legal card of the seat to
    play, under perfect play of every seat with every hand known, and the nodes searched;
    None past `node_limit` nodes or `seconds` (0: no limit). `horizon` >= 0 searches that
    many more tricks after the one in play and estimates the rest (see `_dds.c`). `own`: the
    caller's own games (`tables.game_for`), else the shared ones."""
    turn = state.turn
    assert turn is not None
    deck = variant.deck(state.rules)
    players = state.rules.players
    game = game_for(deck, variant.trick_rules(state), players, aim.values, own)
    index = deck.index
    hands = [[index[c] for c in h] for h in state.hands]
    held = [[index[c] for c in variant.held_cards(state, s)] for s in range(players)]
    trick = [index[c] for _, c in state.trick]
    found = game.solve(
        hands, trick, turn, aim.mask, held, aim.bonus, aim.stop_win, aim.stop_loss,
        horizon, node_limit, seconds,
    )  # fmt: skip
    if found is None:
        return None
    values, nodes = found
    cards = deck.cards
    return {cards[i]: v for i, v in values}, nodes
