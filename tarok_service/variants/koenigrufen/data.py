"""Königrufen as data: the contracts of the Upper-Austrian tournament tariff, the premiums with
their silent and announced values, and the regional variations as options.

Values are points per player (docs/rules/koenigrufen.md). The contract rows are the Slovenian
family's (`slovenian.data.Contract`): a talon group of 3 is "one half of the talon", 6 the
whole talon (Sechserdreier); `negative` contracts are played with the duty to beat.
"""

from __future__ import annotations

from ...engine.cards import TAROK, Card
from ...engine.options import OptionSpec
from ..slovenian import data as sd
from ..slovenian.data import Contract

TRISCHAKEN, RUFER, PICCOLO, ZWICCOLO, BETTEL = (
    "trischaken",
    "rufer",
    "piccolo",
    "zwiccolo",
    "bettel",
)
SOLORUFER, BESSERRUFER, FARBENDREIER, SECHSERDREIER, DREIER = (
    "solorufer",
    "besserrufer",
    "farbendreier",
    "sechserdreier",
    "dreier",
)
FARBENSOLO, SOLODREIER = "farbensolo", "solodreier"
PICCOLO_OUVERT, BETTEL_OUVERT = "piccolo_ouvert", "bettel_ouvert"

# Low to high: the auction order. A contract's value is per player.
CONTRACTS: tuple[Contract, ...] = (
    Contract(TRISCHAKEN, "Trischaken", 1, negative=True),
    Contract(RUFER, "Rufer", 1, 3, king_call=True, bonuses=True),
    Contract(PICCOLO, "Piccolo", 2, negative=True, declarer_leads=True),
    Contract(ZWICCOLO, "Zwiccolo", 2, negative=True, declarer_leads=True),
    Contract(BETTEL, "Bettel", 2, negative=True, declarer_leads=True),
    Contract(SOLORUFER, "Solorufer", 2, king_call=True, bonuses=True),
    Contract(BESSERRUFER, "Besserrufer", 1, 3, king_call=True, bonuses=True),
    Contract(FARBENDREIER, "Farbendreier", 3, 3, bonuses=True),
    Contract(SECHSERDREIER, "Sechserdreier", 4, 6, bonuses=True),
    Contract(DREIER, "Dreier", 4, 3, bonuses=True),
    Contract(FARBENSOLO, "Farbensolo", 6, bonuses=True),
    Contract(PICCOLO_OUVERT, "Piccolo ouvert", 6, negative=True, declarer_leads=True),
    Contract(BETTEL_OUVERT, "Bettel ouvert", 7, negative=True, declarer_leads=True),
    Contract(SOLODREIER, "Solodreier", 8, bonuses=True),
)
INDEX = {c.id: i for i, c in enumerate(CONTRACTS)}
# Forehand's own contracts, open to him once the three others have passed.
FOREHAND_ONLY = frozenset({INDEX[TRISCHAKEN], INDEX[RUFER], INDEX[SECHSERDREIER]})
KING_CALLS = frozenset({RUFER, SOLORUFER, BESSERRUFER})  # not with all four kings in hand
SOLO_GAMES = frozenset({SOLORUFER, SOLODREIER, FARBENSOLO})  # premiums count double
COLOUR_GAMES = frozenset({FARBENDREIER, FARBENSOLO})  # tarocks do not beat suit cards
SECHSERDREIER_LOST = 8  # a lost Sechserdreier costs 8 per opponent, not 4
# Negative contracts: the number of tricks the declarer must take, and the trick that ends
# the hand early (option `early_end`).
TARGET_TRICKS = {PICCOLO: 1, ZWICCOLO: 2, BETTEL: 0, PICCOLO_OUVERT: 1, BETTEL_OUVERT: 0}
# With the called king in the talon their declarer may concede before taking a half.
CONCEDABLE = frozenset({RUFER, BESSERRUFER})
# Played open: the declarer's hand lies face up from the end of the first trick.
OUVERTS = frozenset({PICCOLO_OUVERT, BETTEL_OUVERT})

# Premium items. The trull, the kings, king ultimo, pagat ultimo and valat keep the Slovenian
# family's ids (the same items); the other birds are Königrufen's own.
TRULL, KINGS, KING_ULTIMO, PAGAT, VALAT = (
    sd.TRULA,
    sd.KINGS,
    sd.KING_ULTIMO,
    sd.PAGAT_ULTIMO,
    sd.VALAT_BONUS,
)
UHU, KAKADU, QUAPIL = "uhu", "kakadu", "quapil"
GAME = sd.GAME

# item -> (name, silent value, announced value); valat's values are multipliers of the game.
BONUS_VALUES: dict[str, tuple[str, int, int]] = {
    TRULL: ("Trull", 1, 2),
    KINGS: ("Kings", 1, 2),
    KING_ULTIMO: ("King ultimo", 1, 2),
    PAGAT: ("Pagat ultimo", 1, 2),
    UHU: ("Uhu", 2, 4),
    KAKADU: ("Kakadu", 3, 6),
    QUAPIL: ("Quapil", 4, 8),
    VALAT: ("Valat", 4, 8),
}
# Each bird, its tarock rank and the trick (1-12) it must win.
BIRDS: dict[str, tuple[int, int]] = {PAGAT: (1, 12), UHU: (2, 11), KAKADU: (3, 10), QUAPIL: (4, 9)}
BIRD_CARDS = {item: Card(TAROK, rank) for item, (rank, _) in BIRDS.items()}
COLOUR_ITEMS = frozenset({KINGS, VALAT})  # the only premiums of a colour game
GROUPS: tuple[tuple[str, ...], ...] = (
    (TRULL,),
    (KINGS,),
    (VALAT,),
    (PAGAT,),
    (UHU,),
    (KAKADU,),
    (QUAPIL,),
    (KING_ULTIMO,),
)

WIN_THIRDS = 107  # the declarer side needs 35 points and 2 Blatt (of 210 thirds)
ALL_THIRDS = 210
BUERGERMEISTER_THIRDS = 107  # Trischaken: a loser with 35 2/3 or more pays double


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("emperor_trick", False, "Skis, Mond and Pagat in one trick: the Pagat wins"),
    OptionSpec("silent_failure_counts", False, "A silent bird or king ultimo that fails costs"),
    OptionSpec("own_king_call", False, "The declarer may call a king he holds (and plays alone)"),
    OptionSpec("kontra_in_score", False, "Kontras count in the score (not only in money)"),
    OptionSpec("zwiccolo", False, "Zwiccolo (exactly two tricks) may be bid"),
    OptionSpec(
        "trischaken_talon",
        "last_trick",
        "Who gets the talon in Trischaken",
        choices=("last_trick", "first_six"),
    ),
    OptionSpec("jungfrauen_full", False, "Trischaken: each Jungfrau gets the loser's whole pay"),
    OptionSpec("early_end", True, "Bettel, Piccolo and Zwiccolo end when they are lost"),
    OptionSpec(
        "concede",
        True,
        "Rufer or Besserrufer with the called king in the talon may be conceded",
    ),
    OptionSpec("max_kontra", 3, "Highest kontra level (1 kontra .. 3 subkontra)", low=0, high=3),
    # Read by the family's exchange: tarocks are laid away only when no suit card is left.
    OptionSpec("discard_taroks_only_if_forced", True, "Tarocks may be discarded only if forced"),
)
