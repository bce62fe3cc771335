"""A duplicate tournament over gRPC with a remote bot on its own connection: the standings
add up from the table logs, and deals stay sealed until the tournament has finished."""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from typing import Any

import pytest
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.tournaments import Tournaments

from ..service.harness import ServerThread
from .helpers import (
    ORGANISER_KEY,
    assert_fair,
    check_in,
    last_totals,
    start_runner,
    table_log,
    wait_finished,
)


@pytest.mark.slow
def test_duplicate_tournament_with_a_remote_bot_adds_up_from_the_table_logs(
    server: ServerThread,
) -> None:
    entrants = [("far-away", ""), ("random", "random"), ("heuristic", "heuristic")]
    with connect(server.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", entrants, deals=2, players=4, duplicate=True, time_per_move=30, seed=5,
            full_rotation=True,
        )  # fmt: skip
    assert created.games == 8  # 2 deals x 4 rotations of (a, b, c, a)
    (token,) = created.entrant_tokens
    runner = BotRunner(server.target, [token.token], EngineBot("heuristic", seed=1))
    thread = start_runner(runner)
    doc = wait_finished(server.target, created.tournament_id)
    thread.join(60)
    assert not thread.is_alive()
    assert runner.stats.moves > 0 and runner.stats.refused == 0
    assert runner.stats.tables == created.games
    assert_fair(server.target, created.tournament_id)
    assert doc["full_rotation"] is True  # marked: the organiser trusted the entrant to forget

    sums: dict[str, int] = defaultdict(int)
    seats: dict[tuple[int, str], set[int]] = defaultdict(set)
    deals: dict[int, set[tuple[str, ...]]] = defaultdict(set)
    for game in doc["games"]:
        log = table_log(server.target, game["log_token"])
        assert log.complete  # the tournament has finished: the deals are public now
        totals = last_totals(log)
        assert totals == game["scores"]
        seated = [e.player_seated.name for e in log.events if e.HasField("player_seated")]
        assert seated == game["seats"]
        dealt = next(e.hand_dealt for e in log.events if e.HasField("hand_dealt"))
        deals[game["deal"]].add(tuple(dealt.order))
        for seat, name in enumerate(seated):
            sums[name] += totals[seat]
            seats[(game["deal"], name)].add(seat)
    assert all(len(orders) == 1 for orders in deals.values())  # same cards at every rotation
    assert all(s == {0, 1, 2, 3} for s in seats.values())  # every entrant, every seat
    rows = {row["name"]: row for row in doc["entrants"]}
    assert {name: row["score"] for name, row in rows.items()} == dict(sums)
    expected = _per_deal(doc["games"])
    for name, row in rows.items():
        assert row["per_deal"] == pytest.approx(expected[name], abs=1e-3)
        assert row["games"] == created.games and row["timeouts"] == 0


def _per_deal(games: list[dict[str, Any]]) -> dict[str, float]:
    """Duplicate-normalised score per deal, recomputed from the per-table scores."""
    par: dict[tuple[int, int], list[int]] = defaultdict(list)
    for g in games:
        for seat, score in enumerate(g["scores"]):
            par[(g["deal"], seat)].append(score)
    mine: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        for seat, name in enumerate(g["seats"]):
            deviation = g["scores"][seat] - statistics.fmean(par[(g["deal"], seat)])
            mine[name][g["deal"]].append(deviation)
    return {
        name: statistics.fmean(statistics.fmean(v) for v in by_deal.values())
        for name, by_deal in mine.items()
    }


@pytest.mark.slow
def test_deals_stay_sealed_until_the_tournament_has_finished(server: ServerThread) -> None:
    # Four entrants at three seats, full rotation: the remote one ("late") only plays the
    # second deal, which starts after the first (parallel 1) and waits for it (no time limit).
    entrants = [("h1", "heuristic"), ("h2", "heuristic"), ("r", "random"), ("late", "")]
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create(
            "slovenian", entrants, deals=2, players=3, parallel_tables=1, seed=9,
            full_rotation=True,
        )  # fmt: skip
        tid = created.tournament_id
        late = created.entrant_tokens[0].token
        check_in(server.target, late)  # the tables wait for it until it checks in
        info = tours.get(tid, with_games=True)
        deadline = time.monotonic() + 60
        while not info.game_list[1].started:
            assert time.monotonic() < deadline, "the second table did not start"
            time.sleep(0.02)
            info = tours.get(tid, with_games=True)
        assert 3 not in info.game_list[0].seating and 3 in info.game_list[1].seating
        assert info.game_list[0].finished
        token = json.loads(tours.export(tid))["games"][0]["log_token"]  # the organiser's
    first = table_log(server.target, token)
    assert not first.complete  # finished, but the tournament is not
    assert all(not e.hand_dealt.order for e in first.events if e.HasField("hand_dealt"))
    runner = BotRunner(server.target, [late], EngineBot("random"))
    start_runner(runner).join(120)
    finished = wait_finished(server.target, tid)
    assert table_log(server.target, finished["games"][0]["log_token"]).complete
