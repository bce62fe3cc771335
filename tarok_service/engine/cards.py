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
        """Cards in deck order (taroks first, then suits), as hands are shown."""
        return tuple(sorted(cards, key=self.index.__getitem__))

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
