"""Standings of a tournament from its finished tables: scores, duplicate-normalised results per
deal with a 95% confidence interval, timeouts, and OpenSkill (Plackett-Luce) ratings.

A table's seat score is credited to the entrant in that seat. In duplicate play each seat
score is compared with the mean score of the same seat over every table of the same deal
(same cards), so the luck of the deal cancels; an entrant's result for a deal is the mean of
its normalised seat scores, and `per_deal` is the mean over deals.

Ratings: each table is one OpenSkill match. With a declarer side, the side (declarer and
partners) plays as one team against the rest, so teams of unequal size (solo 1 v 3, 2 v 2)
are natural; without one, every entrant is ranked by its score. With fewer entrants than
seats an entrant may sit on both sides: it then counts with the declarer side, and a table
with nobody left against the declarer side is not rated.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished table: its deal, the entrant per seat, and the outcome per seat."""

    game: int
    deal: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    team: tuple[int, ...] = ()
    declarer: int | None = None
    won: bool | None = None
    timeouts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Rated:
    """An OpenSkill rating and the number of rated games behind it."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


FIRST_RATING = Rated(25.0, 25.0 / 3)  # an entrant's rating before its first rated game


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line of the standings."""

    entrant: int
    name: str
    score: int
    per_deal: float
    ci95: float
    games: int
    timeouts: int
    rating: Rated
    rank: int = 0


def standings(
    names: Sequence[str],
    records: Sequence[GameRecord],
    duplicate: bool,
    priors: Mapping[str, Rated] | None = None,
) -> list[Standing]:
    """The standings, best `per_deal` first (ties: higher total score first)."""
    per_deal = deal_results(len(names), records, duplicate)
    ratings = rate(names, records, priors)
    rows = []
    for entrant, name in enumerate(names):
        mine = [r for r in records if entrant in r.seating]
        rows.append(
            Standing(
                entrant=entrant,
                name=name,
                score=sum(_seat_sum(r, entrant, r.scores) for r in mine),
                per_deal=statistics.fmean(per_deal[entrant]) if per_deal[entrant] else 0.0,
                ci95=ci95(per_deal[entrant]),
                games=len(mine),
                timeouts=sum(_seat_sum(r, entrant, r.timeouts) for r in mine),
                rating=ratings[entrant],
            )
        )
    rows.sort(key=lambda s: (-s.per_deal, -s.score, s.entrant))
    return [_ranked(row, i + 1) for i, row in enumerate(rows)]


def _ranked(row: Standing, rank: int) -> Standing:
    return Standing(
        row.entrant, row.name, row.score, row.per_deal, row.ci95, row.games, row.timeouts,
        row.rating, rank,
    )  # fmt: skip


def _seat_sum(record: GameRecord, entrant: int, values: Sequence[int]) -> int:
    return sum(_seat_values(record, entrant, values))


def deal_results(
    entrants: int, records: Sequence[GameRecord], duplicate: bool
) -> list[list[float]]:
    """Per entrant, one result per deal it played: the mean of its seat scores in that deal,
    each less the mean score of that seat over the deal's tables when `duplicate`."""
    par = _par(records) if duplicate else {}
    seat_scores: list[dict[int, list[float]]] = [defaultdict(list) for _ in range(entrants)]
    for record in records:
        for seat, entrant in enumerate(record.seating):
            value = record.scores[seat] - par.get((record.deal, seat), 0.0)
            seat_scores[entrant][record.deal].append(value)
    return [[statistics.fmean(v) for _, v in sorted(d.items())] for d in seat_scores]


def _par(records: Sequence[GameRecord]) -> dict[tuple[int, int], float]:
    """(deal, seat) -> the mean score of that seat over the deal's tables."""
    sums: dict[tuple[int, int], list[float]] = defaultdict(list)
    for record in records:
        for seat, score in enumerate(record.scores):
            sums[(record.deal, seat)].append(score)
    return {key: statistics.fmean(values) for key, values in sums.items()}


def ci95(values: Sequence[float]) -> float:
    """Half-width of the normal 95% confidence interval of the mean (0 below two values)."""
    if len(values) < 2:
        return 0.0
    return Z95 * statistics.stdev(values) / math.sqrt(len(values))


def rate(
    names: Sequence[str], records: Sequence[GameRecord], priors: Mapping[str, Rated] | None = None
) -> list[Rated]:
    """Each entrant's rating after the tables in game order, starting from `priors` by name
    (FIRST_RATING for a name without one). The one OpenSkill code path: tournaments and the
    rated free tables both rate through it."""
    model = PlackettLuce()
    start = [(priors or {}).get(name) for name in names]
    ratings = [FIRST_RATING if p is None else p for p in start]
    for record in sorted(records, key=lambda r: r.game):
        match = sides(record)
        if match is None:
            continue
        groups, ranks = match
        teams = [
            [model.rating(mu=ratings[e].mu, sigma=ratings[e].sigma) for e in g] for g in groups
        ]
        updated = model.rate(teams, ranks=ranks)
        for group, team in zip(groups, updated, strict=True):
            for entrant, new in zip(group, team, strict=True):
                ratings[entrant] = Rated(new.mu, new.sigma, ratings[entrant].games + 1)
    return ratings


def sides(record: GameRecord) -> tuple[list[list[int]], list[float]] | None:
    """The OpenSkill teams of a table (entrants) and their ranks (1 = best); None when the
    table cannot say who played better.

    An entrant holding seats on both sides counts with the declarer side (which chose the
    game); without a declarer side, entrants are ranked by their mean seat score.
    """
    seating = record.seating
    if record.team and record.won is not None:
        ours = sorted({seating[s] for s in record.team})
        theirs = sorted({seating[s] for s in range(len(seating))} - set(ours))
        if not theirs:
            return None
        return [ours, theirs], [1.0, 2.0] if record.won else [2.0, 1.0]
    entrants = sorted(set(seating))
    if len(entrants) < 2:
        return None
    means = [statistics.fmean(_seat_values(record, e, record.scores)) for e in entrants]
    ranks = [1.0 + sum(other > mean for other in means) for mean in means]
    return [[e] for e in entrants], ranks


def _seat_values(record: GameRecord, entrant: int, values: Sequence[int]) -> list[int]:
    return [v for seat, v in enumerate(values) if record.seating[seat] == entrant]
