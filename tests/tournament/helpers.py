"""Helpers for the tournament tests: reading table logs the way any client can."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from tarok_client import connect
from tarok_client.runner import BotRunner
from tarok_client.tournament_cli import fetch_and_verify
from tarok_client.tournaments import FINISHED, Tournaments
from tarok_proto.tarok.v1 import events_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from tarok_service.server.config import ServerConfig

from ..service.harness import config, hang_up

ORGANISER_KEY = "test-organiser-key"


def tour_config(**changes: Any) -> ServerConfig:
    """A test server that takes tournaments (organiser key) and lets their bots run flat out."""
    base: dict[str, Any] = {"organiser_key": ORGANISER_KEY, "tournament_bot_share": 1.0}
    base.update(changes)
    return config(**base)


def table_log(target: str, token: str) -> events_pb2.TableLog:
    with connect(target) as client:
        stub = svc_grpc.TarokServiceStub(client.channel)
        request = svc.GetTableLogRequest(token=token, format=svc.LOG_FORMAT_PROTO)
        return stub.GetTableLog(request).log


def last_totals(log: events_pb2.TableLog) -> list[int]:
    """The running totals of the log's last HandScored."""
    scored = [e.hand_scored for e in log.events if e.WhichOneof("body") == "hand_scored"]
    return list(scored[-1].totals)


def wait_finished(target: str, tournament_id: str, timeout: float = 120.0) -> dict[str, Any]:
    """Follow the tournament to its end; its export (JSON) as a dict."""
    deadline = time.monotonic() + timeout
    with connect(target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        for info in tours.watch(tournament_id):
            if info.status == FINISHED:
                break
            assert time.monotonic() < deadline, "tournament did not finish in time"
        doc: dict[str, Any] = json.loads(tours.export(tournament_id))
        return doc


def start_runner(runner: BotRunner) -> threading.Thread:
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    return thread


def check_in(target: str, entrant_token: str) -> None:
    """Check an entrant in (open StreamMyTurns until its first answer) without playing."""
    with connect(target) as client:
        stub = ts_grpc.TournamentServiceStub(client.channel)
        call = stub.StreamMyTurns(ts.StreamMyTurnsRequest(tokens=[entrant_token]))
        next(iter(call))
        hang_up(call)


def assert_fair(target: str, tournament_id: str) -> None:
    """A finished tournament passes `tarok tournament verify` (every deal, every table)."""
    with connect(target) as client:
        tours = Tournaments(client)
        report = fetch_and_verify(client, tours, tournament_id)
        games = tours.get(tournament_id).games
    assert report.ok, report.problems
    assert report.tournament_deals == games and report.sealed == 0
