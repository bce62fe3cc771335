"""Every id a UI shows, per rule set: the vocabularies a frontend switches on and translates.

Pure data and pure functions, no language: the server renders an id (and its parameters) in
the viewer's language. `vocabulary(variant)` lists a rule set's ids by kind; `line_key` reads a
score line's stable id and parameters off the line's item.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..engine import kontra as k
from ..engine import match as mt
from ..engine import moves as m
from ..engine.state import REDEAL, SCORED, TRICKS
from ..engine.variant import Variant
from .slovenian.rules import SlovenianFamily
from .tarocco_bolognese import combinations as bc
from .taroky import data as td
from .zwanzigerrufen import data as zd

# Vocabulary kinds.
PHASE, MOVE, FACT, CONTRACT, BONUS, KONTRA = "phase", "move", "fact", "contract", "bonus", "kontra"
LINE, GROUP, DECLARATION, COMBINATION = "line", "group", "declaration", "combination"
CHOICE, PARAM, REASON, CARD = "choice", "param", "reason", "card"
SETTLEMENT = "settlement"  # what a hand or the match end credited a seat (SettledLine.id)
WORD = "word"  # table words a UI shows beside the rules: radelc, žid, contatori ...
# The suffix of a bonus id announced against the playing side (Zwanzigerrufen's kontra items):
# a UI renders `<bonus>_against` as "against <bonus>".
AGAINST = zd.AGAINST

_SLOVENIAN_WORDS = ("radelc", "mondfang", "mond", "skis", "pagat", "zaruf", "talon")

Vocab = dict[str, tuple[str, ...]]

_TRICK_PHASES = (TRICKS, SCORED)
_SLOVENIAN_PHASES = ("bidding", "calling", "talon", "announce", *_TRICK_PHASES, REDEAL)
_SLOVENIAN_MOVES = ("bid", "pass", "call", "talon", "discard", "announce", "kontra", "play")
_SLOVENIAN_FACTS = ("bid", "call", "talon", "discard", "announce", "kontra")
_SLOVENIAN_GROUPS = ("talon", "discards", "talon cards given", "declarer's hand")
_SLOVENIAN_LINES = ("klop", "difference", "valat")
_RADELC_SETTLEMENT = (mt.HAND_SCORE, mt.RADELC_DOUBLE, mt.RADELC_END_PENALTY, mt.RECORDED)
_PLAIN_SETTLEMENT = (mt.HAND_SCORE, mt.RECORDED)

# Per rule set (one table for every Slovenian-family rule set): (phases, move kinds, fact kinds,
# kontra level names, public groups, extra score-line ids beyond contracts and bonuses, extra
# contract ids of results).
_FAMILY = "slovenian family"
_TABLES: dict[str, dict[str, tuple[str, ...]]] = {
    _FAMILY: {
        PHASE: _SLOVENIAN_PHASES,
        MOVE: _SLOVENIAN_MOVES,
        FACT: _SLOVENIAN_FACTS,
        KONTRA: k.LEVEL_NAMES[1:],
        GROUP: _SLOVENIAN_GROUPS,
        LINE: _SLOVENIAN_LINES,
        CONTRACT: ("redeal",),
        WORD: _SLOVENIAN_WORDS,
        SETTLEMENT: _RADELC_SETTLEMENT,
    },
    "zwanzigerrufen": {
        PHASE: ("auction", *_TRICK_PHASES, REDEAL),
        MOVE: ("bid", "pass", "end", "announce", "kontra", "play"),
        FACT: ("bid", "call", "announce", "kontra"),
        KONTRA: zd.KONTRA_NAMES[1:],
        GROUP: (),
        LINE: (zd.GAME, zd.TRULL, zd.KING_TRULL, zd.MONDFANG),
        CONTRACT: ("redeal",),
        WORD: ("mond", "skis", "pagat", "glatze", "forehand"),
        SETTLEMENT: _PLAIN_SETTLEMENT,
    },
    "taroky": {
        PHASE: (
            "bidding",
            "varsava_choice",
            "calling",
            "third_talon",
            "exchange",
            "declaring",
            *_TRICK_PHASES,
            "misdeal",
        ),
        MOVE: ("bid", "pass", "call", "talon", "discard", "announce", "kontra", "play"),
        FACT: ("bid", "pass", "call", "talon", "discard", "declaration", "announce", "kontra"),
        KONTRA: k.FLEK_NAMES[1:],
        GROUP: (
            "discards",
            "rejected talon 1",
            "rejected talon 2",
            "talon looked at",
            "talon received",
            "talon cards given",
        ),
        LINE: ("game", "misdeal", "zid taken", "zid doubled"),
        CONTRACT: ("misdeal",),
        CHOICE: ("keep", "reject"),
        WORD: ("zid", "obligation", "skis", "pagat", "mond", "talon"),
        SETTLEMENT: (mt.HAND_SCORE, mt.ZID_PAYMENT, mt.ZID_TAKEN, mt.RECORDED),
    },
    "tarocco_bolognese": {
        PHASE: ("discard", "declare", TRICKS, "matto", SCORED),
        MOVE: ("discard", "declare", "pass", "play", "give"),
        FACT: ("declare", "pass", "give"),
        KONTRA: (),
        GROUP: ("declared", "discards"),
        LINE: ("cards", "last trick", "opponents' total", "sets doubled", "sequences doubled"),
        CONTRACT: (),
        WORD: ("contatori", "set", "sequence", "matto"),
        SETTLEMENT: _PLAIN_SETTLEMENT,
    },
}

BOLOGNESE_COMBINATIONS = (
    bc.TAROCCHI,
    bc.KINGS_SET,
    bc.QUEENS,
    bc.CAVALLI,
    bc.JACKS,
    bc.ACES_SEQ,
    bc.MOORS_SEQ,
    bc.GRANDE,
    "swords",
    "batons",
    "cups",
    "coins",
)

# How a score line was reached, as its item states it (the order parameters are shown in).
PARAMS = ("silent", "announced", "won", "lost", "made", "opponents", "captured", "declared")
REASONS = tuple(sorted(reason.value for reason in m.Reason))


def ident(text: str) -> str:
    """An id from a word or phrase: "last trick" -> "last_trick", "declarer's hand" ->
    "declarers_hand"."""
    out: list[str] = []
    for ch in text.lower().replace("'", ""):
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "_":
            out.append("_")
    return "".join(out).strip("_")


def _family_or_id(variant: Variant[Any]) -> str:
    """The key of a rule set's tables: its family's for a Slovenian-family rule set."""
    return _FAMILY if isinstance(variant, SlovenianFamily) else variant.id


@cache
def vocabulary(variant: Variant[Any]) -> Vocab:
    """Every id of `variant`'s vocabularies, by kind, in a stable order."""
    table = _TABLES[_family_or_id(variant)]
    contracts: list[str] = []
    bonuses: list[str] = []
    for players in variant.player_counts:
        contracts += [c.id for c in variant.contracts(players) if c.id not in contracts]
        bonuses += [b.id for b in variant.bonuses(players) if b.id not in bonuses]
    contracts += [c for c in table[CONTRACT] if c not in contracts]
    out: Vocab = {
        PHASE: table[PHASE],
        MOVE: table[MOVE],
        FACT: table[FACT],
        CONTRACT: tuple(contracts),
        BONUS: tuple(bonuses + _extra_bonuses(_family_or_id(variant), bonuses)),
        KONTRA: table[KONTRA],
        GROUP: tuple(ident(g) for g in table[GROUP]),
        LINE: tuple(dict.fromkeys((*contracts, *bonuses, *(ident(x) for x in table[LINE])))),
        PARAM: PARAMS,
        REASON: REASONS,
        WORD: table[WORD],
        SETTLEMENT: table[SETTLEMENT],
    }
    if variant.id == "taroky":
        out[DECLARATION] = tuple(td.DECLARATIONS)
        out[CHOICE] = table[CHOICE]
        out[LINE] = tuple(dict.fromkeys((*out[LINE], *td.DECLARATIONS, td.VARSAVA)))
    if variant.id == "tarocco_bolognese":
        out[COMBINATION] = BOLOGNESE_COMBINATIONS
        out[LINE] = (*out[LINE], "combination")
    return out


