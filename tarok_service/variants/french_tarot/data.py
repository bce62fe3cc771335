"""French Tarot's tables: the 78-card pack, contracts, poignée steps, targets and options.

Card points are kept in half points (a bout or king 9, queen 7, cavalier 5, jack 3, any other
card 1; the pack 182), so that every sum is an integer; the rules page speaks of whole points.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import CLUBS, DIAMONDS, FOOL, HEARTS, SPADES, SUIT_SYMBOLS, TAROK, Card, Deck
from ...engine.options import OptionSpec, Rules

SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)  # the pack's order
KING, QUEEN, CAVALIER, JACK = 14, 13, 12, 11
FACES = {KING: "K", QUEEN: "Q", CAVALIER: "N", JACK: "J"}
HALF_POINTS = {KING: 9, QUEEN: 7, CAVALIER: 5, JACK: 3}

EXCUSE = Card(FOOL, 0)
PETIT = Card(TAROK, 1)
TWENTY_ONE = Card(TAROK, 21)
BOUTS = frozenset({PETIT, TWENTY_ONE, EXCUSE})
PACK_HALF_POINTS = 182


def _code(c: Card) -> str:
    if c == EXCUSE:
        return "EX"
    if c.suit == TAROK:
        return f"T{c.rank}"
    return c.suit + FACES.get(c.rank, str(c.rank))


def _label(c: Card) -> str:
    if c == EXCUSE:
        return "Excuse"
    if c.suit == TAROK:
        return f"Trump {c.rank}"
    return SUIT_SYMBOLS[c.suit] + FACES.get(c.rank, str(c.rank))


def _half_points(c: Card) -> int:
    if c in BOUTS:
        return 9
    if c.suit == TAROK:
        return 1
    return HALF_POINTS.get(c.rank, 1)


def tarot78() -> Deck:
    """Trumps 1 (the petit) .. 21, the excuse, then spades, hearts, diamonds, clubs K .. 1."""
    cards = [Card(TAROK, r) for r in range(1, 22)] + [EXCUSE]
    for suit in SUITS:
        cards += [Card(suit, r) for r in range(KING, 0, -1)]
    return Deck("tarot78", cards, _code, _label, _half_points)


DECK = tarot78()

# contract id -> (English name, default multiplier); low to high
PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = "prise", "garde", "garde_sans", "garde_contre"
CONTRACTS = (PRISE, GARDE, GARDE_SANS, GARDE_CONTRE)
CONTRACT_NAMES = {
    PRISE: "Prise (petite)",
    GARDE: "Garde",
    GARDE_SANS: "Garde sans le chien",
    GARDE_CONTRE: "Garde contre le chien",
}
MULTIPLIERS = {PRISE: 1, GARDE: 2, GARDE_SANS: 4, GARDE_CONTRE: 6}
WITH_CHIEN = frozenset({PRISE, GARDE})  # the taker takes the chien and lays an écart
PASSED = "passed"  # the contract of a hand that everybody passed


@dataclass(frozen=True)
class Table:
    """Per player count: cards per hand and in the chien, poignée steps."""

    hand: int
    chien: int
    poignees: tuple[int, int, int]  # trumps shown for a simple, double, triple poignée


TABLES = {
    3: Table(24, 6, (13, 15, 18)),
    4: Table(18, 6, (10, 13, 15)),
    5: Table(15, 3, (8, 10, 13)),
}

# option poignee_thresholds -> per player count, the trumps a simple/double/triple poignée shows:
# the federation's steps (TABLES), or the longest house steps (3 players 22, 5 players 15)
POIGNEE_THRESHOLDS = {
    "federation": {n: table.poignees for n, table in TABLES.items()},
    "house": {3: (13, 15, 22), 4: (10, 13, 15), 5: (8, 10, 15)},
}


def poignee_sizes(rules: Rules, players: int) -> tuple[int, int, int]:
    """Trumps shown for a simple, double and triple poignée at this table."""
    return POIGNEE_THRESHOLDS[str(rules.opt("poignee_thresholds"))][players]


# bouts in the attack's pile -> half points needed
TARGETS = (112, 102, 82, 72)

CHELEM = "chelem"
POIGNEES = ("poignee_simple", "poignee_double", "poignee_triple")
MISERE_TRUMPS, MISERE_HEADS = "misere_trumps", "misere_heads"
MISERES = (MISERE_TRUMPS, MISERE_HEADS)
POIGNEE_VALUES = {"20/30/40": (20, 30, 40), "20/40/60": (20, 40, 60)}

# score line items
CONTRACT_LINE, PETIT_LINE, POIGNEE_LINE = "contract", "petit au bout", "poignee"
CHELEM_LINE, DEFENCE_CHELEM_LINE, MISERE_LINE = "chelem", "defence chelem", "misere"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "base_points", 25, "points every contract is worth before the difference", low=1, high=100
    ),
    OptionSpec("prise_allowed", True, "the lowest contract, prise (petite), may be bid"),
    OptionSpec("prise_multiplier", 1, "the multiplier of a prise (petite)", low=1, high=2),
    OptionSpec(
        "petit_au_bout", 10, "petit au bout bonus before the multiplier (0: none)", low=0, high=50
    ),
    OptionSpec(
        "poignee_values",
        "20/30/40",
        "simple/double/triple poignée bonuses",
        choices=tuple(POIGNEE_VALUES),
    ),
    OptionSpec(
        "poignee_thresholds",
        "federation",
        "trumps a poignée shows: federation 13/15/18, 10/13/15, 8/10/13 (3, 4, 5 players);"
        " house 13/15/22, 10/13/15, 8/10/15",
        choices=tuple(POIGNEE_THRESHOLDS),
    ),
    OptionSpec("chelem_announced_made", 400, "announced chelem made", low=0, high=1000),
    OptionSpec(
        "chelem_unannounced_made", 200, "chelem made without announcement", low=0, high=1000
    ),
    OptionSpec("chelem_announced_failed", 200, "announced chelem failed (paid)", low=0, high=1000),
    OptionSpec(
        "chelem_defense",
        200,
        "the defence takes every trick (paid by the attack)",
        low=0,
        high=1000,
    ),
    OptionSpec(
        "chelem_excuse_wins",
        True,
        "the excuse led to the last trick by a side that won every trick wins it",
    ),
    OptionSpec(
        "difference_round_to", 1, "round the difference to a multiple of", choices=(1, 5, 10)
    ),
    OptionSpec(
        "excuse_last_trick",
        "to_winner",
        "an excuse in the last trick goes to that trick's winner",
        choices=("to_winner", "keep"),
    ),
    OptionSpec(
        "excuse_unpaid",
        "transfer",
        "the half point a side without tricks owes for its excuse",
        choices=("transfer", "keep"),
    ),
    OptionSpec(
        "ecart_trumps",
        "if_forced",
        "trumps in the écart: only when unavoidable, or freely",
        choices=("if_forced", "allowed"),
    ),
    OptionSpec(
        "petit_sec_redeal", True, "a hand whose only trump is the petit (no excuse) is dealt again"
    ),
    OptionSpec(
        "called_suit_first_lead",
        True,
        "5 players: no card of the called suit but the called card led to the first trick",
    ),
    OptionSpec("misere", False, "misère of trumps and of heads may be declared"),
    OptionSpec("misere_value", 10, "what a misère is paid by each other player", low=1, high=100),
    OptionSpec("deal_packet", 3, "cards per packet (4 only with 3 players)", choices=(3, 4)),
)
