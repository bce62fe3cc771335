"""OpenSpiel agents as tarok bots: any `pyspiel.Bot` (ISMCTS, uniform random, a policy bot)
plays a seat from what the seat sees, locally or remotely through the client's bot runner.

A remote seat knows only its view, so the agent is given a world consistent with it: the rule
set's sampler deals the unseen cards (as the PIMC bot does), and the agent searches from there
(ISMCTS samples further worlds itself through `resample_from_infostate`). Where the sampler
cannot build a world (the auction and talon phases of some rule sets) the built-in heuristic
bot plays that decision instead, and `fallbacks` counts how often that happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from tarok_service.bots.heuristic import HeuristicBot
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import View
from tarok_service.variants.registry import find_rule_set

from .game import GAMES, TarokGame, TarokState

AgentFactory = Callable[[TarokGame, int, np.random.RandomState], Any]
SHORT_NAMES = {variant_id: short for short, (variant_id, _) in GAMES.items()}


def _ismcts(game: TarokGame, seat: int, rng: np.random.RandomState, **kw: Any) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=int(kw.get("rollouts", 1)), random_state=rng)
    return ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=float(kw.get("uct_c", 2.0)),
        max_simulations=int(kw.get("simulations", 50)),
        random_state=rng,
    )


def _uniform(game: TarokGame, seat: int, rng: np.random.RandomState, **kw: Any) -> Any:
    return pyspiel.make_uniform_random_bot(seat, int(rng.randint(1 << 30)))


AGENTS: dict[str, Callable[..., Any]] = {"ismcts": _ismcts, "random": _uniform}


def game_for(variant: Variant[Any], rules: Rules) -> TarokGame:
    """The OpenSpiel game of a table: its rule set, player count and options."""
    game = TarokGame(SHORT_NAMES[variant.id], {"players": rules.players})
    game.rules = rules
    return game


def state_for(game: TarokGame, view: View, rng: random.Random) -> TarokState | None:
    """A state consistent with `view` (unseen cards dealt by the rule set's sampler), or None
    when the sampler cannot build one for this phase."""
    sampler = find_rule_set(game.variant.id).sampler
    if sampler is None or view.seat is None:
        return None
    sampled = sampler.sample(view, game.rules, rng)
    if sampled is None or sampled.turn != view.seat:
        return None
    state = game.new_initial_state()
    state.dealer = view.dealer
    state.hand = sampled
    state.states = [sampled]
    return state


class OpenSpielBrain:
    """An OpenSpiel agent behind the engine's `Bot` interface (`choose(view, variant, rules)`)."""

    def __init__(self, agent: str = "ismcts", seed: int | None = None, **options: Any) -> None:
        if agent not in AGENTS:
            raise KeyError(f"unknown OpenSpiel agent {agent!r}; known: {sorted(AGENTS)}")
        self.name = f"openspiel-{agent}"
        self.agent = agent
        self.options = options
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(self.rng.randrange(1 << 30))
        self.fallback = HeuristicBot()
        self.fallbacks = 0
        self.decisions = 0
        self._games: dict[tuple[str, int, str], TarokGame] = {}

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`, chosen by the OpenSpiel agent where a world can be sampled."""
        self.decisions += 1
        if len(view.legal) == 1:
            return view.legal[0]
        key = (variant.id, rules.players, repr(sorted(rules.options.items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = game_for(variant, rules)
        state = state_for(game, view, self.rng)
        if state is not None:
            bot = AGENTS[self.agent](game, view.seat, self.np_rng, **self.options)
            move = game.space.decode(int(bot.step(state)))
            if move in view.legal:
                return move
        self.fallbacks += 1
        return self.fallback.choose(view, variant, rules)


class RemoteOpenSpielBot:
    """The client runner's bot interface (`choose(TableView) -> move id`) over `OpenSpielBrain`."""

    def __init__(self, agent: str = "ismcts", seed: int | None = None, **options: Any) -> None:
        self.brain = OpenSpielBrain(agent, seed, **options)
        self.name = self.brain.name

    def choose(self, view: Any) -> str:
        from tarok_client.convert import engine_view

        engine, variant, rules = engine_view(view)
        return self.brain.choose(engine, variant, rules).id
