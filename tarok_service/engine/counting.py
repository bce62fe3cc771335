"""Card-point counting methods: groups of three, plain addition, pairs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import Card


def in_threes(cards: Iterable[Card], points: Mapping[Card, int]) -> int:
    """Groups of three count their sum minus 2; a last group of one or two counts sum minus 1."""
    pile = list(cards)
    n = len(pile)
    return sum(points[c] for c in pile) - 2 * (n // 3) - (1 if n % 3 else 0)


def plain(cards: Iterable[Card], points: Mapping[Card, int]) -> int:
    """Every card counts its face value."""
    return sum(points[c] for c in cards)


def in_pairs(cards: Iterable[Card], points: Mapping[Card, int]) -> int:
    """Each card counts its value minus one half (a pile of an even size gives an integer)."""
    pile = list(cards)
    return sum(points[c] for c in pile) - len(pile) // 2


def round5(x: int) -> int:
    """Round an integer to the nearest multiple of 5 (x = 2.5 mod 5 cannot occur for integers)."""
    sign = -1 if x < 0 else 1
    return sign * 5 * ((abs(x) + 2) // 5)
