"""Every rule set as an OpenSpiel game, refereed by the same engine as the server.

The deal is explicit chance: first the dealer, then the deck's cards one at a time in the order
the engine deals them. Player actions are the fixed numbers of `ActionSpace`; strings and
tensors come from the acting seat's `View` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from tarok_service.engine.cards import Card, Deck
from tarok_service.engine.moves import Move
from tarok_service.engine.options import OptionValue, Rules
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import View
from tarok_service.variants.registry import all_rule_sets, find_rule_set, find_variant

from .actions import ActionSpace
from .observe import Tensors, view_string
from .resample import redeal

PHASES = (
    "auction", "bidding", "calling", "exchange", "discard", "third_talon", "announce",
    "declare", "declaring", "tricks", "matto", "scored", "redeal",
)  # fmt: skip
MAX_MOVES = 600  # far above the longest hand of any rule set
# OpenSpiel name -> (rule set id, default player count), from each rule set's registered
# OpenSpiel mapping (`tarok_service.variants.ruleset.OpenSpielGame`).
GAMES: dict[str, tuple[str, int]] = {
    rs.openspiel.name: (rs.id, rs.openspiel.players) for rs in all_rule_sets() if rs.openspiel
}


def _parse_options(text: str) -> dict[str, OptionValue]:
    """Table options as "name=value,name=value" (OpenSpiel parameters are flat)."""
    options: dict[str, OptionValue] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        options[name.strip()] = value.strip()
    return options


class TarokGame(pyspiel.Game):  # type: ignore[misc]
    """One rule set at one player count, with table options."""

    def __init__(self, short_name: str, params: Mapping[str, Any] | None = None) -> None:
        variant_id, default_players = GAMES[short_name]
        params = dict(params or {})
        players = int(params.get("players", default_players))
        self.variant: Variant[Any] = find_variant(variant_id)
        self.rules: Rules = self.variant.make_rules(
            players, _parse_options(str(params.get("options", "")))
        )
        self.deck: Deck = self.variant.deck(self.rules)
        self.space = ActionSpace(self.variant, players)
        self.tensors = Tensors(self.deck, players, PHASES)
        mapping = find_rule_set(variant_id).openspiel
        assert mapping is not None  # GAMES lists only rule sets with a mapping
        bound = mapping.utility_bound
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=max(len(self.deck.cards), players),
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=1 + len(self.deck.cards) + MAX_MOVES,
        )
        super().__init__(_game_type(short_name, self.variant), info, params)
        self.short_name = short_name
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (self.short_name, self.params))

    def new_initial_state(self) -> TarokState:
        return TarokState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TarokObserver:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TarokObserver(self, perfect_recall=recall)


class TarokState(pyspiel.State):  # type: ignore[misc]
    """A hand: the deal by chance, then the engine's phases."""

    def __init__(self, game: TarokGame) -> None:
        super().__init__(game)
        self.game_: TarokGame = game
        self.dealer: int | None = None
        self.order: list[int] = []  # deck indices dealt so far
        self.hand: HandState | None = None
        self.states: list[HandState] = []  # the hand after the deal and after each move
        # (seat, its recall before `states`) for a resampled state that lacks the past
        self.recall: tuple[int, list[str]] | None = None
        self._lines: dict[int, list[str]] = {}  # cache: each seat's view line per state

    # --- the game tree --------------------------------------------------------------------

    def current_player(self) -> int:
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.hand.finished or self.hand.turn is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.hand.turn

    def is_terminal(self) -> bool:
        return self.hand is not None and (self.hand.finished or self.hand.turn is None)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            n = self.game_.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        left = sorted(set(range(len(self.game_.deck.cards))) - set(self.order))
        return [(i, 1.0 / len(left)) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None and player == self.hand.turn
        return sorted(self.game_.space.encode(m) for m in self.game_.variant.legal_moves(self.hand))

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            if self.dealer is None:
                self.dealer = action
                return
            self.order.append(action)
            cards = self.game_.deck.cards
            if len(self.order) == len(cards):
                order = [cards[i] for i in self.order]
                self._start(self.game_.variant.deal(self.game_.rules, order, self.dealer))
            return
        self._start(self.game_.variant.apply(self.hand, self.game_.space.decode(action)))

    def _start(self, hand: HandState) -> None:
        self.hand = hand
        self.states.append(hand)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer:{action}"
            return f"deal:{self.game_.deck.code(self.game_.deck.cards[action])}"
        move = self.game_.space.decode(action)
        hand, variant = self.hand, self.game_.variant
        if hand is not None and hand.turn == player and move in variant.legal_moves(hand):
            return variant.label(hand, move)
        return move.id

    def returns(self) -> list[float]:
        players = self.game_.rules.players
        if self.hand is None or not self.is_terminal():
            return [0.0] * players
        result = self.game_.variant.result(self.hand)
        if result is None or result.redeal:
            return [0.0] * players
        return [float(x) for x in result.totals]

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: dealer {self.dealer}, {len(self.order)} cards"
        return view_string(self.game_.variant.view(self.hand, None), self.game_.deck)

    # --- what a seat sees -----------------------------------------------------------------

    def view(self, player: int) -> View | None:
        """The engine's view of the hand for `player` (None while dealing)."""
        if self.hand is None:
            return None
        return self.game_.variant.view(self.hand, player)

    def observation_line(self, player: int) -> str:
        view = self.view(player)
        if view is None:
            return f"seat={player} dealing"
        return view_string(view, self.game_.deck)

    def recall_lines(self, player: int) -> list[str]:
        """The seat's view after the deal and after every move: its perfect-recall history."""
        deck, variant = self.game_.deck, self.game_.variant
        if not self.states:
            return [self.observation_line(player)]
        past = self.recall[1] if self.recall and self.recall[0] == player else []
        lines = self._lines.setdefault(player, [])
        for s in self.states[len(lines) :]:
            lines.append(view_string(variant.view(s, player), deck))
        return past + lines

    def resample_from_infostate(self, player: int, sampler: Any = None) -> TarokState:
        """A state the seat cannot tell from this one, with the cards it cannot see dealt
        again at random (the rule set's sampler, as the PIMC bot uses)."""
        del sampler  # the rule set's own sampler is used
        rng = random.Random()
        if self.hand is None or self.is_terminal():
            twin: TarokState = self.clone()
            return twin
        order = [self.game_.deck.cards[i] for i in self.order]
        moves = [self.game_.space.decode(a) for a in _player_actions(self)]
        found = redeal(self.game_, order, self.dealer or 0, moves, self.states, player, rng)
        if found is None:
            raise RuntimeError(f"no deal consistent with seat {player}'s view was found")
        twin = TarokState(self.game_)
        twin.dealer = self.dealer
        twin.order = list(self.order)  # the real deal's record, not the sampled one
        twin.states = found
        twin.hand = found[-1]
        if len(found) < len(self.states):  # a sampler gives only the present: keep the past
            twin.recall = (player, self.recall_lines(player)[:-1])
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_state, (self.game_, [int(a) for a in self.history()]))

    def __deepcopy__(self, memo: dict[int, Any]) -> TarokState:
        twin = TarokState(self.game_)
        twin.dealer, twin.order = self.dealer, list(self.order)
        twin.hand, twin.states, twin.recall = self.hand, list(self.states), self.recall
        twin._lines = {seat: list(lines) for seat, lines in self._lines.items()}
        return twin


