"""Match accounting: several hands, dealer rotation, running totals, radelci, a table pot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .options import Rules


@dataclass(frozen=True)
class MatchState:
    """The running state of a table's match between hands."""

    players: int
    hands: int  # hands to play (a redeal does not count)
    played: int = 0
    dealer: int = 0
    totals: tuple[int, ...] = ()
    radelci: tuple[int, ...] = ()
    pot: int = 0
    rules: Rules | None = None

    @staticmethod
    def start(players: int, hands: int, dealer: int = 0, rules: Rules | None = None) -> MatchState:
        zeros = (0,) * players
        return MatchState(players, hands, 0, dealer, zeros, zeros, 0, rules)

    @property
    def over(self) -> bool:
        return self.played >= self.hands

    def record(self, scores: Sequence[int], redeal: bool = False) -> MatchState:
        """Add a hand's scores; the deal passes on unless the hand was thrown in."""
        totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        if redeal:
            return replace(self, totals=totals)
        return replace(
            self, totals=totals, played=self.played + 1, dealer=(self.dealer + 1) % self.players
        )
