"""Scoring one Tarocco Bolognese deal.

A team's total is its card points (its pile counted in pairs; the pack gives 87), 6 for the last
trick, its two players' opening declarations and the combinations in its captured pile (taken
after the Matto settlement). The higher total wins; equal totals are a draw.

`scores`: the difference of the team totals, + to each player of the higher team and - to each
player of the lower (0 on a draw), so that a match accumulates. `lines` give each team's
breakdown with the team's seats and close with an "opponents' total" line (negative), so that a
seat's score is the sum of the lines naming it. `side_points` are the card points of seats 0+2
and of seats 1+3 (`team` = (0, 2); `won` is True when that team won, None on a draw).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.cards import Card
from ...engine.counting import in_pairs
from ...engine.outcome import HandResult, ScoreLine
from .combinations import Combinations, find

if TYPE_CHECKING:
    from .rules import BologneseState, TaroccoBolognese

TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
PACK_POINTS = 87
LAST_TRICK = 6
CONTRACT = "partnership"
CARDS, LAST, OPPONENTS = "cards", "last trick", "opponents' total"


def team_of(seat: int) -> tuple[int, int]:
    """The partnership of a seat: partners sit opposite."""
    return TEAMS[seat % 2]


def team_pile(s: BologneseState, team: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards a team has won (with the dealer's discards, the Matto settled)."""
    return tuple(c for seat in team for c in s.piles[seat])


def combination_lines(prefix: str, combos: Combinations, team: tuple[int, ...]) -> list[ScoreLine]:
    """One line per combination, and one per doubled subtotal."""
    lines = [ScoreLine(f"{prefix}: {c.describe()}", c.points, team) for c in combos.all]
    if combos.sets_doubled:
        lines.append(ScoreLine(f"{prefix}: sets doubled", combos.set_points // 2, team))
    if combos.sequences_doubled:
        lines.append(ScoreLine(f"{prefix}: sequences doubled", combos.sequence_points // 2, team))
    return lines


def team_lines(
    variant: TaroccoBolognese, s: BologneseState, team: tuple[int, ...]
) -> list[ScoreLine]:
    """A team's breakdown: cards, last trick, declarations, captured combinations."""
    pile = team_pile(s, team)
    lines = [ScoreLine(CARDS, in_pairs(pile, variant.deck(s.rules).points), team)]
    if s.tricks and s.tricks[-1].winner in team:
        lines.append(ScoreLine(LAST, LAST_TRICK, team))
    for seat, combos in s.declared:
        if seat in team:
            lines += combination_lines(f"declared by seat {seat}", combos, team)
    captured = find(pile, s.rules.flag("contatori_in_sets"))
    return lines + combination_lines("captured", captured, team)


def score(variant: TaroccoBolognese, s: BologneseState) -> HandResult:
    """The scored result of a finished deal."""
    breakdowns = [team_lines(variant, s, team) for team in TEAMS]
    totals = [sum(line.points for line in lines) for lines in breakdowns]
    cards = tuple(next(x.points for x in lines if x.item == CARDS) for lines in breakdowns)
    lines = [
        *breakdowns[0],
        ScoreLine(OPPONENTS, -totals[1], TEAMS[0]),
        *breakdowns[1],
        ScoreLine(OPPONENTS, -totals[0], TEAMS[1]),
    ]
    diff = totals[0] - totals[1]
    return HandResult(
        contract=CONTRACT,
        declarer=None,
        team=TEAMS[0],
        won=None if diff == 0 else diff > 0,
        scores=tuple(diff if seat in TEAMS[0] else -diff for seat in range(4)),
        penalties=(0, 0, 0, 0),
        side_points=cards,
        lines=tuple(lines),
    )


def team_totals(result: HandResult) -> tuple[int, int]:
    """Each team's total, read back from the lines of a result."""
    return (
        sum(x.points for x in result.lines if x.seats == TEAMS[0] and x.item != OPPONENTS),
        sum(x.points for x in result.lines if x.seats == TEAMS[1] and x.item != OPPONENTS),
    )
