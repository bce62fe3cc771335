"""The schedule of a tournament: which entrants sit where at which table, with which cards.

Each deal is played on tables of one hand. A deal's base seating fills the seats from the
entrants in turn (an entrant may hold several seats when there are fewer entrants than
seats). In duplicate play the deal is replayed at every distinct rotation of that seating, so
every entrant plays every seat of every deal; otherwise each deal is played once, with the
seating rotated from deal to deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

REDEAL_PRESETS = 3  # extra preset deals per table, so thrown-in hands stay duplicate too


@dataclass(frozen=True, slots=True)
class Game:
    """One table of the schedule: its number, its deal and the entrant at each seat."""

    index: int
    deal: int
    seating: tuple[int, ...]


def base_seating(entrants: int, players: int, deal: int) -> tuple[int, ...]:
    """The entrants of `deal` by seat: consecutive entrants, starting further on each deal."""
    start = deal * players if entrants >= players else deal
    return tuple((start + seat) % entrants for seat in range(players))


def rotations(seating: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct rotation of a seating, the seating itself first."""
    out: list[tuple[int, ...]] = []
    for shift in range(len(seating)):
        rotated = _rotate(seating, shift)
        if rotated not in out:
            out.append(rotated)
    return out


def schedule(entrants: int, players: int, deals: int, duplicate: bool) -> list[Game]:
    """Every table of a tournament, in playing order (all tables of a deal together)."""
    if entrants < 1 or players < 1 or deals < 0:
        raise ValueError("a schedule needs entrants, players and a number of deals")
    games: list[Game] = []
    for deal in range(deals):
        base = base_seating(entrants, players, deal)
        seatings = rotations(base) if duplicate else [_rotate(base, deal)]
        for seating in seatings:
            games.append(Game(len(games), deal, seating))
    return games


def _rotate(seating: Sequence[int], shift: int) -> tuple[int, ...]:
    n = len(seating)
    return tuple(seating[(seat - shift) % n] for seat in range(n))


def deal_orders(codes: Sequence[str], seed: int, deal: int) -> list[list[str]]:
    """The preset card orders of a deal (the first, then spares for redeals), from the seed.

    Every table of the same deal gets the same orders; the seed is the tournament's secret.
    """
    out = []
    for spare in range(1 + REDEAL_PRESETS):
        order = list(codes)
        random.Random(f"tarok-deal/{seed}/{deal}/{spare}").shuffle(order)
        out.append(order)
    return out
