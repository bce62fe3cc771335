"""StreamMyTurns and the bot runner: one stream for many seats and tables, resuming after a
dropped connection (even a restarted server), and replicas that share one store."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.sdk import FINISHED
from tarok_client.tournaments import Tournaments
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..service.harness import ServerThread, expect_error
from .helpers import (
    ORGANISER_KEY,
    assert_fair,
    last_totals,
    start_runner,
    table_log,
    tour_config,
    wait_finished,
)


@pytest.mark.slow
def test_one_stream_plays_every_seat_of_two_free_tables(server: ServerThread) -> None:
    with connect(server.target) as client:
        seats = []
        for _ in range(2):
            table = client.create("slovenian", players=3, hands=2)
            seats += [client.join(table, name=f"s{i}") for i in range(3)]
        runner = BotRunner(server.target, [s.token for s in seats], EngineBot("heuristic"))
        start_runner(runner).join(120)
        assert runner.stats.tables == 2 and runner.stats.late == 0
        assert all(s.view().status == FINISHED for s in seats)


def test_stream_resumes_after_the_versions_seen(server: ServerThread) -> None:
    with connect(server.target) as client:
        table = client.create("slovenian", players=3)
        seats = [client.join(table, name=f"s{i}") for i in range(3)]
        stub = ts_grpc.TournamentServiceStub(client.channel)
        request = ts.StreamMyTurnsRequest(tokens=[s.token for s in seats])
        first = next(iter(stub.StreamMyTurns(request)))
        assert first.turn.table_id == table and first.turn.view.hand.legal_moves
        seen = {table: first.turn.view.version}
        again = stub.StreamMyTurns(ts.StreamMyTurnsRequest(tokens=request.tokens, seen=seen))
        assert next(iter(again)).WhichOneof("item") == "idle"  # nothing new to do


def test_bad_and_spectator_tokens_are_refused(server: ServerThread) -> None:
    with connect(server.target) as client:
        table = client.create("slovenian", players=3)
        watcher = client.spectate(table)
        stub = ts_grpc.TournamentServiceStub(client.channel)

        def turns(token: str) -> object:
            return next(iter(stub.StreamMyTurns(ts.StreamMyTurnsRequest(tokens=[token]))))

        expect_error(lambda: turns("nope"), grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")
        expect_error(
            lambda: turns(watcher.token),
            grpc.StatusCode.PERMISSION_DENIED,
            "SPECTATOR_CANNOT_MOVE",
        )


@pytest.mark.slow
def test_bot_reconnects_after_a_server_restart_and_finishes(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'tarok.db'}"
    first = ServerThread(tour_config(store_url=store))
    port = first.port
    entrants = [("remote", ""), ("h", "heuristic"), ("r", "random")]
    with connect(first.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", entrants, deals=2, players=3, duplicate=True, seed=4
        )
    runner = BotRunner(first.target, [created.entrant_tokens[0].token], EngineBot("random"))
    thread = start_runner(runner)
    _wait(lambda: runner.stats.moves >= 5)
    first.stop()  # the stream ends, the bot's calls fail until a server is back
    second = ServerThread(tour_config(store_url=store, port=port))
    try:
        doc = wait_finished(second.target, created.tournament_id)
        thread.join(60)
        assert not thread.is_alive() and runner.stats.reconnects >= 1
        assert runner.stats.refused == 0
        assert len(doc["games"]) == created.games and doc["status"] == "finished"
        assert_fair(second.target, created.tournament_id)
    finally:
        second.stop()


@pytest.mark.slow
def test_two_replicas_on_one_store_drive_one_tournament(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'tarok.db'}"
    a, b = ServerThread(tour_config(store_url=store)), ServerThread(tour_config(store_url=store))
    try:
        entrants = [("remote", ""), ("h", "heuristic"), ("r", "random")]
        with connect(a.target) as client:
            created = Tournaments(client, ORGANISER_KEY).create(
                "slovenian", entrants, deals=1, players=3, duplicate=True, seed=8
            )
        runner = BotRunner(b.target, [created.entrant_tokens[0].token], EngineBot("heuristic"))
        start_runner(runner).join(120)
        doc = wait_finished(a.target, created.tournament_id)
        sums: dict[str, int] = {}
        for game in doc["games"]:
            log = table_log(b.target, game["log_token"])
            for name, score in zip(game["seats"], last_totals(log), strict=True):
                sums[name] = sums.get(name, 0) + score
        assert {r["name"]: r["score"] for r in doc["entrants"]} == sums
        assert_fair(b.target, created.tournament_id)
    finally:
        a.stop()
        b.stop()


def _wait(ready: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail("timed out waiting")
        time.sleep(0.01)
