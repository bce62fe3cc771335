"""Check-in: the clocks start once every remote entrant has connected; a late bot then plays
every one of its tables without a timeout, and one that never connects forfeits at the start
without timing out anywhere."""

from __future__ import annotations

import pytest
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.tournaments import Tournaments

from ..service.harness import ServerThread
from .helpers import ORGANISER_KEY, assert_fair, start_runner, wait_finished

ENTRANTS = [("late", ""), ("h", "heuristic"), ("r", "random")]


@pytest.mark.slow
def test_a_late_bot_checks_in_and_plays_every_table_without_timeouts(
    server: ServerThread,
) -> None:
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create(
            "slovenian", ENTRANTS, deals=3, players=3, duplicate=True,
            time_per_move=30, check_in=600, parallel_tables=9,
        )  # fmt: skip
        for _ in range(3):  # nothing starts before "late" checks in (the window is long)
            info = tours.get(created.tournament_id)
            assert info.games_started == 0 and not info.checked_in
    runner = BotRunner(server.target, [created.entrant_tokens[0].token], EngineBot("heuristic"))
    thread = start_runner(runner)
    doc = wait_finished(server.target, created.tournament_id)
    thread.join(60)
    rows = {row["name"]: row for row in doc["entrants"]}
    mine = [g for g in doc["games"] if "late" in g["seats"]]
    assert len(mine) == 3  # once per deal, at one table of each
    assert runner.stats.tables == len(mine) and runner.stats.late == 0
    assert rows["late"]["timeouts"] == 0 and not rows["late"]["forfeited"]
    assert rows["late"]["games"] == len(mine)
    with connect(server.target) as client:
        assert list(Tournaments(client).get(created.tournament_id).checked_in) == [0]
    assert_fair(server.target, created.tournament_id)


@pytest.mark.slow
def test_an_entrant_that_never_checks_in_forfeits_cleanly_at_the_start(
    server: ServerThread,
) -> None:
    with connect(server.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", ENTRANTS, deals=2, players=3, time_per_move=30, check_in=0.5
        )
    doc = wait_finished(server.target, created.tournament_id)
    rows = {row["name"]: row for row in doc["entrants"]}
    assert rows["late"]["forfeited"] and rows["late"]["timeouts"] == 0
    assert all(g["finished"] for g in doc["games"])
    assert all(t == 0 for g in doc["games"] for t in g["timeouts"])
