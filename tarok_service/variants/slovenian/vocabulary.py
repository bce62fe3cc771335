"""The ids a UI shows for every Slovenian-family rule set (Slovenian tarok, double tarok and
any member made by configuration): one table, shared through `SlovenianFamily`."""

from ...engine import kontra as k
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

VOCABULARY: dict[str, tuple[str, ...]] = {
    PHASE: ("bidding", "calling", "talon", "announce", TRICKS, SCORED, REDEAL),
    MOVE: (
        MoveKind.BID,
        MoveKind.PASS,
        MoveKind.CALL,
        MoveKind.TALON,
        MoveKind.DISCARD,
        MoveKind.ANNOUNCE,
        MoveKind.KONTRA,
        MoveKind.PLAY,
    ),
    FACT: ("bid", "call", "talon", "discard", "announce", "kontra"),
    KONTRA: k.LEVEL_NAMES[1:],
    GROUP: ("talon", "discards", "talon cards given", "declarer's hand"),
    LINE: ("klop", "difference", "valat"),
    CONTRACT: ("redeal",),
    WORD: ("radelc", "mondfang", "mond", "skis", "pagat", "zaruf", "talon"),
    SETTLEMENT: (mt.HAND_SCORE, mt.RADELC_DOUBLE, mt.RADELC_END_PENALTY, mt.RECORDED),
    EXTRA_BONUS: ("game",),
}
