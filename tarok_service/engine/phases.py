"""A rule set's phase table: for each phase that takes moves, its legal/apply pair, an optional
explain and the optional fast paths; checked when the rule set registers.

A rule set names its phases in a `StrEnum` (the values are the phase strings of logs, views
and the wire) and returns its table from `Variant.phase_table()`:

    class Phase(StrEnum):
        BID = "bid"
        TRICKS = TRICKS
        SCORED = SCORED

    def phase_table(self) -> PhaseTable[ToyState]:
        return {
            Phase.BID: PhaseRule(self.legal_bid, self.apply_bid, explain=self.explain_bid),
            Phase.TRICKS: self.trick_phase(),
        }

The hand-ending phases (`scored`, `redeal`) take no moves and have no entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeAlias, TypeVar

from .moves import EngineBug, Move
from .state import ENDED, HandState

S = TypeVar("S", bound=HandState)


@dataclass(frozen=True, slots=True)
class PhaseRule(Generic[S]):
    """One phase's functions.

    `legal(state)`: every legal move; `apply(state, move)`: the state after a legal move;
    `explain(state, move)`: the reason code for a move that is not legal (default
    ILLEGAL_MOVE); the fast paths `is_legal(state, move)` (agrees with `move in legal(state)`)
    and `replay(state, moves, start) -> (state, next index)` (applies at least one validated
    move, as many as it can, exactly as `apply` one by one would), and
    `playout(state, pick) -> state` (plays the phase to its end, each move `pick(legal)` of a
    fresh list equal to `legal(state)`: the same picks and the same state as the loop
    `state = apply(state, pick(legal(state)))` while the phase lasts)."""

    legal: Callable[[S], list[Move]]
    apply: Callable[[S, Move], S]
    explain: Callable[[S, Move], str] | None = None
    is_legal: Callable[[S, Move], bool] | None = None
    replay: Callable[[S, Sequence[Move], int], tuple[S, int]] | None = None
    playout: Callable[[S, Callable[[list[Move]], Move]], S] | None = None


PhaseTable: TypeAlias = Mapping[str, PhaseRule[S]]


class RuleSetError(EngineBug):
    """A rule set that cannot work (a phase without handlers ...): raised when it registers,
    i.e. when its module is imported."""


def check_table(
    variant_id: str, phases: type[StrEnum], table: Mapping[str, Any]
) -> dict[str, PhaseRule[Any]]:
    """The table as a plain dict, after checking it against the declared `phases`: every phase
    but the hand-ending ones has an entry with a callable legal and apply, no entry names an
    undeclared or a hand-ending phase. RuleSetError names what is wrong."""
    where = f"rule set {variant_id!r}"
    table = {str(phase): rule for phase, rule in table.items()}
    declared = [str(p) for p in phases]
    for phase in table:
        if phase not in declared:
            raise RuleSetError(f"{where}: the phase table names {phase!r}, not one of {declared}")
        if phase in ENDED:
            raise RuleSetError(f"{where}: phase {phase!r} ends the hand and takes no moves")
    for phase in declared:
        if phase in ENDED:
            continue
        rule = table.get(phase)
        if not isinstance(rule, PhaseRule):
            raise RuleSetError(f"{where}: phase {phase!r} has no PhaseRule in the phase table")
        for part in ("legal", "apply"):
            if not callable(getattr(rule, part)):
                raise RuleSetError(f"{where}: phase {phase!r} has no {part} handler")
        for part in ("explain", "is_legal", "replay", "playout"):
            hook = getattr(rule, part)
            if hook is not None and not callable(hook):
                raise RuleSetError(f"{where}: phase {phase!r}: {part} is not callable")
    return table
