"""Double tarok (two packs, 4 / 6 / 8 players) as data: contracts, bonuses, options.

everything not stated here follows Slovenian tarok.
"""

from __future__ import annotations

from ...engine.options import OptionSpec
from ..slovenian import data as sd
from ..slovenian.data import Contract

CONTRACTS: tuple[Contract, ...] = (
    Contract("klop", "Klop", 70, negative=True),
    Contract("six", "Six (šestica)", 10, 6, king_call=True, bonuses=True),
    Contract("four", "Four (štirica)", 20, 4, king_call=True, bonuses=True),
    Contract("three", "Three (trojka)", 30, 3, king_call=True, bonuses=True),
    Contract("two", "Two (dvojka)", 40, 2, king_call=True, bonuses=True),
    Contract("one", "One (enka)", 50, 1, king_call=True, bonuses=True),
    Contract("solo_six", "Solo six", 60, 6, bonuses=True),
    Contract("solo_four", "Solo four", 70, 4, bonuses=True),
    Contract("solo_three", "Solo three", 80, 3, bonuses=True),
    Contract("solo_two", "Solo two", 90, 2, bonuses=True),
    Contract("solo_one", "Solo one", 100, 1, bonuses=True),
    Contract("beggar", "Beggar (berač)", 110, negative=True, declarer_leads=True, fixed=True),
    Contract("solo_without", "Solo without", 120, declarer_leads=True, fixed=True),
    Contract("colour_valat", "Colour valat", 200, declarer_leads=True, fixed=True),
    Contract("valat", "Valat", 500, declarer_leads=True, fixed=True),
)
CONTRACT_INDEX = {c.id: i for i, c in enumerate(CONTRACTS)}
KLOP, SIX = CONTRACT_INDEX["klop"], CONTRACT_INDEX["six"]
# by option six_forehand_only: the contracts only forehand may choose
FOREHAND_ONLY = {True: frozenset({KLOP, SIX}), False: frozenset({KLOP})}

# Bonus items. Items of one group are listed low to high; a team scores one item per group.
KINGS, TRULA, PAGAT_ULTIMO, KING_ULTIMO, VALAT_BONUS = (
    sd.KINGS,
    sd.TRULA,
    sd.PAGAT_ULTIMO,
    sd.KING_ULTIMO,
    sd.VALAT_BONUS,
)
COLOUR_KINGS, DOUBLE_KINGS = "colour_kings", "double_kings"
COLOUR_TRULA, DOUBLE_TRULA = "colour_trula", "double_trula"
DOUBLE_PAGAT_ULTIMO, DOUBLE_KING_ULTIMO = "double_pagat_ultimo", "double_king_ultimo"

KINGS_GROUP = (KINGS, COLOUR_KINGS, DOUBLE_KINGS)
TRULA_GROUP = (TRULA, COLOUR_TRULA, DOUBLE_TRULA)
PAGAT_GROUP = (PAGAT_ULTIMO, DOUBLE_PAGAT_ULTIMO)
KING_ULTIMO_GROUP = (KING_ULTIMO, DOUBLE_KING_ULTIMO)
GROUPS = (KINGS_GROUP, TRULA_GROUP, PAGAT_GROUP, KING_ULTIMO_GROUP)

# item -> (name, announced value); silent = half ("tiha vrednost je polovična").
ANNOUNCED: dict[str, tuple[str, int]] = {
    KINGS: ("Kings", 20),
    COLOUR_KINGS: ("Colour kings", 30),
    DOUBLE_KINGS: ("Double kings", 40),
    TRULA: ("Trula", 20),
    COLOUR_TRULA: ("Colour trula", 30),
    DOUBLE_TRULA: ("Double trula", 40),
    PAGAT_ULTIMO: ("Pagat ultimo", 50),
    DOUBLE_PAGAT_ULTIMO: ("Double pagat ultimo", 100),
    KING_ULTIMO: ("King ultimo", 20),
    DOUBLE_KING_ULTIMO: ("Double king ultimo", 20),
    VALAT_BONUS: ("Valat", 500),
}


def bonus_values(double_king_ultimo: int) -> dict[str, tuple[str, int, int]]:
    """item -> (name, silent, announced), with the table's double king ultimo value."""
    table = {}
    for item, (name, value) in ANNOUNCED.items():
        if item == DOUBLE_KING_ULTIMO:
            value = double_king_ultimo
        table[item] = (name, value // 2, value)
    return table


_INHERITED = tuple(o for o in sd.OPTIONS if o.name != "colour_valat_3p")

OPTIONS: tuple[OptionSpec, ...] = (
    *_INHERITED,
    OptionSpec(
        "klop_value",
        70,
        "Klop: what an empty player wins and a full one (over 70) loses",
        choices=(70, 140),
    ),
    OptionSpec(
        "double_king_ultimo_value",
        20,
        "Announced double king ultimo: 20 as the original table says, or 40 if that is a slip",
        choices=(20, 40),
    ),
    OptionSpec(
        "announced_made_higher",
        "silent_higher",
        "An announced item made only as a higher item of its group scores as that item silent "
        "(the original's literal trula rule) or as the announced item made",
        choices=("silent_higher", "announced"),
    ),
    OptionSpec(
        "silent_beside_announcement",
        True,
        "A team's silent item counts even when the other team announced in the same group",
    ),
    OptionSpec(
        "talon_exchange",
        "groups",
        "The talon is split into equal groups and one is taken, or the declarer takes "
        "any cards of it, as many as the contract exchanges",
        choices=("groups", "free"),
    ),
    OptionSpec(
        "double_pagat_failure",
        "double",
        "Both pagats of one side in the last trick, losing it with nothing announced: the "
        "side pays the silent double pagat ultimo, or the silent single one",
        choices=("double", "single"),
    ),
    OptionSpec(
        "six_forehand_only",
        True,
        "Six (the lowest call game) and klop are forehand's only, as three is in ordinary tarok",
    ),
)
