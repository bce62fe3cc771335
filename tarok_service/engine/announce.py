"""One announcement round: in turn, each player announces a bonus, raises a kontra or passes;
the round ends, and trick play starts, once every player has passed in a row.

A rule set's state extends `AnnouncingState`; the rule set mixes `AnnouncementRound` in, says
what may be announced and raised (`announceable`, `kontrable`) and who leads the first trick
(`first_leader`), and puts `round_phase()` in its phase table under its round's phase.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

from . import moves as m
from .fastcopy import copier, evolve
from .moves import Move, MoveKind, shared_move
from .phases import PhaseRule
from .state import TRICKS, HandState
from .view import Fact, shared_fact


@dataclass(frozen=True, slots=True)
class AnnouncingState(HandState):
    """A hand with an announcement round: what was announced and raised, passes in a row, and
    the public facts (every announcement and kontra is one)."""

    announced: tuple[tuple[str, int], ...] = ()  # (item, seat)
    levels: tuple[tuple[str, int], ...] = ()  # (item, kontra level)
    passes: int = 0
    facts: tuple[Fact, ...] = ()

    def level(self, item: str) -> int:
        """The kontra level an item stands at (0: not raised)."""
        for name, level in self.levels:
            if name == item:
                return level
        return 0

    def announcer(self, item: str) -> int | None:
        for name, seat in self.announced:
            if name == item:
                return seat
        return None


S = TypeVar("S", bound=AnnouncingState)

# Plain-str values for the hot paths (an enum member costs an attribute lookup through the enum
# class on every use, and compares slower than a str).
_PASS, _ANNOUNCE, _KONTRA = MoveKind.PASS.value, MoveKind.ANNOUNCE.value, MoveKind.KONTRA.value
_PASS_MOVE = shared_move(_PASS)
# The fields a saying and the round's end change, for `state.copier` (a copy made without
# keyword arguments: these copies are made in every playout).
_ANNOUNCED = ("announced", "passes", "facts", "turn")
_RAISED = ("levels", "passes", "facts", "turn")
_ENDED = ("passes", "phase", "turn")

RoundKey: TypeAlias = tuple[int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
RoundMoves: TypeAlias = Callable[[S, int], Sequence[Move]]  # `round_moves`
_NONE_KEPT: Mapping[RoundKey, Sequence[Move]] = {}  # (read-only: typed as a Mapping)


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
        """Who leads the first trick once the round is over (read from what the round does
        not change: not from `turn` or `passes`)."""
        raise NotImplementedError

    def round_phase(self) -> PhaseRule[S]:
        """The round's entry in the rule set's phase table."""
        return PhaseRule(
            self.legal_round,
            self.apply_round,
            self.explain_round,
            replay=self.replay_round,
            playout=self.playout_round,
        )

    def legal_round(self, s: S) -> list[Move]:
        """Pass, then every announcement, then every kontra, in the hooks' order."""
        seat = s.turn
        assert seat is not None
        return [*self.round_moves(s, seat)]

    def round_moves(self, s: S, seat: int) -> Sequence[Move]:
        """The legal moves of `seat` (the seat to move) as `legal_round` lists them, not to be
        changed: a rule set may keep them (its hooks read what was said and the sides, never
        `turn` or `passes`)."""
        return self._round_moves(s, seat)

    def round_table(self, s: S) -> tuple[Mapping[RoundKey, Sequence[Move]], RoundMoves[S]]:
        """`round_moves` for the states of the round from `s` on: the moves kept by (seat,
        announced, levels) - a rule set may keep them per what the round does not change:
        the hands, the contract, the sides - and the function giving the others (default:
        none kept)."""
        return _NONE_KEPT, self.round_moves

    def _round_moves(self, s: S, seat: int) -> list[Move]:
        moves = [_PASS_MOVE]
        items = self.announceable(s, seat)
        if items:
            moves += [shared_move(_ANNOUNCE, i) for i in items]
        items = self.kontrable(s, seat)
        if items:
            moves += [shared_move(_KONTRA, i) for i in items]
        return moves

    def explain_round(self, s: S, move: Move) -> str:
        if move.kind == _ANNOUNCE:
            return m.Reason.ANNOUNCEMENT_NOT_ALLOWED
        return m.Reason.KONTRA_NOT_ALLOWED if move.kind == _KONTRA else m.Reason.WRONG_PHASE

    def apply_round(self, s: S, move: Move) -> S:
        seat = s.turn
        assert seat is not None
        if move.kind == _PASS:
            if s.passes + 1 == s.players:
                return self._start_play(s)
            return evolve(s, passes=s.passes + 1, turn=(seat + 1) % s.players)
        return self._say(s, seat, move)

    def _say(self, s: S, seat: int, move: Move) -> S:
        """The state after `seat` announces or raises (he keeps the turn)."""
        said: S
        if move.kind == _ANNOUNCE:
            fact = shared_fact(seat, _ANNOUNCE, move.value)
            said = copier(type(s), *_ANNOUNCED)(
                s, (*s.announced, (move.value, seat)), 0, (*s.facts, fact), seat
            )
            return said
        item, level, kept = move.value, 1, []  # the item one level up, moved to the end
        for name, at in s.levels:
            if name == item:
                level = at + 1
            else:
                kept.append((name, at))
        fact = shared_fact(seat, _KONTRA, item, level)
        said = copier(type(s), *_RAISED)(s, (*kept, (item, level)), 0, (*s.facts, fact), seat)
        return said

    def replay_round(self, s: S, moves: Sequence[Move], start: int) -> tuple[S, int]:
        """Validated moves of the round from `moves[start]` on, applied at once to the end of
        the round (or of `moves`), equal to `apply_round` move by move."""
        seat, passes, players, i, total = s.turn, s.passes, s.players, start, len(moves)
        assert seat is not None
        while i < total:
            move = moves[i]
            i += 1
            if move.kind == _PASS:
                if passes + 1 == players:  # the last pass: play starts
                    return self._start_play(s), i
                passes, seat = passes + 1, (seat + 1) % players
                continue
            passes, s = 0, self._say(s, seat, move)
        return evolve(s, passes=passes, turn=seat), i

    def playout_round(self, s: S, pick: Callable[[list[Move]], Move]) -> S:
        """The round played to its end by `pick`, equal to `apply_round(pick(legal_round))`
        move by move: a pass only moves the turn on (in locals), a saying makes the next
        state."""
        seat, passes, players = s.turn, s.passes, s.players
        assert seat is not None
        kept, moves = self.round_table(s)
        get = kept.get
        while True:
            move = pick([*(get((seat, s.announced, s.levels)) or moves(s, seat))])
            if move.kind == _PASS:
                passes += 1
                if passes == players:  # the last pass: play starts
                    return self._start_play(s)
                seat = (seat + 1) % players
            else:
                passes, s = 0, self._say(s, seat, move)

    def _start_play(self, s: S) -> S:
        """Trick play starting, as `trickplay.start_tricks` makes it."""
        started: S = copier(type(s), *_ENDED)(s, 0, TRICKS, self.first_leader(s))
        return started
