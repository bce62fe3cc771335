"""The Variant base: a rule set as data plus small per-phase hooks, and the registry by id."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar, Generic, Protocol, TypeVar

from . import moves as m
from .cards import Card, Deck
from .match import MatchState, Settlement
from .memo import keep_answer, last_answer
from .moves import EngineBug, IllegalMove, Move
from .options import OptionError, OptionSpec, OptionValue, Rules, resolve
from .outcome import HandResult
from .phases import PhaseRule, PhaseTable, check_table
from .shuffle import RandomBits, random_order
from .state import ENDED, HandState
from .view import View

S = TypeVar("S", bound=HandState)

_RULES_KEPT = 256  # distinct table rules `make_rules` shares per rule set


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


class Combination(Protocol):
    """One declared combination, as a view names it."""

    @property
    def name(self) -> str: ...

    @property
    def cards(self) -> tuple[Card, ...]: ...


class Declarable(Protocol):
    """What a `declare` move would declare: the combinations and their total value."""

    @property
    def all(self) -> Sequence[Combination]: ...

    @property
    def total(self) -> int: ...


class Variant(ABC, Generic[S]):
    """A rule set over its own state type `S`. Subclasses set the class data, name their phases
    in a StrEnum (`phases`) and declare one `PhaseRule` per phase that takes moves in
    `phase_table()` (see `engine/phases.py`); the registry checks the table when the rule set
    registers. Optional hooks have defaults here (`default_move`, `groups`, `talon_group`,
    `call_cards`, `combinations`)."""

    phases: ClassVar[type[StrEnum]]
    id: ClassVar[str]
    name: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    rules_version: ClassVar[int] = 1
    # The ids a UI shows, by kind (`variants.vocabulary_kinds`), beyond the contracts and bonuses
    # of the tables: the rule set's own `vocabulary.py` (empty: none; the registry's
    # completeness test asks for one).
    vocabulary_table: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def make_rules(self, players: int, options: Mapping[str, OptionValue] | None = None) -> Rules:
        """Validated table rules; raises OptionError naming the bad field. Equal rules are one
        object (the last `_RULES_KEPT` kept), so that the memos a rule set keeps by the
        identity of the rules serve every table that plays by them."""
        if players not in self.player_counts:
            raise OptionError("players", f"{self.id} is played by {self.player_counts} players")
        resolved = resolve(self.option_specs, options or {})
        kept: dict[tuple[object, ...], Rules] = self.__dict__.setdefault("_rules_kept", {})
        key = (players, *resolved.values())  # `resolve` lists every option in spec order
        rules = kept.get(key)
        if rules is None:
            if len(kept) >= _RULES_KEPT:
                kept.clear()
            rules = kept[key] = Rules(self.id, players, resolved)
        return rules

    @abstractmethod
    def deck(self, rules: Rules) -> Deck:
        """The pack this table plays with."""

    @abstractmethod
    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> S:
        """A new hand from an explicit card order (the shuffle is an input)."""

    def random_deal(self, rules: Rules, rng: RandomBits, dealer: int) -> S:
        """A uniformly random deal for playouts, bots and benchmarks: `deal` of the deck in a
        `shuffle.random_order` drawn from `rng` (a rule set may deal the indices directly, to
        the same state). The service shuffles with its own CSPRNG instead."""
        cards = self.deck(rules).cards
        return self.deal(rules, [cards[i] for i in random_order(len(cards), rng)], dealer)

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """What `seat` may see (None: a spectator)."""

    @abstractmethod
    def result(self, state: S) -> HandResult | None:
        """The scored result once the hand is over, else None."""

    @abstractmethod
    def label(self, state: S, move: Move) -> str:
        """A human-readable label for a legal move."""

    @abstractmethod
    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        """The contract table for a player count."""

    @abstractmethod
    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """The bonus table for a player count."""

    # --- phase dispatch -------------------------------------------------------------------

    @abstractmethod
    def phase_table(self) -> PhaseTable[S]:
        """The phase table: a PhaseRule for every phase of `phases` that takes moves (every
        phase but `scored` and `redeal`). Called once per variant object."""

    def checked_table(self) -> dict[str, PhaseRule[S]]:
        """The phase table, checked against `phases` (RuleSetError names what is wrong) and
        kept for dispatch; `register` calls it, so a broken rule set fails at import."""
        table: dict[str, PhaseRule[S]] | None = self.__dict__.get("_phase_rules")
        if table is None:
            table = self.__dict__["_phase_rules"] = check_table(
                self.id, self.phases, self.phase_table()
            )
        return table

    def phase_rule(self, phase: str) -> PhaseRule[S]:
        """The phase's rule (what the API below dispatches to; a caller that drives many moves
        may look it up once per phase); EngineBug for a phase without one (a state that cannot
        arise)."""
        table: dict[str, PhaseRule[S]] | None = self.__dict__.get("_phase_rules")
        if table is None:
            table = self.checked_table()
        rule = table.get(phase)
        if rule is None:
            raise EngineBug(f"{self.id}: no phase rule for phase {phase!r}")
        return rule

    def legal_for(self, state: S, seat: int | None) -> tuple[Move, ...]:
        """The legal moves a view shows `seat`: all of them on its turn, none otherwise."""
        return tuple(self.legal_moves(state)) if seat is not None and seat == state.turn else ()

    def legal_moves(self, state: S) -> list[Move]:
        """Every legal move of the player to move; empty once the hand is over."""
        if state.finished:
            return []
        moves = self.phase_rule(state.phase).legal(state)
        # Remembered for a check of the same state's move in `apply` (legal, choose, apply).
        keep_answer(self, "_last_legal", (state, tuple(moves)))
        return moves

    def is_legal(self, state: S, move: Move) -> bool:
        """`move in legal_moves(state)`, through the phase's fast `is_legal` if any."""
        if state.finished:
            return False
        rule = self.phase_rule(state.phase)
        if rule.is_legal is not None:
            return rule.is_legal(state, move)
        return move in rule.legal(state)

    def apply(self, state: S, move: Move, check: bool = True) -> S:
        """The state after `move`; raises IllegalMove with a stable reason when not legal.

        `check=False` skips validation, for replaying a log that was validated when written.
        """
        if state.finished:
            raise IllegalMove(m.Reason.HAND_FINISHED, "the hand is over")
        rule = self.phase_rule(state.phase)
        if check:
            fast = rule.is_legal
            if fast is not None:
                ok = fast(state, move)
            else:
                last = last_answer(self, "_last_legal")
                ok = move in (
                    last[1] if last is not None and last[0] is state else rule.legal(state)
                )
            if not ok:
                raise IllegalMove(*self.explain(state, move))
            after = rule.apply(state, move)
            if not after.finished and after.phase not in self.__dict__["_phase_rules"]:
                # caught before anything is written: a checked move never leaves a state that
                # cannot go on
                raise EngineBug(f"{self.id}: {move.id} led to phase {after.phase!r}, no rule")
            return after
        return rule.apply(state, move)

    def replay(self, state: S, moves: Iterable[Move]) -> S:
        """The state after already-validated `moves`: equal to folding `apply(check=False)` over
        them, faster (a phase's `replay` fast path applies a run of its moves at once).
        Unvalidated moves give undefined results."""
        todo = moves if isinstance(moves, (list, tuple)) else list(moves)
        i, total = 0, len(todo)
        table = self.__dict__.get("_phase_rules") or self.checked_table()
        while i < total:
            if state.phase in ENDED:  # `state.finished`, without the property call
                raise IllegalMove(m.Reason.HAND_FINISHED, "the hand is over")
            rule = table.get(state.phase) or self.phase_rule(state.phase)  # EngineBug if none
            if rule.replay is not None:
                state, i = rule.replay(state, todo, i)
            else:
                state = rule.apply(state, todo[i])
                i += 1
        return state

    def explain(self, state: S, move: Move) -> tuple[str, str]:
        """(reason code, sentence) for a move that is not legal now."""
        hook = self.phase_rule(state.phase).explain
        if hook is not None:
            reason = hook(state, move)
            return reason, f"{move.id} is not allowed: {reason.lower().replace('_', ' ')}"
        return m.Reason.ILLEGAL_MOVE, f"{move.id} is not a legal move in phase {state.phase}"

    # --- declared optional hooks ------------------------------------------------------------

    def default_move(self, state: S) -> Move | None:
        """The safe move a timed-out seat (or a forfeited entrant) gets; None once nobody is to
        move. Default: the first legal move."""
        moves = self.legal_moves(state)
        return moves[0] if moves else None

    def groups(self, state: S) -> Sequence[tuple[Card, ...]]:
        """The talon groups a `talon:<index>` move picks from (none by default)."""
        return ()

    def talon_group(self, state: S, index: int) -> tuple[Card, ...]:
        """The group a legal `talon:<index>` move picks. EngineBug when it does not exist: a
        client's index out of range is refused as an illegal move before it gets here."""
        groups = self.groups(state)
        if not 0 <= index < len(groups):
            raise EngineBug(f"{self.id}: no talon group {index} of {len(groups)}")
        return groups[index]

    def call_cards(self, state: S, value: str) -> tuple[Card, ...] | None:
        """The cards a `call:<value>` move names (None: calls name no cards)."""
        return None

    def combinations(self, state: S, cards: Sequence[Card]) -> Declarable | None:
        """The combinations `cards` hold, for a `declare` move (None: no declarations)."""
        return None

    def invariants(self, state: S, result: HandResult) -> list[str]:
        """Variant-specific checks of a finished hand (e.g. card points add up); [] when fine."""
        return []

    # --- match accounting hooks -------------------------------------------------------------

    def settle(self, match: MatchState, result: HandResult) -> MatchState:
        """Fold a scored hand into the match (totals, dealer rotation)."""
        return match.record(result.totals, redeal=result.redeal)

    def close(self, match: MatchState) -> MatchState:
        """End-of-match adjustments (e.g. radelci penalties), explained in `settled`."""
        return replace(match, settled=Settlement.of(match.players, []))