def _extra_bonuses(variant_id: str, listed: list[str]) -> list[str]:
    """Announceable items a rule set's bonus table does not list."""
    if variant_id == "zwanzigerrufen":
        extra: tuple[str, ...] = (zd.GAME, *zd.ADDITIONS)
    elif variant_id == "taroky":
        extra = (td.GAME, td.PAGAT, td.VALAT)
    elif variant_id == _FAMILY:
        extra = ("game",)
    else:
        extra = ()
    return [x for x in extra if x not in listed]


_DECLARED = "declared by seat "


def line_key(item: str) -> tuple[str, dict[str, str]]:
    """A score line's stable id and parameters, read off its item.

    "pagat ultimo (silent)" -> ("pagat_ultimo", {"mode": "silent"}); "opponents' trula
    (announced)" -> ("trula", {"mode": "announced", "team": "opponents"}); "valat against
    (announced, lost, kontra)" -> ("valat", {"team": "opponents", "mode": "announced",
    "outcome": "lost", "kontra": "kontra", "multiplier": "2"}); "captured: kings x3" ->
    ("combination", {"combination": "kings", "count": "3", "source": "captured"}).
    """
    params: dict[str, str] = {}
    source, sep, rest = item.partition(": ")
    if sep:
        seat = source.removeprefix(_DECLARED)
        if source.startswith(_DECLARED) and seat.isdigit():
            params.update(source="declared", seat=seat)
        else:
            params["source"] = ident(source)
        combo, x, count = rest.rpartition(" x")
        if x and combo.isalpha() and count.isdigit():
            params.update(combination=combo, count=count)
            return "combination", params
        return ident(rest), params
    name, how = item, ""
    if item.endswith(")") and " (" in item:
        name, how = item[:-1].rsplit(" (", 1)
    if name.startswith("opponents' ") and name != "opponents' total":
        params["team"] = "opponents"
        name = name.removeprefix("opponents' ")
    if name.endswith(" against"):
        params["team"] = "opponents"
        name = name.removesuffix(" against")
    for word in how.split(","):
        _how(word.strip(), params)
    return ident(name), params


def _how(word: str, params: dict[str, str]) -> None:
    if word in ("silent", "announced"):
        params["mode"] = word
    elif word in ("won", "lost", "made"):
        params["outcome"] = word
    elif word in zd.KONTRA_NAMES[1:]:
        params["kontra"] = word
        params["multiplier"] = str(k.multiplier(zd.KONTRA_NAMES.index(word)))
