"""The ids a UI shows for Zwanzigerrufen."""

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
from . import data as zd

VOCABULARY: dict[str, tuple[str, ...]] = {
    PHASE: ("auction", TRICKS, SCORED, REDEAL),
    MOVE: (
        MoveKind.BID,
        MoveKind.PASS,
        MoveKind.END,
        MoveKind.ANNOUNCE,
        MoveKind.KONTRA,
        MoveKind.PLAY,
    ),
    FACT: ("bid", "call", "announce", "kontra"),
    KONTRA: zd.KONTRA_NAMES[1:],
    GROUP: (),
    LINE: (zd.GAME, zd.TRULL, zd.KING_TRULL, zd.MONDFANG),
    CONTRACT: ("redeal",),
    WORD: ("mond", "skis", "pagat", "glatze", "forehand"),
    SETTLEMENT: (mt.HAND_SCORE, mt.RECORDED),
    EXTRA_BONUS: (zd.GAME, *zd.ADDITIONS),
}
