"""Czech taroky as data: obligations, declarations, option specs."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.options import OptionSpec


@dataclass(frozen=True)
class Obligation:
    """One game ("povinnost"): how the talon is used and what it plays for."""

    id: str
    name: str
    multiplier: int  # talon multiplier of the game part (the third's 1/2/4 is chosen later)
    calls: bool = False  # plays with the holder of the called tarok (XIX, XVIII, XVII)
    pagat_zid: bool = False  # must take the last trick with the pagat; played for the zid
    talon: str = "split"  # split 4+1+1 | third (look at threes) | winner (sixth) | gifts


BASIC, SECOND, THIRD, SIXTH = "basic", "second", "third", "sixth"
VARSAVA = "varsava"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(BASIC, "Základní povinnost (basic obligation)", 1, calls=True),
    Obligation(SECOND, "Druhá povinnost (second obligation)", 1, calls=True, pagat_zid=True),
    Obligation(THIRD, "Třetí povinnost (third obligation)", 1, talon="third"),
    Obligation(SIXTH, "Šestá povinnost (sixth obligation)", 32, talon="winner"),
)
VARSAVA_GAME = Obligation(VARSAVA, "Varšava (each for himself)", 0, talon="gifts")
OBLIGATION_INDEX = {o.id: i for i, o in enumerate(OBLIGATIONS)}
BY_ID = {o.id: o for o in (*OBLIGATIONS, VARSAVA_GAME)}

# Split of the talon in the basic and second obligation: declarer, then the next two players.
SPLIT = (4, 1, 1)
THREE = 3  # the third obligation looks at the talon in groups of three
THIRD_MULTIPLIERS = (1, 2, 4)  # first three kept, second three kept, first three taken back

# Revealing declarations ("prozrazující hlášky"): (id, name, big?)
BARVICKA, VELKA_BARVA, TAROCKY, TAROKY = "barvicka", "velka_barva", "tarocky", "taroky"
TRUL, HONERY, TRULHONERY, KRALOVSKE_HONERY = "trul", "honery", "trulhonery", "kralovske_honery"
DECLARATIONS: dict[str, tuple[str, bool]] = {
    BARVICKA: ("Barvička (1-2 taroks)", False),
    VELKA_BARVA: ("Velká barva (no tarok)", True),
    TAROCKY: ("Taročky (8-9 taroks)", False),
    TAROKY: ("Taroky (10+ taroks)", True),
    TRUL: ("Trul (I, XXI, škýz)", False),
    HONERY: ("Honéry (4 five-point cards)", False),
    TRULHONERY: ("Trulhonéry (trul and a king)", True),
    KRALOVSKE_HONERY: ("Královské honéry (4 kings)", True),
}

# Binding declarations ("zavazující") and the flek item.
PAGAT, VALAT, GAME = "pagat", "valat", "game"
BINDING_NAMES = {PAGAT: "Pagát", VALAT: "Valát"}

VARSAVA_BANDS = ((30, 200), (15, 100))  # (at least these card points, pay into the zid), seed
MISDEAL_PAYMENT = 100  # a misdeal pays into the zid (seed)
HALF = 35  # a side needs more than half of the 70 card points

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("small_declaration", 10, "Value of a small declaration", low=0, high=1000),
    OptionSpec("big_declaration", 20, "Value of a big declaration", low=0, high=1000),
    OptionSpec("pagat_silent", 50, "Pagat won in the last trick, silent", low=0, high=1000),
    OptionSpec("pagat_announced", 100, "Pagat announced", low=0, high=2000),
    OptionSpec("valat_silent", 100, "Valat made silently", low=0, high=2000),
    OptionSpec("valat_announced", 200, "Valat announced", low=0, high=4000),
    OptionSpec("max_flek", 2, "Highest flek level: 1 flek, 2 reflek, 3 sup", low=0, high=3),
    OptionSpec("call_xvi", False, "The declarer holding XIX-XVII may call XVI"),
    OptionSpec("discard_taroks_only_if_forced", False, "Taroks may be discarded only if forced"),
    OptionSpec(
        "sixth_talon_to",
        "points",
        "Sixth: the talon goes to the side ahead without it, or the last trick's",
        choices=("points", "last_trick"),
    ),
    OptionSpec("second_needs_points", True, "A won second also needs 36 card points"),
    OptionSpec(
        "zid_lost_payer",
        "split",
        "Who pays the pot into the zid when the second is lost",
        choices=("split", "declarer"),
    ),
)
