"""Tarocco Bolognese combinations: the sets and sequences in a group of
cards, as pure functions. The same finder scores a declared hand and a team's captured pile.

- Sets: three or four of the tarocchi (Angel, World, Bégato, Matto), kings, queens, cavalli,
  jacks. Real cards only unless `contatori_in_sets`.
- Sequences ("swords", "batons", "cups", "coins", "aces", "moors", "grande"), 10 points for
  three cards and 5 for each further card: suit sequences (a real king, two of Q/C/J with one
  real, the ace extending it), aces and Moors (three or more, two real), and the Grande (a real
  Angel, two of World/Sun/Moon with one real, then 16 down to 5, then the Moors when 16..5 is
  complete).
- Contatori (Bégato, Matto): each adds exactly one card to every valid sequence it serves,
  filling a gap or adding length; two consecutive substituted positions stop the Grande.
- Three or more different sets double the set subtotal; three or more different sequences
  double the sequence subtotal. A card may count in several combinations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...engine.cards import (
    ANGEL,
    BEGATO,
    CAVALLO,
    FANTE,
    ITALIAN_SUIT_NAMES,
    ITALIAN_SUITS,
    MATTO_CARD,
    MOON,
    MOOR_CARDS,
    RE,
    REGINA,
    SUN,
    TAROK,
    WORLD,
    Card,
    italian_ace,
)

ANGEL_CARD, WORLD_CARD = Card(TAROK, ANGEL), Card(TAROK, WORLD)
SUN_CARD, MOON_CARD = Card(TAROK, SUN), Card(TAROK, MOON)
BEGATO_CARD = Card(TAROK, BEGATO)
CONTATORI = (BEGATO_CARD, MATTO_CARD)
GRANDE_BLOCK = (WORLD_CARD, SUN_CARD, MOON_CARD)
NUMBERED = tuple(Card(TAROK, r) for r in range(16, 4, -1))  # 16 down to 5
ACES = tuple(italian_ace(s) for s in ITALIAN_SUITS)
KINGS = tuple(Card(s, RE) for s in ITALIAN_SUITS)

TAROCCHI, KINGS_SET, QUEENS, CAVALLI, JACKS = "tarocchi", "kings", "queens", "cavalli", "jacks"
ACES_SEQ, MOORS_SEQ, GRANDE = "aces", "moors", "grande"
SET_MEMBERS: dict[str, tuple[Card, ...]] = {
    TAROCCHI: (ANGEL_CARD, WORLD_CARD, BEGATO_CARD, MATTO_CARD),
    KINGS_SET: KINGS,
    QUEENS: tuple(Card(s, REGINA) for s in ITALIAN_SUITS),
    CAVALLI: tuple(Card(s, CAVALLO) for s in ITALIAN_SUITS),
    JACKS: tuple(Card(s, FANTE) for s in ITALIAN_SUITS),
}
SET_VALUES: dict[str, tuple[int, int]] = {  # (three cards, four cards)
    TAROCCHI: (18, 36),
    KINGS_SET: (17, 34),
    QUEENS: (14, 28),
    CAVALLI: (13, 26),
    JACKS: (12, 24),
}
DOUBLING = 3  # this many different sets (sequences) double the set (sequence) subtotal


@dataclass(frozen=True, slots=True)
class Combination:
    """One set or sequence: its name, the cards it uses (contatori last) and its value."""

    name: str
    cards: tuple[Card, ...]
    points: int
    is_set: bool

    def describe(self) -> str:
        """E.g. "kings x4", "grande x9"."""
        return f"{self.name} x{len(self.cards)}"


@dataclass(frozen=True, slots=True)
class Combinations:
    """Every combination in a group of cards, and what they score together."""

    sets: tuple[Combination, ...] = ()
    sequences: tuple[Combination, ...] = ()

    @property
    def sets_doubled(self) -> bool:
        return len(self.sets) >= DOUBLING

    @property
    def sequences_doubled(self) -> bool:
        return len(self.sequences) >= DOUBLING

    @property
    def set_points(self) -> int:
        """The set subtotal, doubled when three or more different sets are present."""
        return sum(c.points for c in self.sets) * (2 if self.sets_doubled else 1)

    @property
    def sequence_points(self) -> int:
        """The sequence subtotal, doubled when three or more different sequences are present."""
        return sum(c.points for c in self.sequences) * (2 if self.sequences_doubled else 1)

    @property
    def total(self) -> int:
        return self.set_points + self.sequence_points

    @property
    def all(self) -> tuple[Combination, ...]:
        return self.sets + self.sequences

    def cards(self) -> frozenset[Card]:
        """Every card that takes part in some combination."""
        return frozenset(c for combo in self.all for c in combo.cards)

    def __bool__(self) -> bool:
        return bool(self.sets or self.sequences)


def sequence_value(length: int) -> int:
    """Three cards 10, each further card 5."""
    return 10 + 5 * (length - 3)


def find(cards: Iterable[Card], contatori_in_sets: bool = False) -> Combinations:
    """All combinations in `cards` (a hand or a pile)."""
    held = frozenset(cards)
    return Combinations(tuple(find_sets(held, contatori_in_sets)), tuple(find_sequences(held)))


def contatori(held: frozenset[Card]) -> list[Card]:
    """The contatori among the cards: Bégato and Matto."""
    return [c for c in CONTATORI if c in held]


def find_sets(held: frozenset[Card], contatori_in_sets: bool = False) -> list[Combination]:
    """Three or four of a kind. With `contatori_in_sets`, each contatore may complete a set of
    at least two real cards (not the tarocchi, whose members the contatori are)."""
    found = []
    for name, members in SET_MEMBERS.items():
        real = [c for c in members if c in held]
        extra: list[Card] = []
        if contatori_in_sets and name != TAROCCHI and len(real) >= 2:
            extra = contatori(held)[: len(members) - len(real)]
        size = len(real) + len(extra)
        if size >= 3:
            found.append(Combination(name, (*real, *extra), SET_VALUES[name][size - 3], True))
    return found


def find_sequences(held: frozenset[Card]) -> list[Combination]:
    """Every valid sequence: suit sequences, aces, Moors, the Grande."""
    found = [suit_sequence(held, suit) for suit in ITALIAN_SUITS]
    found += [four_run(held, ACES_SEQ, ACES), four_run(held, MOORS_SEQ, MOOR_CARDS)]
    found.append(grande(held))
    return [c for c in found if c is not None]


def _sequence(name: str, real: Sequence[Card], held: frozenset[Card]) -> Combination:
    """A valid sequence of these real cards; every contatore held adds one card."""
    cards = (*real, *contatori(held))
    return Combination(name, cards, sequence_value(len(cards)), False)


def suit_sequence(held: frozenset[Card], suit: str) -> Combination | None:
    """A real king and two of Q/C/J, one of them real; the ace extends it but never counts
    toward the minimum."""
    king = Card(suit, RE)
    figures = [Card(suit, r) for r in (REGINA, CAVALLO, FANTE) if Card(suit, r) in held]
    if king not in held or not figures or len(figures) + len(contatori(held)) < 2:
        return None
    ace = [italian_ace(suit)] if italian_ace(suit) in held else []
    return _sequence(ITALIAN_SUIT_NAMES[suit].lower(), [king, *figures, *ace], held)


def four_run(held: frozenset[Card], name: str, members: Sequence[Card]) -> Combination | None:
    """Aces or Moors: three or more cards, at least two of them real."""
    real = [c for c in members if c in held]
    if len(real) < 2 or len(real) + len(contatori(held)) < 3:
        return None
    return _sequence(name, real, held)


def grande(held: frozenset[Card]) -> Combination | None:
    """The trump sequence from a real Angel.

    World, Sun and Moon are one block: at least one real, one empty slot allowed, a second
    empty slot filled by a contatore. Then 16 down to 5 one step at a time, each missing card
    filled by a free contatore; the run stops at a gap no contatore fills, or after two
    consecutive substituted positions. The Moors join when 16..5 is complete.
    """
    block = [c for c in GRANDE_BLOCK if c in held]
    free = len(contatori(held))
    if ANGEL_CARD not in held or not block:
        return None
    if len(block) == 1:
        if free == 0:
            return None
        free -= 1  # a filler in the block sits away from the 16 (the empty slot is next to it)
    run, complete = grande_run(held, free)
    moors = [c for c in MOOR_CARDS if c in held] if complete else []
    return _sequence(GRANDE, [ANGEL_CARD, *block, *run, *moors], held)


def grande_run(held: frozenset[Card], free: int) -> tuple[list[Card], bool]:
    """The real numbered trumps the Grande reaches below its block with `free` contatori to
    fill gaps, and whether it got through the 5 (so that the Moors join)."""
    run: list[Card] = []
    streak = 0
    for card in NUMBERED:
        if card in held:
            run.append(card)
            streak = 0
            continue
        if free == 0 or streak == 1:
            return run, False  # a gap nobody fills, or the second substitution in a row
        free -= 1
        streak += 1
    return run, True
