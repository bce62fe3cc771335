"""Radelci: a doubling marker drawn after big games, crossed out by a declarer's win."""

from __future__ import annotations

from dataclasses import replace

from .match import MatchState
from .outcome import HandResult

DECLARER = "declarer"  # the declarer's radelc doubles the declarer side's score
OWN = "own"  # each player's radelc doubles his own score


def settle(match: MatchState, result: HandResult, mode: str, applies: bool) -> MatchState:
    """Fold a hand into the match with radelci: doubling, crossing out, awarding."""
    scores = list(result.scores)
    radelci = list(match.radelci)
    if applies and not result.redeal:
        if mode == DECLARER and result.declarer is not None and radelci[result.declarer] > 0:
            scores = [2 * s for s in scores]
            if result.won:
                radelci[result.declarer] -= 1
        elif mode == OWN:
            for seat, count in enumerate(match.radelci):
                if count > 0 and scores[seat] != 0:
                    scores[seat] *= 2
                    if scores[seat] > 0:
                        radelci[seat] -= 1
    if result.radelci:
        radelci = [r + 1 for r in radelci]
    totals = [s + p for s, p in zip(scores, result.penalties, strict=True)]
    return replace(match.record(totals, redeal=result.redeal), radelci=tuple(radelci))


def close(match: MatchState, penalty: int) -> MatchState:
    """Charge every uncrossed radelc at the end of the match."""
    totals = tuple(t - penalty * r for t, r in zip(match.totals, match.radelci, strict=True))
    return replace(match, totals=totals)
