"""Cards as small immutable values, and decks that know codes, labels and points."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

TAROK = "T"
HEARTS, DIAMONDS, CLUBS, SPADES = "H", "D", "C", "S"
RED_SUITS = (HEARTS, DIAMONDS)
BLACK_SUITS = (CLUBS, SPADES)
SUIT_SYMBOLS = {HEARTS: "♥", DIAMONDS: "♦", CLUBS: "♣", SPADES: "♠"}
ROMAN = (
    "",
    "I",
    "II",
    "III",
    "IIII",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
    "XXII",
)
PAGAT, MOND, SKIS = 1, 21, 22
KING, QUEEN, CAVALIER, JACK = 8, 7, 6, 5
FIGURE_FACES = {KING: "K", QUEEN: "Q", CAVALIER: "C", JACK: "J"}
FIGURE_POINTS = {KING: 5, QUEEN: 4, CAVALIER: 3, JACK: 2}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: its suit, its strength within the suit (higher wins) and its pack."""

    suit: str
    rank: int
    pack: int = 0

    @property
    def is_tarok(self) -> bool:
        return self.suit == TAROK


class Deck:
    """An ordered pack with a code, a label and a point value for every card."""

    def __init__(
        self,
        name: str,
        cards: Iterable[Card],
        code: Callable[[Card], str],
        label: Callable[[Card], str],
        points: Callable[[Card], int],
    ) -> None:
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self.index = {c: i for i, c in enumerate(self.cards)}
        # The same index by object identity: the deck's own cards are found without hashing
        # (a dataclass hash is a Python call); other equal cards fall back to `index`.
        self.index_by_id = {id(c): i for i, c in enumerate(self.cards)}
        self.codes = {c: code(c) for c in self.cards}
        self.labels = {c: label(c) for c in self.cards}
        self.points = {c: points(c) for c in self.cards}
        self.by_code = {v: k for k, v in self.codes.items()}
        if len(self.by_code) != len(self.cards):
            raise ValueError(f"deck {name}: card codes are not unique")

    def __len__(self) -> int:
        return len(self.cards)

    def code(self, card: Card) -> str:
        return self.codes[card]

    def card(self, code: str) -> Card:
        """The card with this code; KeyError when the deck has none."""
        return self.by_code[code]

    def sort(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """Cards in deck order (taroks first, then suits), as hands are shown. The cards are
        the deck's own (equal) objects, so that later searches match them by identity."""
        own, by_id, index = self.cards, self.index_by_id, self.index
        found = [by_id.get(id(c)) for c in cards]
        if None in found:
            found = [index[c] for c in cards]
        found.sort()
        return tuple([own[i] for i in found])  # type: ignore[index]

    def total_points(self, cards: Iterable[Card]) -> int:
        return sum(self.points[c] for c in cards)


def tarok_face(rank: int) -> str:
    return ROMAN[rank] if rank < SKIS else "Škis"


def pip_face(suit: str, rank: int) -> str:
    """Face of a suit card: figures, red pips 1-4 (1 highest), black pips 7-10 (10 highest)."""
    if rank in FIGURE_FACES:
        return FIGURE_FACES[rank]
    return str(5 - rank) if suit in RED_SUITS else str(6 + rank)


def pack_suffix(packs: int, pack: int) -> str:
    return "" if packs == 1 else f".{pack + 1}"


PACK_NAMES = ("blue", "red")


def tarok54(packs: int = 1) -> Deck:
    """The 54-card tarok pack (22 taroks, 4 suits of 8), once or twice (two-deck tarok)."""
    cards: list[Card] = []
    for pack in range(packs):
        cards += [Card(TAROK, r, pack) for r in range(1, 23)]
        for suit in (HEARTS, DIAMONDS, CLUBS, SPADES):
            cards += [Card(suit, r, pack) for r in range(KING, 0, -1)]

    def code(c: Card) -> str:
        face = f"T{c.rank}" if c.is_tarok else c.suit + pip_face(c.suit, c.rank)
        return face + pack_suffix(packs, c.pack)

    def label(c: Card) -> str:
        text = tarok_face(c.rank) if c.is_tarok else SUIT_SYMBOLS[c.suit] + pip_face(c.suit, c.rank)
        return text if packs == 1 else f"{text} ({PACK_NAMES[c.pack]} back)"

    def points(c: Card) -> int:
        if c.is_tarok:
            return 5 if c.rank in (PAGAT, MOND, SKIS) else 1
        return FIGURE_POINTS.get(c.rank, 1)

    return Deck(f"tarok{54 * packs}", cards, code, label, points)


GLATZE = 4  # the one low card of each suit in the 40-card pack: ♥/♦ ace, ♣/♠ ten
TAROCK40_TAROKS = (PAGAT, *range(4, 23))  # I, IIII-XXI and the skis (no II, no III)


def tarock40() -> Deck:
    """The 40-card Austrian pack (Zwanzigerrufen): taroks I, IIII-XXI, skis; K Q C J and the
    Glatze in each suit. Codes and cards match `tarok54` (H1 = ♥ ace, S10 = ♠ ten); the
    Glatze counts 0, so the pack adds up to 88 by plain addition."""
    cards = [Card(TAROK, r) for r in TAROCK40_TAROKS]
    for suit in (HEARTS, DIAMONDS, CLUBS, SPADES):
        cards += [Card(suit, r) for r in (KING, QUEEN, CAVALIER, JACK, GLATZE)]

    def code(c: Card) -> str:
        return f"T{c.rank}" if c.is_tarok else c.suit + pip_face(c.suit, c.rank)

    def label(c: Card) -> str:
        if c.is_tarok:
            return tarok_face(c.rank)
        face = "A" if c.rank == GLATZE and c.suit in RED_SUITS else pip_face(c.suit, c.rank)
        return SUIT_SYMBOLS[c.suit] + face

    def points(c: Card) -> int:
        if c.is_tarok:
            return 5 if c.rank in (PAGAT, MOND, SKIS) else 1
        return FIGURE_POINTS.get(c.rank, 0)

    return Deck("tarock40", cards, code, label, points)


def deal_packets(
    order: Sequence[Card],
    players: int,
    first: int,
    talon: int,
    packet: int,
    talon_first: bool = True,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal an explicit card order: the talon, then packets round the table from seat `first`.

    Returns (hands indexed by seat, talon). The shuffle is the caller's input.
    """
    cards = list(order)
    tal = tuple(cards[:talon]) if talon_first else tuple(cards[len(cards) - talon :])
    rest = cards[talon:] if talon_first else cards[: len(cards) - talon]
    hands: list[list[Card]] = [[] for _ in range(players)]
    seat, i = first, 0
    while i < len(rest):
        hands[seat].extend(rest[i : i + packet])
        i += packet
        seat = (seat + 1) % players
    return tuple(tuple(h) for h in hands), tal


# --- The 62-card Bolognese pack (Tarocco Bolognese) ----------------------------
# Suits have two-letter names so that they never mean a 54-card suit; trumps reuse TAROK with
# their own ranks (strength), and the Matto has a suit of its own that nothing follows.
SWORDS, BATONS, CUPS, COINS = "Sw", "Ba", "Cu", "Co"
LONG_SUITS = (SWORDS, BATONS)
ROUND_SUITS = (CUPS, COINS)
ITALIAN_SUITS = (SWORDS, BATONS, CUPS, COINS)
ITALIAN_SUIT_NAMES = {SWORDS: "Swords", BATONS: "Batons", CUPS: "Cups", COINS: "Coins"}
FOOL = "F"
RE, REGINA, CAVALLO, FANTE = 10, 9, 8, 7  # suit figures; pips rank 1..6 (low to high)
ITALIAN_FIGURES = {RE: "K", REGINA: "Q", CAVALLO: "C", FANTE: "J"}
LONG_PIPS = ("A", "6", "7", "8", "9", "10")  # long suits, rank 1 (lowest) .. 6
ROUND_PIPS = ("10", "9", "8", "7", "6", "A")  # round suits: the ace is the highest pip
BEGATO, MOOR, MOON, SUN, WORLD, ANGEL = 1, 2, 17, 18, 19, 20  # trumps 5..16 rank as numbered
TAROCCO_NAMES = {
    BEGATO: "Bégato",
    MOOR: "Moor",
    MOON: "Moon",
    SUN: "Sun",
    WORLD: "World",
    ANGEL: "Angel",
}
MATTO_CARD = Card(FOOL, 0)
MOOR_CARDS = tuple(Card(TAROK, MOOR, p) for p in range(4))  # four equal Moors, told by `pack`


def italian_face(card: Card) -> str:
    """K Q C J, or the pip (A, 6..10) of a Bolognese suit card."""
    if card.rank in ITALIAN_FIGURES:
        return ITALIAN_FIGURES[card.rank]
    return (LONG_PIPS if card.suit in LONG_SUITS else ROUND_PIPS)[card.rank - 1]


def italian_ace(suit: str) -> Card:
    """The ace of a Bolognese suit (the lowest long-suit card, the highest round-suit pip)."""
    return Card(suit, 1 if suit in LONG_SUITS else ROUND_PIPS.index("A") + 1)


def _tarocco_code(c: Card) -> str:
    if c == MATTO_CARD:
        return "Matto"
    if not c.is_tarok:
        return c.suit + italian_face(c)
    if c.rank == MOOR:
        return f"TMoor{c.pack + 1}"
    return "T" + TAROCCO_NAMES.get(c.rank, str(c.rank)).replace("é", "e")


def _tarocco_label(c: Card) -> str:
    if c == MATTO_CARD:
        return "Matto"
    if not c.is_tarok:
        names = {"K": "King", "Q": "Queen", "C": "Cavallo", "J": "Jack", "A": "Ace"}
        face = italian_face(c)
        return f"{names.get(face, face)} of {ITALIAN_SUIT_NAMES[c.suit]}"
    if c.rank == MOOR:
        return f"Moor {c.pack + 1}"
    return TAROCCO_NAMES.get(c.rank, f"Trump {c.rank}")


def _tarocco_points(c: Card) -> int:
    if c == MATTO_CARD or (c.is_tarok and c.rank in (ANGEL, WORLD, BEGATO)):
        return 5
    if c.is_tarok:
        return 1
    return {RE: 5, REGINA: 4, CAVALLO: 3, FANTE: 2}.get(c.rank, 1)


def tarocco62() -> Deck:
    """The 62-card Bolognese pack: Matto; Angel, World, Sun, Moon, 16..5, four Moors, Bégato;
    swords, batons, cups, coins K Q C J and six pips. Raw points 118, 87 when counted in pairs.
    Codes: "Matto", "TAngel", "T16", "TMoor1".."TMoor4", "TBegato", "SwK", "Ba10", "CuA"."""
    cards = [MATTO_CARD, *(Card(TAROK, r) for r in (ANGEL, WORLD, SUN, MOON, *range(16, 4, -1)))]
    cards += [*MOOR_CARDS, Card(TAROK, BEGATO)]
    for suit in ITALIAN_SUITS:
        cards += [Card(suit, r) for r in range(RE, 0, -1)]
    return Deck("tarocco62", cards, _tarocco_code, _tarocco_label, _tarocco_points)
