"""The ids a UI shows for Czech taroky."""

from ...engine import kontra as k
from ...engine import match as mt
from ...engine.moves import MoveKind
from ...engine.state import SCORED, TRICKS
from ..vocabulary_kinds import (
    CHOICE,
    CONTRACT,
    DECLARATION,
    EXTRA_BONUS,
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
from . import data as td

VOCABULARY: dict[str, tuple[str, ...]] = {
    PHASE: (
        "bidding",
        "varsava_choice",
        "calling",
        "third_talon",
        "exchange",
        "declaring",
        TRICKS,
        SCORED,
        "misdeal",
    ),
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
    EXTRA_BONUS: (td.GAME, td.PAGAT, td.VALAT),
    DECLARATION: tuple(td.DECLARATIONS),
    EXTRA_LINE: (*td.DECLARATIONS, td.VARSAVA),
}
