"""The ids a UI shows for Königrufen: the Slovenian family's, with its own kontra levels
(kontra, rekontra, subkontra), lines and words."""

from ...engine import kontra as k
from ..slovenian.vocabulary import VOCABULARY as FAMILY
from ..vocabulary_kinds import KONTRA, LINE, WORD

VOCABULARY: dict[str, tuple[str, ...]] = {
    **FAMILY,
    KONTRA: k.LEVEL_NAMES[1:4],
    LINE: ("game", "valat", "trischaken"),
    WORD: ("mond", "skis", "pagat", "uhu", "kakadu", "quapil", "blatt", "jungfrau", "talon"),
}
