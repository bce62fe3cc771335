"""The schedule of a tournament: which entrants sit where at which table, with which cards.

Each deal is played on tables of one hand. A deal's base seating fills the seats from the
entrants in turn (an entrant may hold several seats when there are fewer entrants than
seats). In duplicate play the deal is replayed at every distinct rotation of that seating, so
every entrant plays every seat of every deal; otherwise each deal is played once, with the
seating rotated from deal to deal. That full rotation is for entrants that forget: remote
entrants are seated by `spread` instead (at most once per deal) unless the organiser chooses
full rotation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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


def schedule(
    entrants: int, players: int, deals: int, duplicate: bool, once: Sequence[int] = ()
) -> list[Game]:
    """Every table of a tournament, in playing order (all tables of a deal together).

    Entrants in `once` (remote bots, which cannot be made to forget) sit at most once per deal,
    so never twice at one table nor at two tables with the same cards: a deal's tables are
    then filled with different entrants (see `spread`). ValueError when that is impossible.
    """
    if entrants < 1 or players < 1 or deals < 0:
        raise ValueError("a schedule needs entrants, players and a number of deals")
    if once:
        return spread(entrants, players, deals, duplicate, sorted(set(once)))
    games: list[Game] = []
    for deal in range(deals):
        base = base_seating(entrants, players, deal)
        seatings = rotations(base) if duplicate else [_rotate(base, deal)]
        for seating in seatings:
            games.append(Game(len(games), deal, seating))
    return games


def spread(entrants: int, players: int, deals: int, duplicate: bool, once: list[int]) -> list[Game]:
    """Tables where each entrant of `once` holds at most one seat per deal.

    A duplicate deal is played at `players` tables (fewer when only `once` entrants take
    part: as many as they fill); each table of the deal has other entrants, so a seat's score
    is compared with the same seat played by others. The `once` entrants of a deal are taken
    in turn (each deal starts further on), their seats rotate from deal to deal, and the
    remaining seats go to the other entrants in turn.
    """
    others = [i for i in range(entrants) if i not in set(once)]
    tables = players if duplicate else 1
    if not others:
        tables = min(tables, len(once) // players)
        if tables == 0:
            raise ValueError(
                f"{len(once)} remote entrants cannot fill a {players}-seat table without "
                "sitting twice: add entrants or a built-in bot, or choose full rotation"
            )
    slots = tables * players
    games: list[Game] = []
    for deal in range(deals):
        start = deal * slots
        chosen = [once[(start + i) % len(once)] for i in range(min(slots, len(once)))]
        seatings = [[0] * players for _ in range(tables)]
        for position in range(slots):
            table, column = position % tables, position // tables
            if position < len(chosen):
                entrant = chosen[position]
            else:
                entrant = others[(deal + table + column) % len(others)]
            seatings[table][(column + deal) % players] = entrant
        for seating in seatings:
            games.append(Game(len(games), deal, tuple(seating)))
    return games


def _rotate(seating: Sequence[int], shift: int) -> tuple[int, ...]:
    n = len(seating)
    return tuple(seating[(seat - shift) % n] for seat in range(n))