def _load_game(short_name: str, params: Mapping[str, Any]) -> TarokGame:
    return TarokGame(short_name, params)


def _restore_state(game: TarokGame, history: list[int]) -> TarokState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class TarokObserver:
    """OpenSpiel's PyObserver: tensors and strings from the seat's view only."""

    def __init__(self, game: TarokGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        layout = game.tensors
        extra = game.space.size if perfect_recall else 0  # the seat's own moves so far
        self.tensor = np.zeros(layout.size + extra, np.float32)
        self.dict = {"observation": self.tensor[: layout.size]}
        if perfect_recall:
            self.dict["own_moves"] = self.tensor[layout.size :]

    def set_from(self, state: TarokState, player: int) -> None:
        view = state.view(player)
        self.tensor.fill(0)
        if view is not None:
            self.game.tensors.fill(self.dict["observation"], view)
        if self.perfect_recall:
            own = self.dict["own_moves"]
            for before, action in zip(state.states, _player_actions(state), strict=False):
                if before.turn == player:
                    own[action] = 1

    def string_from(self, state: TarokState, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state.recall_lines(player))
        return state.observation_line(player)


def _player_actions(state: TarokState) -> list[int]:
    """The player actions of the history, after the deal."""
    skip = 1 + len(state.game_.deck.cards)
    return [int(a) for a in state.history()[skip:]]


def _game_type(short_name: str, variant: Variant[Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python tarok: {variant.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(variant.player_counts),
        min_num_players=min(variant.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": GAMES[short_name][1], "options": ""},
    )


def _game_class(short_name: str) -> type[TarokGame]:
    """A TarokGame subclass fixed to one OpenSpiel name (pyspiel registers classes)."""

    def __init__(self: TarokGame, params: Mapping[str, Any] | None = None) -> None:
        TarokGame.__init__(self, short_name, params)

    name = "".join(part.title() for part in short_name.split("_")) + "Game"
    cls = type(name, (TarokGame,), {"__init__": __init__, "__module__": __name__})
    globals()[name] = cls  # importable by name, so pickling (serialisation) finds it
    return cls


def register_all() -> None:
    """Register every rule set with OpenSpiel (idempotent)."""
    registered = set(pyspiel.registered_names())
    for short_name in GAMES:
        if short_name not in registered:
            variant = find_variant(GAMES[short_name][0])
            pyspiel.register_game(_game_type(short_name, variant), _game_class(short_name))


def card_of(game: TarokGame, action: int) -> Card:
    """The card a chance action deals."""
    return game.deck.cards[action]


def move_of(game: TarokGame, action: int) -> Move:
    """The move a player action stands for."""
    return game.space.decode(action)
