"""Organisers and limits: creating needs the organiser key, the organiser token cancels and
exports, and the server's limits on tables and running tournaments hold."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial

import grpc
import pytest
from tarok_client import connect
from tarok_client.tournaments import CANCELLED, FINISHED, Tournaments
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.engine import fairness

from ..service.harness import ServerThread, config, expect_error
from .helpers import ORGANISER_KEY, tour_config

UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
DENIED = grpc.StatusCode.PERMISSION_DENIED
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
REMOTE_AND_BOTS = [("remote", ""), ("h", "heuristic"), ("r", "random")]


def _request(key: str, deals: int = 1) -> ts.CreateTournamentRequest:
    spec = tm.TournamentSpec(
        variant="slovenian",
        players=3,
        deals=deals,
        entrants=[tm.Entrant(name="a", bot="random"), tm.Entrant(name="b", bot="random")],
    )
    return ts.CreateTournamentRequest(spec=spec, organiser_key=key)


def _wait(ready: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail("timed out waiting")
        time.sleep(0.05)


def test_creating_a_tournament_needs_the_organiser_key(server: ServerThread) -> None:
    stub = ts_grpc.TournamentServiceStub(server.channel)
    expect_error(
        lambda: stub.CreateTournament(_request("")), UNAUTHENTICATED, "ORGANISER_KEY_REQUIRED"
    )
    expect_error(
        lambda: stub.CreateTournament(_request("guess")), UNAUTHENTICATED, "BAD_ORGANISER_KEY"
    )
    assert stub.CreateTournament(_request(ORGANISER_KEY)).organiser_token


def test_a_server_without_an_organiser_key_takes_no_tournaments() -> None:
    plain = ServerThread(config())
    try:
        stub = ts_grpc.TournamentServiceStub(plain.channel)
        for key in ("", ORGANISER_KEY):
            expect_error(
                partial(stub.CreateTournament, _request(key)),
                UNAUTHENTICATED,
                "ORGANISER_KEY_REQUIRED",
            )
    finally:
        plain.stop()


def test_the_organiser_token_cancels_and_the_cancel_is_recorded(server: ServerThread) -> None:
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create("slovenian", REMOTE_AND_BOTS, deals=2, players=3, check_in=600)
        other = tours.create("slovenian", REMOTE_AND_BOTS, deals=1, players=3, check_in=600)
        tid = created.tournament_id
        stub = ts_grpc.TournamentServiceStub(client.channel)
        for token, code, reason in (
            ("", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"),
            (created.entrant_tokens[0].token, UNAUTHENTICATED, "BAD_TOKEN"),
            (other.organiser_token, DENIED, "WRONG_TOURNAMENT"),
        ):
            request = ts.CancelTournamentRequest(tournament_id=tid, organiser_token=token)
            expect_error(partial(stub.CancelTournament, request), code, reason)
        # Running (waiting for "remote" to check in): sealed to all but the organiser.
        export = ts.ExportTournamentRequest(tournament_id=tid)
        expect_error(lambda: stub.ExportTournament(export), DENIED, "TOURNAMENT_SEALED")
        assert json.loads(tours.export(tid))["status"] == "running"
        info = tours.cancel(tid, "rain")
        assert info.status == CANCELLED and info.cancel_reason == "rain"
        again = ts.CancelTournamentRequest(
            tournament_id=tid, organiser_token=created.organiser_token
        )
        expect_error(
            lambda: stub.CancelTournament(again),
            grpc.StatusCode.FAILED_PRECONDITION,
            "TOURNAMENT_OVER",
        )
        doc = json.loads(tours.export(tid, ""))  # over: public, the seed revealed
        assert doc["status"] == "cancelled" and doc["cancel_reason"] == "rain"
        salt, seed = bytes.fromhex(doc["seed_salt"]), doc["seed"]
        assert fairness.seed_commitment(salt, seed).hex() == doc["seed_commitment"]
        assert fairness.seed_commitment(salt, seed) == created.seed_commitment
        tours.cancel(other.tournament_id)


def test_server_limits_on_tables_and_running_tournaments() -> None:
    small = ServerThread(tour_config(max_tournaments=1, max_tournament_tables=6))
    try:
        with connect(small.target) as client:
            tours = Tournaments(client, ORGANISER_KEY)
            stub = ts_grpc.TournamentServiceStub(client.channel)
            expect_error(
                lambda: stub.CreateTournament(_request(ORGANISER_KEY, deals=7)),
                EXHAUSTED,
                "TOO_MANY_TABLES",
            )
            first = tours.create("slovenian", REMOTE_AND_BOTS, deals=2, players=3, check_in=600)
            expect_error(
                lambda: stub.CreateTournament(_request(ORGANISER_KEY)),
                EXHAUSTED,
                "TOO_MANY_TOURNAMENTS",
            )
            tours.cancel(first.tournament_id)
            created: list[ts.CreateTournamentResponse] = []

            def room() -> bool:  # the worker takes a cancelled tournament off the registry
                try:
                    created.append(stub.CreateTournament(_request(ORGANISER_KEY)))
                except grpc.RpcError:
                    return False
                return True

            _wait(room)
            assert created[0].games == 1
    finally:
        small.stop()


def test_the_spec_shows_the_rules_in_force(server: ServerThread) -> None:
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create("slovenian", [("a", "random"), ("b", "random")], deals=1, players=3)
        spec = tours.get(created.tournament_id).spec
    assert spec.max_timeouts == 3 and spec.parallel_tables == 8
    assert spec.check_in.seconds == 60


def test_a_paused_tournament_starts_no_table_until_resumed(server: ServerThread) -> None:
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        bots = [("a", "heuristic"), ("b", "random"), ("c", "heuristic")]
        created = tours.create("slovenian", bots, deals=12, players=3, parallel_tables=1)
        tid = created.tournament_id
        paused = tours.pause(tid)
        assert paused.paused
        stub = ts_grpc.TournamentServiceStub(client.channel)
        resume = ts.PauseTournamentRequest(tournament_id=tid, organiser_token="x.y", paused=False)
        expect_error(lambda: stub.PauseTournament(resume), UNAUTHENTICATED, "BAD_TOKEN")

        def settled() -> bool:  # the tables started before the pause have finished
            info = tours.get(tid)
            return info.games_finished == info.games_started

        _wait(settled)
        info = tours.get(tid)
        # A finished table would have been replaced in the same append had it not been paused.
        assert info.games_started < info.games and info.paused
        assert not tours.pause(tid, paused=False).paused
        _wait(lambda: tours.get(tid).status == FINISHED)
