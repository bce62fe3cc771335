"""Revealing declarations ("prozrazující hlášky") read from a hand, and their values."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.cards import KING, MOND, PAGAT, SKIS, Card
from ...engine.options import Rules
from . import data as d

TRUL_RANKS = (PAGAT, MOND, SKIS)


def tarok_count(hand: Sequence[Card]) -> list[str]:
    """The declaration for the number of taroks held, if any."""
    n = sum(1 for c in hand if c.is_tarok)
    if n == 0:
        return [d.VELKA_BARVA]
    if n <= 2:
        return [d.BARVICKA]
    if n >= 10:
        return [d.TAROKY]
    if n >= 8:
        return [d.TAROCKY]
    return []


def honours(hand: Sequence[Card]) -> list[str]:
    """The honours family (our resolution, see docs/rules/taroky.md): four kings are královské
    honéry (plus trul with the full trul); else the trul and a king are trulhonéry; else the
    trul alone; else
    four five-point cards (kings and trul cards) are honéry."""
    kings = sum(1 for c in hand if c.rank == KING and not c.is_tarok)
    trul = sum(1 for c in hand if c.is_tarok and c.rank in TRUL_RANKS)
    if kings == 4:
        return [d.KRALOVSKE_HONERY] + ([d.TRUL] if trul == 3 else [])
    if trul == 3:
        return [d.TRULHONERY] if kings else [d.TRUL]
    return [d.HONERY] if kings + trul >= 4 else []


def declarations(hand: Sequence[Card]) -> list[str]:
    """Every revealing declaration a hand makes, in table order."""
    return tarok_count(hand) + honours(hand)


def value(rules: Rules, declaration: str) -> int:
    """Points of one revealing declaration: small or big."""
    big = d.DECLARATIONS[declaration][1]
    return rules.num("big_declaration" if big else "small_declaration")


def binding_value(rules: Rules, item: str, announced: bool) -> int:
    """Points of the pagat or the valat, silent or announced."""
    return rules.num(f"{item}_{'announced' if announced else 'silent'}")
