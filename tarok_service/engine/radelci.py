"""Radelci: a doubling marker drawn after big games, crossed out by a declarer's win."""

from __future__ import annotations

from dataclasses import replace

from .match import HAND_SCORE, RADELC_DOUBLE, RADELC_END_PENALTY, MatchState, Settlement
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
    doubled = [s - r for s, r in zip(scores, result.scores, strict=True)]
    settled = Settlement.of(
        match.players, [(HAND_SCORE, result.totals), (RADELC_DOUBLE, doubled)]
    )
    after = match.record(totals, redeal=result.redeal, settled=settled)
    return replace(after, radelci=tuple(radelci))


def close(match: MatchState, penalty: int) -> MatchState:
    """Charge every uncrossed radelc at the end of the match."""
    charged = [-penalty * r for r in match.radelci]
    totals = tuple(t + c for t, c in zip(match.totals, charged, strict=True))
    settled = Settlement.of(match.players, [(RADELC_END_PENALTY, charged)])
    return replace(match, totals=totals, settled=settled)
