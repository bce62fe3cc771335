"""The ids a UI shows for French Tarot."""

from ...engine import match as mt
from ...engine.moves import MoveKind
from ...engine.state import REDEAL, SCORED, TRICKS
from ..vocabulary_kinds import (
    CONTRACT,
    EXTRA_BONUS,
    FACT,
    GROUP,
    KONTRA,
    LINE,
    MOVE,
    PHASE,
    SETTLEMENT,
    WORD,
)
from . import data as fd

VOCABULARY: dict[str, tuple[str, ...]] = {
    PHASE: ("bidding", "call", "ecart", "chelem", "declare", TRICKS, SCORED, REDEAL),
    MOVE: (
        MoveKind.BID,
        MoveKind.PASS,
        MoveKind.CALL,
        MoveKind.DISCARD,
        MoveKind.ANNOUNCE,
        MoveKind.PLAY,
    ),
    FACT: ("bid", "pass", "call", "discard", "announce"),
    KONTRA: (),
    GROUP: ("chien", "ecart", "poignee"),
    LINE: (fd.CONTRACT_LINE, fd.PETIT_LINE, fd.POIGNEE_LINE, fd.DEFENCE_CHELEM_LINE),
    CONTRACT: (fd.PASSED, "redeal"),
    WORD: ("excuse", "petit", "bout", "chien", "ecart", "taker", "defence"),
    SETTLEMENT: (mt.HAND_SCORE, mt.RECORDED),
    EXTRA_BONUS: fd.MISERES,
}
