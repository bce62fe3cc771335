"""Slovenian tarok as data: contracts, bonuses and options."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...engine import tricks as t
from ...engine.options import OptionSpec


@dataclass(frozen=True)
class Contract:
    """One contract: value, talon group size (0 = no exchange) and how it is played."""

    id: str
    name: str
    value: int
    talon_group: int = 0
    king_call: bool = False
    bonuses: bool = False
    negative: bool = False
    declarer_leads: bool = False
    solo_only_4p: bool = False  # the solo three/two/one exist with 4 players only
    fixed: bool = False  # scored as a fixed +-value (no difference, no bonuses)


KLOP, THREE, TWO, ONE, SOLO_THREE, SOLO_TWO, SOLO_ONE = range(7)
BEGGAR, SOLO_WITHOUT, OPEN_BEGGAR, COLOUR_VALAT, VALAT = range(7, 12)

CONTRACTS: tuple[Contract, ...] = (
    Contract("klop", "Klop", 70, negative=True),
    Contract("three", "Three", 10, 3, king_call=True, bonuses=True),
    Contract("two", "Two", 20, 2, king_call=True, bonuses=True),
    Contract("one", "One", 30, 1, king_call=True, bonuses=True),
    Contract("solo_three", "Solo three", 40, 3, bonuses=True, solo_only_4p=True),
    Contract("solo_two", "Solo two", 50, 2, bonuses=True, solo_only_4p=True),
    Contract("solo_one", "Solo one", 60, 1, bonuses=True, solo_only_4p=True),
    Contract("beggar", "Beggar", 70, negative=True, declarer_leads=True, fixed=True),
    Contract("solo_without", "Solo without", 80, declarer_leads=True, fixed=True),
    Contract("open_beggar", "Open beggar", 90, negative=True, declarer_leads=True, fixed=True),
    Contract("colour_valat", "Colour valat", 125, declarer_leads=True, fixed=True),
    Contract("valat", "Valat", 500, declarer_leads=True, fixed=True),
)
CONTRACT_INDEX = {c.id: i for i, c in enumerate(CONTRACTS)}
FOREHAND_ONLY = frozenset({KLOP, THREE})

# Bonus items: (id, name, silent value, announced value)
TRULA, KINGS, KING_ULTIMO, PAGAT_ULTIMO, VALAT_BONUS = (
    "trula",
    "kings",
    "king_ultimo",
    "pagat_ultimo",
    "valat",
)
GAME = "game"
BONUS_VALUES: dict[str, tuple[str, int, int]] = {
    TRULA: ("Trula", 10, 20),
    KINGS: ("Kings", 10, 20),
    KING_ULTIMO: ("King ultimo", 10, 20),
    PAGAT_ULTIMO: ("Pagat ultimo", 25, 50),
    VALAT_BONUS: ("Valat", 250, 500),
}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("mondfang_penalty", 21, "Penalty for a captured mond", low=0, high=100),
    OptionSpec("mondfang_solo_without", False, "Charge mondfang in solo without (OpenSpiel)"),
    OptionSpec("mondfang_with_valat", True, "Charge mondfang when a valat is scored"),
    OptionSpec("klop_round5", True, "Round klop scores to 5"),
    OptionSpec("klop_empty_with_full", True, "An empty player scores even when another is full"),
    OptionSpec("round_difference", True, "Round the card-point difference to 5"),
    OptionSpec(
        "emperor_order",
        "any",
        "Order in which the trula must fall for the emperor's trick",
        choices=("any", "pagat_last", "mond_skis_pagat"),
    ),
    OptionSpec("colour_valat_3p", True, "Colour valat is biddable with 3 players"),
    OptionSpec("discard_taroks_only_if_forced", False, "Taroks may be discarded only if forced"),
    OptionSpec("kontra_trula_kings", True, "Trula and kings announcements may be kontra'd"),
    OptionSpec(
        "failed_announced_valat_mode",
        "valat_only",
        "A failed announced valat scores alone or is added",
        choices=("valat_only", "add"),
    ),
    OptionSpec(
        "radelc_end_penalty", 40, "Penalty per uncrossed radelc at the end", low=0, high=500
    ),
    OptionSpec("radelc_mode", "declarer", "Whose radelc doubles", choices=("declarer", "own")),
    OptionSpec("radelc_silent_valat", False, "A silent valat also awards radelci"),
    OptionSpec("max_kontra", 4, "Highest kontra level (1 kontra .. 4 mort)", low=0, high=4),
)


@cache
def trick_rules(kind: str, emperor_order: str, tie: str) -> t.TrickRules:
    """The trick rules of a normal contract (kind ""), a negative one or colour valat."""
    if kind == "colour_valat":
        return t.TrickRules(
            trumps_win=False, emperor_needs_tarok_lead=True, emperor_order=emperor_order, tie=tie
        )
    if kind == "negative":
        return t.TrickRules(
            must_overtake=True, pagat_last=True, emperor_order=emperor_order, tie=tie
        )
    return t.TrickRules(emperor_order=emperor_order, tie=tie)
