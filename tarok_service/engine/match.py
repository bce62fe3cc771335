"""Match accounting: several hands, dealer rotation, running totals, radelci, a table pot."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .options import Rules

# Stable ids of settlement lines (what a hand or the match end credited, and why).
HAND_SCORE = "hand_score"  # the hand's own score (team part and penalties)
RADELC_DOUBLE = "radelc_double"  # the extra a radelc's doubling added
ZID_PAYMENT = "zid_payment"  # paid into the zid (a lost second obligation)
ZID_TAKEN = "zid_taken"  # taken out of the zid (a won second obligation)
RADELC_END_PENALTY = "radelc_end_penalty"  # an uncrossed radelc at the end of the match
RECORDED = "recorded"  # a change taken from an old log that recorded no settlement


@dataclass(frozen=True)
class SettledLine:
    """One adjustment of one seat's credited amount."""

    id: str
    seat: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """What was credited per seat, line by line (`amounts[s]` == sum of seat s's lines)."""

    amounts: tuple[int, ...]
    lines: tuple[SettledLine, ...] = ()
    pot: int = 0  # paid into (+) or taken from (-) the table pot

    @staticmethod
    def of(players: int, parts: Iterable[tuple[str, Sequence[int]]], pot: int = 0) -> Settlement:
        """A settlement from (line id, amount per seat) parts; zero amounts get no line."""
        lines = tuple(
            SettledLine(line_id, seat, amount)
            for line_id, amounts in parts
            for seat, amount in enumerate(amounts)
            if amount
        )
        totals = [0] * players
        for line in lines:
            totals[line.seat] += line.amount
        return Settlement(tuple(totals), lines, pot)


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
    settled: Settlement | None = None  # what the last hand (or the match end) credited

    @staticmethod
    def start(players: int, hands: int, dealer: int = 0, rules: Rules | None = None) -> MatchState:
        zeros = (0,) * players
        return MatchState(players, hands, 0, dealer, zeros, zeros, 0, rules)

    @property
    def over(self) -> bool:
        return self.played >= self.hands

    def record(
        self,
        scores: Sequence[int],
        redeal: bool = False,
        settled: Settlement | None = None,
    ) -> MatchState:
        """Add a hand's scores; the deal passes on unless the hand was thrown in.

        `settled` explains `scores` line by line (default: one hand_score line per seat).
        """
        if settled is None:
            settled = Settlement.of(self.players, [(HAND_SCORE, scores)])
        totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        if redeal:
            return replace(self, totals=totals, settled=settled)
        return replace(
            self,
            totals=totals,
            played=self.played + 1,
            dealer=(self.dealer + 1) % self.players,
            settled=settled,
        )
