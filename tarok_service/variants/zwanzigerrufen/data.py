"""Zwanzigerrufen (StarGames tarock) as data: games, additions, values and options.

The site's own rules win where they are explicit (docs/rules/zwanzigerrufen.md). Values are in
units of the game value ("vrednost igre"); money is the payout layer's business
(zwanzigerrufen_payout).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import MOND, PAGAT, SKIS, TAROK, Card
from ...engine.options import OptionSpec

# Games, low to high (move `bid:<id>`).
CALL, COLOUR_SOLO, SOLO = "call", "colour_solo", "solo"
GAMES = (CALL, COLOUR_SOLO, SOLO)
GAME_NAMES = {CALL: "Call", COLOUR_SOLO: "Colour solo", SOLO: "Solo"}
GAME_RANK = {g: i for i, g in enumerate(GAMES)}

# Scored items. Additions exist once per side: `absolut` is the playing side's,
# `absolut_against` the opponents' ("proti igri"). `game` is the game itself.
GAME = "game"
ABSOLUT, PAGAT_ITEM, VALAT = "absolut", "pagat", "valat"
ADDITIONS = (ABSOLUT, PAGAT_ITEM, VALAT)
AGAINST = "_against"
KONTRA_ITEMS = (GAME, *ADDITIONS, *(a + AGAINST for a in ADDITIONS))
TRULL, KING_TRULL, MONDFANG = "trull", "king_trull", "mondfang"

KONTRA_NAMES = ("", "kontra", "rekontra", "subkontra")

TRULL_CARDS = (Card(TAROK, PAGAT), Card(TAROK, MOND), Card(TAROK, SKIS))
CALLABLE_RANKS = (20, 19, 18, 17, 16)  # XX, else the highest of XIX-XVI not held

WIN = 45  # card points the playing side needs (even when kontra'd; 44:44 loses)
ABSOLUT_POINTS = 56
TOTAL_POINTS = 88
TRICKS = 10


def item_id(addition: str, playing_side: bool) -> str:
    """The item an addition becomes when announced by a player of the given side."""
    return addition if playing_side else addition + AGAINST


def base_addition(item: str) -> str:
    """`absolut_against` -> `absolut`; the game and own-side items are unchanged."""
    return item.removesuffix(AGAINST)


def owned_by_playing_side(item: str) -> bool:
    """Whether the item belongs to the playing side (the game does)."""
    return not item.endswith(AGAINST)


@dataclass(frozen=True)
class Values:
    """One game's values in units: (silent, announced) pairs; 0 = not scored."""

    game: int
    absolut: tuple[int, int]
    pagat: tuple[int, int]
    valat: tuple[int, int]
    trull: int
    king_trull: int
    mondfang: int

    def addition(self, name: str) -> tuple[int, int]:
        return {ABSOLUT: self.absolut, PAGAT_ITEM: self.pagat, VALAT: self.valat}[name]


VALUES: dict[str, Values] = {
    CALL: Values(1, (1, 2), (1, 2), (6, 12), 1, 1, 1),
    SOLO: Values(4, (2, 4), (2, 4), (12, 24), 2, 2, 2),
    COLOUR_SOLO: Values(4, (2, 4), (0, 0), (12, 24), 0, 2, 0),
}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "call_honours_from",
        "hand",
        "Call game: trull and king trull are held in the dealt hand, or won in tricks",
        choices=("hand", "tricks"),
    ),
    OptionSpec(
        "trull_trick_mondfang",
        False,
        "A trull trick (the pagat wins it) also charges mondfang to the mond's side",
    ),
    OptionSpec(
        "silent_valat_game_kontra",
        False,
        "A silent valat is multiplied by the kontra level on the game",
    ),
    OptionSpec(
        "colour_solo_min_suits", 5, "Suit cards needed to announce colour solo", low=1, high=10
    ),
    OptionSpec(
        "max_kontra", 3, "Highest kontra level (1 kontra, 2 rekontra, 3 subkontra)", low=0, high=3
    ),
)
