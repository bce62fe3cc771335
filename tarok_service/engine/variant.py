"""The Variant base: a rule set as data plus small per-phase hooks, and the registry by id."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, NamedTuple

from . import moves as m
from .cards import Card, Deck
from .match import MatchState, Settlement
from .moves import IllegalMove, Move
from .options import OptionError, OptionSpec, OptionValue, Rules, resolve
from .outcome import HandResult
from .state import HandState
from .view import View


@dataclass(frozen=True)
class ContractInfo:
    """One row of a contract table, as ListVariants shows it."""

    id: str
    name: str
    value: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class BonusInfo:
    """One row of a bonus table: silent and announced values (0 = not available)."""

    id: str
    name: str
    silent: int
    announced: int


Legal = Callable[[HandState], list[Move]]
Apply = Callable[[HandState, Move], HandState]
IsLegal = Callable[[HandState, Move], bool]
Replay = Callable[[HandState, Sequence[Move], int], tuple[HandState, int]]


class PhaseHooks(NamedTuple):
    """One phase's functions: `legal_<phase>`, `apply_<phase>` and the optional fast paths
    `is_legal_<phase>(state, move)` (agrees with `move in legal`) and
    `replay_<phase>(state, moves, start) -> (state, next index)` (applies at least one
    validated move, as many as it can, exactly as `apply_<phase>` one by one would)."""

    legal: Legal
    apply: Apply
    is_legal: IsLegal | None
    replay: Replay | None


class Variant(ABC):
    """A rule set. Subclasses set the class data and implement one legal/apply pair per phase:
    `legal_<phase>(state)` and `apply_<phase>(state, move)`, optionally with the fast paths of
    `PhaseHooks` (`is_legal_<phase>`, `replay_<phase>`)."""

    id: ClassVar[str]
    name: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    rules_version: ClassVar[int] = 1

    def make_rules(self, players: int, options: Mapping[str, OptionValue] | None = None) -> Rules:
        """Validated table rules; raises OptionError naming the bad field."""
        if players not in self.player_counts:
            raise OptionError("players", f"{self.id} is played by {self.player_counts} players")
        return Rules(self.id, players, resolve(self.option_specs, options or {}))

    @abstractmethod
    def deck(self, rules: Rules) -> Deck:
        """The pack this table plays with."""

    @abstractmethod
    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> HandState:
        """A new hand from an explicit card order (the shuffle is an input)."""

    @abstractmethod
    def view(self, state: HandState, seat: int | None) -> View:
        """What `seat` may see (None: a spectator)."""

    @abstractmethod
    def result(self, state: HandState) -> HandResult | None:
        """The scored result once the hand is over, else None."""

    @abstractmethod
    def label(self, state: HandState, move: Move) -> str:
        """A human-readable label for a legal move."""

    @abstractmethod
    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        """The contract table for a player count."""

    @abstractmethod
    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """The bonus table for a player count."""

    # --- phase dispatch -------------------------------------------------------------------

    def _hooks(self, phase: str) -> PhaseHooks:
        """The phase's legal/apply pair and its optional `is_legal_<phase>` and
        `replay_<phase>` fast paths, looked up once per variant object and phase."""
        cache: dict[str, PhaseHooks] | None = self.__dict__.get("_phase_hooks")
        if cache is None:
            cache = self.__dict__["_phase_hooks"] = {}
        hooks = cache.get(phase)
        if hooks is None:
            legal = getattr(self, f"legal_{phase}", None)
            apply = getattr(self, f"apply_{phase}", None)
            if legal is None or apply is None:
                raise IllegalMove(m.HAND_FINISHED, f"no moves in phase {phase}")
            hooks = cache[phase] = PhaseHooks(
                legal,
                apply,
                getattr(self, f"is_legal_{phase}", None),
                getattr(self, f"replay_{phase}", None),
            )
        return hooks

    def _pair(self, phase: str) -> tuple[Legal, Apply]:
        hooks = self._hooks(phase)
        return hooks.legal, hooks.apply

    def legal_for(self, state: HandState, seat: int | None) -> tuple[Move, ...]:
        """The legal moves a view shows `seat`: all of them on its turn, none otherwise."""
        return tuple(self.legal_moves(state)) if seat is not None and seat == state.turn else ()

    def legal_moves(self, state: HandState) -> list[Move]:
        """Every legal move of the player to move; empty once the hand is over."""
        if state.finished:
            return []
        moves = self._hooks(state.phase).legal(state)
        # Remembered for a check of the same state's move in `apply` (legal, choose, apply).
        self.__dict__["_last_legal"] = (state, tuple(moves))
        return moves

    def is_legal(self, state: HandState, move: Move) -> bool:
        """`move in legal_moves(state)`, through the phase's fast `is_legal_<phase>` if any."""
        if state.finished:
            return False
        hooks = self._hooks(state.phase)
        if hooks.is_legal is not None:
            return hooks.is_legal(state, move)
        return move in hooks.legal(state)

    def apply(self, state: HandState, move: Move, check: bool = True) -> HandState:
        """The state after `move`; raises IllegalMove with a stable reason when not legal.

        `check=False` skips validation, for replaying a log that was validated when written.
        """
        if state.finished:
            raise IllegalMove(m.HAND_FINISHED, "the hand is over")
        hooks = self._hooks(state.phase)
        if check:
            fast = hooks.is_legal
            if fast is not None:
                ok = fast(state, move)
            else:
                last = self.__dict__.get("_last_legal")
                ok = move in (
                    last[1] if last is not None and last[0] is state else hooks.legal(state)
                )
            if not ok:
                raise IllegalMove(*self.explain(state, move))
        return hooks.apply(state, move)

    def replay(self, state: HandState, moves: Iterable[Move]) -> HandState:
        """The state after already-validated `moves`: equal to folding `apply(check=False)` over
        them, faster (a phase's `replay_<phase>` applies a run of its moves at once).
        Unvalidated moves give undefined results."""
        todo = moves if isinstance(moves, (list, tuple)) else list(moves)
        i, total = 0, len(todo)
        while i < total:
            if state.finished:
                raise IllegalMove(m.HAND_FINISHED, "the hand is over")
            hooks = self._hooks(state.phase)
            if hooks.replay is not None:
                state, i = hooks.replay(state, todo, i)
            else:
                state = hooks.apply(state, todo[i])
                i += 1
        return state

    def explain(self, state: HandState, move: Move) -> tuple[str, str]:
        """(reason code, sentence) for a move that is not legal now."""
        hook = getattr(self, f"explain_{state.phase}", None)
        if hook is not None:
            reason: str = hook(state, move)
            return reason, f"{move.id} is not allowed: {reason.lower().replace('_', ' ')}"
        return m.ILLEGAL_MOVE, f"{move.id} is not a legal move in phase {state.phase}"

    def invariants(self, state: HandState, result: HandResult) -> list[str]:
        """Variant-specific checks of a finished hand (e.g. card points add up); [] when fine."""
        return []

    # --- match accounting hooks -------------------------------------------------------------

    def settle(self, match: MatchState, result: HandResult) -> MatchState:
        """Fold a scored hand into the match (totals, dealer rotation)."""
        return match.record(result.totals, redeal=result.redeal)

    def close(self, match: MatchState) -> MatchState:
        """End-of-match adjustments (e.g. radelci penalties), explained in `settled`."""
        return replace(match, settled=Settlement.of(match.players, []))
