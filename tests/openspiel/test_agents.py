"""OpenSpiel agents play tarok: locally through the engine's bot interface, and remotely as a
tournament entrant through the server, with the same runner as any remote bot."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tarok_client import connect
from tarok_client.runner import BotRunner
from tarok_client.tournaments import Tournaments
from tarok_openspiel.agent import OpenSpielBrain, RemoteOpenSpielBot

from tarok_service.bots import make_bot
from tarok_service.variants.registry import find_variant

from ..service.harness import ServerThread
from ..tournament.helpers import ORGANISER_KEY, start_runner, tour_config, wait_finished


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(tour_config())
    yield running
    running.stop()


@pytest.mark.parametrize("variant_id", ["slovenian", "tarocco_bolognese", "zwanzigerrufen"])
def test_ismcts_plays_whole_hands_against_the_heuristic_bot(variant_id: str) -> None:
    variant = find_variant(variant_id)
    rules = variant.make_rules(4)
    brain = OpenSpielBrain("ismcts", seed=1, simulations=4)
    heuristic = make_bot("heuristic")
    rng = random.Random(variant_id)
    for dealer in range(2):
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, dealer)
        while not state.finished:
            assert state.turn is not None
            view = variant.view(state, state.turn)
            bot = brain if state.turn == 0 else heuristic
            move = bot.choose(view, variant, rules)
            assert move in view.legal
            state = variant.apply(state, move)
    assert brain.decisions > brain.fallbacks


def test_an_openspiel_agent_finishes_a_remote_duplicate_tournament(server: ServerThread) -> None:
    entrants = [("ismcts", ""), ("heuristic", "heuristic"), ("random", "random")]
    with connect(server.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", entrants, deals=1, players=4, duplicate=True, time_per_move=60, seed=3
        )
    (token,) = created.entrant_tokens
    bot = RemoteOpenSpielBot("ismcts", seed=2, simulations=4)
    runner = BotRunner(server.target, [token.token], bot)
    thread = start_runner(runner)
    doc = wait_finished(server.target, created.tournament_id, timeout=600)
    thread.join(60)
    assert runner.stats.moves > 0 and runner.stats.refused == 0 and runner.stats.late == 0
    row = next(r for r in doc["entrants"] if r["name"] == "ismcts")
    # a remote entrant sits at one table per deal (it cannot be made to forget a deal)
    assert runner.stats.tables == row["games"] == 1
    assert row["timeouts"] == 0 and not row["forfeited"]
    assert bot.brain.decisions >= runner.stats.moves
