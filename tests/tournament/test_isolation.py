"""Information isolation: while a duplicate tournament runs, an entrant trying every RPC with
every token it holds learns nothing of the other tables of its deal; the organiser can."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.tournaments import Tournaments
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..service.harness import ServerThread, hang_up
from .helpers import ORGANISER_KEY, assert_fair, start_runner, wait_finished

DENIED = grpc.StatusCode.PERMISSION_DENIED
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED


def cards_in(message: Message) -> int:
    """Card facts in a message: Card values, dealt card orders and card moves."""
    count = 0
    for field, value in message.ListFields():
        items = value if field.is_repeated else [value]
        for item in items:
            if isinstance(item, Message):
                count += 1 if item.DESCRIPTOR.name == "Card" else cards_in(item)
            elif field.name == "order" or (field.name in ("move_id", "label") and ":" in str(item)):
                count += 1
    return count


def first_turn(stub: ts_grpc.TournamentServiceStub, token: str) -> ts.MyTurn:
    """Check in and wait for the entrant's first turn (then hang up without moving)."""
    call = stub.StreamMyTurns(ts.StreamMyTurnsRequest(tokens=[token]))
    for item in call:
        if item.HasField("turn"):
            hang_up(call)
            return item.turn
    raise AssertionError("the stream ended without a turn")


def attempt(leaks: list[int], call: Callable[[], Any]) -> grpc.StatusCode | None:
    """Run one attack: None and its card count recorded if it answered, else the status."""
    try:
        answer = call()
    except grpc.RpcError as error:
        assert isinstance(error, grpc.Call)
        return error.code()
    items = answer if isinstance(answer, list) else [answer]
    leaks.append(sum(cards_in(m) for m in items))
    return None


@pytest.mark.slow
def test_an_entrant_learns_nothing_of_the_other_tables_of_its_deal(server: ServerThread) -> None:
    entrants = [("spy", ""), ("h", "heuristic"), ("r", "random")]
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create(
            "slovenian", entrants, deals=2, players=4, duplicate=True, seed=21, parallel_tables=8
        )
    tid = created.tournament_id
    entrant_token = created.entrant_tokens[0].token
    tables = svc_grpc.TarokServiceStub(server.channel)
    tours_stub = ts_grpc.TournamentServiceStub(server.channel)
    turn = first_turn(tours_stub, entrant_token)
    own = turn.table_id
    others = [f"{tid}.{g}" for g in range(created.games) if f"{tid}.{g}" != own]
    assert len(others) == created.games - 1 >= 7  # same deal: 3 more tables, then deal 2

    leaks: list[int] = []
    refused: list[grpc.StatusCode | None] = []
    tokens = {"none": "", "entrant": entrant_token, "seat": turn.token}
    for kind, token in tokens.items():
        refused.append(
            attempt(
                leaks,
                partial(
                    tours_stub.GetTournament,
                    ts.GetTournamentRequest(
                        tournament_id=tid, with_games=True, organiser_token=token
                    ),
                ),
            )
        )
        refused.append(
            attempt(
                leaks,
                partial(
                    tours_stub.ExportTournament,
                    ts.ExportTournamentRequest(tournament_id=tid, organiser_token=token),
                ),
            )
        )
        for request in (
            svc.GetTableViewRequest(token=token),
            svc.GetTableLogRequest(token=token),
        ):
            if kind != "seat":  # the seat token is for the own table only (below)
                method = type(request).__name__.removesuffix("Request")
                refused.append(attempt(leaks, partial(getattr(tables, method), request)))
    for table_id in others:
        for spectator in (True, False):
            join = svc.JoinTableRequest(table_id=table_id, spectator=spectator, name="spy")
            refused.append(attempt(leaks, partial(tables.JoinTable, join)))
    watch = svc.WatchTableRequest(token=entrant_token)
    refused.append(attempt(leaks, lambda: list(tables.WatchTable(watch))))
    assert refused and all(code in (DENIED, UNAUTHENTICATED) for code in refused), refused

    # What the entrant may read: progress only, and its own seat's view and log.
    info = tours_stub.GetTournament(ts.GetTournamentRequest(tournament_id=tid)).tournament
    assert not info.game_list and not info.standings and info.seed_commitment
    progress = tours_stub.WatchTournament(ts.WatchTournamentRequest(tournament_id=tid))
    leaks.append(cards_in(next(iter(progress))))
    hang_up(progress)
    mine = tables.GetTableLog(svc.GetTableLogRequest(token=turn.token)).log
    assert mine.table_id == own and not mine.complete
    assert tables.GetTableView(svc.GetTableViewRequest(token=turn.token)).view.table_id == own
    assert sum(leaks) == 0, leaks

    # The same calls do show the other tables to the organiser (the count above can see).
    doc = json.loads(_organiser_export(server, created))
    spectators = [g["log_token"] for g in doc["games"] if g["table_id"] in others]
    assert spectators
    seen = sum(
        cards_in(tables.GetTableLog(svc.GetTableLogRequest(token=t)).log) for t in spectators
    )
    assert seen > 0

    runner = BotRunner(server.target, [entrant_token], EngineBot("heuristic", seed=2))
    start_runner(runner).join(60)
    public = wait_finished(server.target, tid)  # once over, the results are public
    assert len(public["games"]) == created.games and public["seed"] is not None
    assert_fair(server.target, tid)


def _organiser_export(server: ServerThread, created: ts.CreateTournamentResponse) -> str:
    with connect(server.target) as client:
        tours = Tournaments(client)
        return tours.export(created.tournament_id, created.organiser_token)
