"""One announcement round: in turn, each player announces a bonus, raises a kontra or passes;
the round ends, and trick play starts, once every player has passed in a row.

A rule set mixes `AnnouncementRound` in and says what may be announced and raised
(`announceable`, `kontrable`) and who leads the first trick (`first_leader`). Its state
keeps `announced` ((item, seat) pairs), `levels` ((item, kontra level) pairs), `passes`
(passes in a row) and `facts` (what the table saw said).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from . import moves as m
from .moves import Move, shared_move
from .state import TRICKS, evolve
from .view import Fact

PASS, ANNOUNCE, KONTRA = "pass", "announce", "kontra"  # the move kinds of the round


class Announcing(Protocol):
    """What the round reads of a state (a `HandState` with these fields)."""

    @property
    def turn(self) -> int | None: ...
    @property
    def players(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def announced(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def levels(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def facts(self) -> tuple[Fact, ...]: ...


S = TypeVar("S", bound=Announcing)


def level_of(s: Announcing, item: str) -> int:
    """The kontra level an item stands at (0: not raised)."""
    for name, level in s.levels:
        if name == item:
            return level
    return 0


class AnnouncementRound(Generic[S]):
    """The round's legal moves, their effect and a fast replay of a run of passes, for a rule
    set that provides the three hooks below."""

    def announceable(self, s: S, seat: int) -> list[str]:
        """Items `seat` may announce now."""
        raise NotImplementedError

    def kontrable(self, s: S, seat: int) -> list[str]:
        """Items `seat` may raise the kontra level of now."""
        raise NotImplementedError

    def first_leader(self, s: S) -> int:
        """Who leads the first trick once the round is over."""
        raise NotImplementedError

    def legal_round(self, s: S) -> list[Move]:
        """Pass, then every announcement, then every kontra, in the hooks' order."""
        seat = s.turn
        assert seat is not None
        moves = [shared_move(PASS)]
        moves += [shared_move(ANNOUNCE, i) for i in self.announceable(s, seat)]
        moves += [shared_move(KONTRA, i) for i in self.kontrable(s, seat)]
        return moves

    def explain_round(self, s: S, move: Move) -> str:
        if move.kind == ANNOUNCE:
            return m.ANNOUNCEMENT_NOT_ALLOWED
        return m.KONTRA_NOT_ALLOWED if move.kind == KONTRA else m.WRONG_PHASE

    def apply_round(self, s: S, move: Move) -> S:
        seat = s.turn
        assert seat is not None
        if move.kind == PASS:
            if s.passes + 1 == s.players:
                return self._start_play(s)
            return evolve(s, passes=s.passes + 1, turn=(seat + 1) % s.players)
        if move.kind == ANNOUNCE:
            fact = Fact(seat, ANNOUNCE, move.value)
            return evolve(
                s,
                announced=(*s.announced, (move.value, seat)),
                passes=0,
                facts=(*s.facts, fact),
            )
        level = level_of(s, move.value) + 1
        levels = (*((i, v) for i, v in s.levels if i != move.value), (move.value, level))
        fact = Fact(seat, KONTRA, move.value, level)
        return evolve(s, levels=levels, passes=0, facts=(*s.facts, fact))

    def replay_round(self, s: S, moves: Sequence[Move], start: int) -> tuple[S, int]:
        """A run of validated passes from `moves[start]` on applied at once (another move one
        by one), equal to `apply_round` move by move."""
        seat, passes, i = s.turn, s.passes, start
        assert seat is not None
        while i < len(moves) and moves[i].kind == PASS:
            if passes + 1 == s.players:  # the last pass: play starts
                return self._start_play(evolve(s, passes=passes, turn=seat)), i + 1
            passes, seat, i = passes + 1, (seat + 1) % s.players, i + 1
        if i == start:
            return self.apply_round(s, moves[i]), i + 1
        return evolve(s, passes=passes, turn=seat), i

    def _start_play(self, s: S) -> S:
        """Trick play starting, as `trickplay.start_tricks` makes it."""
        return evolve(s, passes=0, phase=TRICKS, turn=self.first_leader(s))
