"""What a scored hand yields: per-seat scores with their breakdown."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoreLine:
    """One item of a hand's score: e.g. ("difference", +10) or ("pagat ultimo (silent)", -25)."""

    item: str
    points: int
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class HandResult:
    """The result of one hand.

    `scores` is the team part per seat (what a radelc may double); `penalties` is the individual
    part (mondfang) that nothing doubles. `lines` explain the team part; `side_points` are card
    points per side (declarer side first) or per seat in games without sides.
    """

    contract: str
    declarer: int | None
    team: tuple[int, ...]
    won: bool | None
    scores: tuple[int, ...]
    penalties: tuple[int, ...]
    side_points: tuple[int, ...]
    lines: tuple[ScoreLine, ...] = ()
    radelci: bool = False
    redeal: bool = False
    pot: int = 0  # paid into (+) or taken from (-) a table pot by this hand (Czech zid)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s + p for s, p in zip(self.scores, self.penalties, strict=True))
