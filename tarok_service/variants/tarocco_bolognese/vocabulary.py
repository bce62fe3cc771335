"""The ids a UI shows for Tarocco bolognese."""

from ...engine import match as mt
from ...engine.moves import MoveKind
from ...engine.state import SCORED, TRICKS
from ..vocabulary_kinds import (
    COMBINATION,
    CONTRACT,
    EXTRA_LINE,
    FACT,
    GROUP,
    KONTRA,
    LINE,
    MOVE,
    PHASE,
    SETTLEMENT,
    WORD,
)
from . import combinations as bc

VOCABULARY: dict[str, tuple[str, ...]] = {
    PHASE: ("discard", "declare", TRICKS, "matto", SCORED),
    MOVE: (MoveKind.DISCARD, MoveKind.DECLARE, MoveKind.PASS, MoveKind.PLAY, MoveKind.GIVE),
    FACT: ("declare", "pass", "give"),
    KONTRA: (),
    GROUP: ("declared", "discards"),
    LINE: ("cards", "last trick", "opponents' total", "sets doubled", "sequences doubled"),
    CONTRACT: (),
    WORD: ("contatori", "set", "sequence", "matto"),
    SETTLEMENT: (mt.HAND_SCORE, mt.RECORDED),
    COMBINATION: (
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
    ),
    EXTRA_LINE: ("combination",),
}
