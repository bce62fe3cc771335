"""A deck's cards as bits of an integer (the deck's card i is bit i): hands and card sets as
masks, and the tables the trick phase's fast paths read (each suit's mask).

Two packs need nothing special: each copy of a card is a card of its own in the deck (its
`pack` differs), so it has a bit of its own.

Measured (CPython 3.11, bench notes of issue 20): a strength table for the trick winner (a
dict lookup by card per card) was slower than `tricks.winning_index` (1.4 us against 0.95 us
for four cards), so trick winners are judged there; a follow-suit mask is 0.3 us against
1.8 us for `tricks.legal_plays`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter

from .cards import Card, Deck

Positions = Callable[[Sequence[int]], Sequence[int]]  # the items at some positions of a sequence


class BitDeck:
    """One deck's bit tables (built once per deck: see `bit_deck`)."""

    __slots__ = ("_made", "bit", "card_at", "cards", "deck", "powers", "suit_mask")

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.cards: tuple[Card, ...] = deck.cards
        # By identity: the deck's own cards (what deals and `by_code` hand out) are found
        # without hashing a dataclass; `mask` falls back to equality for other equal cards.
        self.bit: dict[int, int] = {id(c): 1 << i for i, c in enumerate(deck.cards)}
        self.card_at: dict[int, Card] = {1 << i: c for i, c in enumerate(deck.cards)}
        suits: dict[str, int] = {}
        for i, c in enumerate(deck.cards):
            suits[c.suit] = suits.get(c.suit, 0) | 1 << i
        self.suit_mask = suits
        self.powers: tuple[int, ...] = tuple(1 << i for i in range(len(deck.cards)))
        # Hands `hand_of` made, by identity (each kept alive with its mask): deals make them,
        # the playouts' trick loop asks for their masks right after.
        self._made: dict[int, tuple[tuple[Card, ...], int]] = {}

    def hands_of(
        self,
        order: Sequence[int],
        seats: Sequence[Callable[[Sequence[int]], Sequence[int]]],
        must: int,
    ) -> tuple[tuple[tuple[Card, ...], ...], bool]:
        """The hands dealt from the deck's cards at the indices `order`: hand k holds the cards
        at the positions `seats[k]` picks out of `order` (at least two each), in deck order;
        and whether every hand holds a card of the mask `must`. Their masks are kept for
        `ordered_mask` (the last 16 hands made: kept no longer, so that they die young,
        before the garbage collector moves them on)."""
        cards, powers, made = self.cards, self.powers, self._made
        if len(made) > 16 - len(seats):
            made.clear()
        hands, every = [], True
        for at in seats:
            held = itemgetter(*sorted(at(order)))
            hand: tuple[Card, ...] = held(cards)
            found: int = sum(held(powers))
            made[id(hand)] = (hand, found)
            hands.append(hand)
            every = every and found & must != 0
        return tuple(hands), every

    def mask(self, cards: Iterable[Card]) -> int:
        """The mask of `cards` (cards equal to the deck's count as the deck's)."""
        found, bit, index = 0, self.bit, self.deck.index
        for c in cards:
            b = bit.get(id(c))
            found |= (1 << index[c]) if b is None else b
        return found

    def cards_of(self, mask: int) -> list[Card]:
        """The deck's cards in `mask`, in deck order."""
        out, at = [], self.card_at
        while mask:
            low = mask & -mask
            out.append(at[low])
            mask ^= low
        return out

    def in_deck_order(self, cards: Sequence[Card]) -> bool:
        """Whether `cards` are the deck's own objects in deck order - the order `cards_of`
        gives back, so that a mask stands for the sequence exactly."""
        return self.ordered_mask(cards) is not None

    def ordered_mask(self, cards: Sequence[Card]) -> int | None:
        """The mask of `cards` when they are the deck's own objects in deck order, else None."""
        found = self.ordered_masks((cards,))
        return None if found is None else found[0]

    def ordered_masks(self, hands: Iterable[Sequence[Card]]) -> list[int] | None:
        """`ordered_mask` of each of `hands` (in one call: the playouts ask for every hand's),
        None unless every hand is in deck order."""
        made, masks = self._made, []
        for cards in hands:
            note = made.get(id(cards))
            if note is not None and note[0] is cards:
                masks.append(note[1])
                continue
            bits = [*map(self.bit.get, map(id, cards))]
            if None in bits or bits != sorted(bits):  # type: ignore[type-var]
                return None
            found: int = sum(bits)  # type: ignore[arg-type]
            if found.bit_count() != len(bits):  # a card twice
                return None
            masks.append(found)
        return masks

    def follow_mask(self, hand: int, led: Card, trump: str) -> int:
        """The cards of `hand` a follower may play under plain rules: the suit led, else a
        trump, else any (`tricks.obliged_suit` on masks)."""
        same = hand & self.suit_mask.get(led.suit, 0)
        if same:
            return same
        return (hand & self.suit_mask.get(trump, 0)) or hand


_DECKS: dict[int, BitDeck] = {}


def bit_deck(deck: Deck) -> BitDeck:
    """The bit tables of `deck` (cached by identity: decks are module constants)."""
    found = _DECKS.get(id(deck))
    if found is None or found.deck is not deck:
        if len(_DECKS) >= 64:
            _DECKS.clear()
        found = _DECKS[id(deck)] = BitDeck(deck)
    return found
