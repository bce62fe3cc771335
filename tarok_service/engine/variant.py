"""The Variant base: a rule set as data plus small per-phase hooks, and the registry by id."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from . import moves as m
from .cards import Card, Deck
from .match import MatchState
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


class Variant(ABC):
    """A rule set. Subclasses set the class data and implement one legal/apply pair per phase:
    `legal_<phase>(state)` and `apply_<phase>(state, move)`."""

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

    def _pair(self, phase: str) -> tuple[Legal, Apply]:
        legal = getattr(self, f"legal_{phase}", None)
        apply = getattr(self, f"apply_{phase}", None)
        if legal is None or apply is None:
            raise IllegalMove(m.HAND_FINISHED, f"no moves in phase {phase}")
        return legal, apply

    def legal_moves(self, state: HandState) -> list[Move]:
        """Every legal move of the player to move; empty once the hand is over."""
        if state.finished:
            return []
        return self._pair(state.phase)[0](state)

    def apply(self, state: HandState, move: Move, check: bool = True) -> HandState:
        """The state after `move`; raises IllegalMove with a stable reason when not legal.

        `check=False` skips validation, for replaying a log that was validated when written.
        """
        if state.finished:
            raise IllegalMove(m.HAND_FINISHED, "the hand is over")
        legal, apply = self._pair(state.phase)
        if check and move not in legal(state):
            raise IllegalMove(*self.explain(state, move))
        return apply(state, move)

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
        """End-of-match adjustments (e.g. radelci penalties)."""
        return match


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.id] = variant
    return variant


def find_variant(variant_id: str) -> Variant:
    """The registered variant with this id; KeyError names the known ids."""
    from .. import variants  # noqa: F401  (registers every rule set)

    try:
        return _REGISTRY[variant_id]
    except KeyError:
        raise KeyError(f"unknown variant {variant_id!r}; known: {sorted(_REGISTRY)}") from None


def all_variants() -> list[Variant]:
    from .. import variants  # noqa: F401

    return list(_REGISTRY.values())
