"""Every RPC that takes a name (or another text a person reads) refuses the same inputs with
the same status and reason: one check (`usecases.limits.check_text`) serves them all.

RejoinTable used to check only the length, with its own copy of the limit, and took control
characters and bidi overrides that JoinTable refuses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.server.usecases.limits import MAX_DISPLAY_NAME, MAX_NAME, MAX_REASON
from tests.service.harness import ServerThread, config, create, expect_error

ORGANISER_KEY = "names-organiser-key"
INVALID = grpc.StatusCode.INVALID_ARGUMENT

# Characters no name may hold: controls, a line break, a tab, bidi overrides and isolates,
# a zero-width space, a non-breaking space, a line separator.
BAD_CHARACTERS = ["\x00", "\x07", "\n", "\t", "\u202e", "\u2066", "\u200b", "\u00a0", "\u2028"]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config(organiser_key=ORGANISER_KEY))
    yield running
    running.stop()


def bad_texts(limit: int) -> list[str]:
    """Texts refused for a field of at most `limit` characters."""
    return [f"Ana{c}Bo" for c in BAD_CHARACTERS] + ["x" * (limit + 1)]


Call = Callable[[str], Any]


def join(server: ServerThread) -> Call:
    table_id = create(server.stub)
    return lambda name: server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name=name))


def rejoin(server: ServerThread) -> Call:
    table_id = create(server.stub)
    token = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name="Ana")).token
    return lambda name: server.stub.RejoinTable(svc.RejoinTableRequest(token=token, name=name))


def create_table(server: ServerThread) -> Call:
    return lambda name: server.stub.CreateTable(
        svc.CreateTableRequest(variant="slovenian", players=4, display_name=name)
    )


def create_tournament(server: ServerThread) -> Call:
    stub = ts_grpc.TournamentServiceStub(server.channel)

    def call(name: str) -> Any:
        entrants = [tm.Entrant(name=name, bot="random")] + [
            tm.Entrant(name=f"b{i}", bot="random") for i in range(3)
        ]
        spec = tm.TournamentSpec(variant="slovenian", players=4, entrants=entrants, deals=1)
        request = ts.CreateTournamentRequest(spec=spec, organiser_key=ORGANISER_KEY)
        return stub.CreateTournament(request)

    return call


# (RPC, how to call it with a text, the field the error names, the field's limit)
NAMED: list[tuple[str, Callable[[ServerThread], Call], str, int]] = [
    ("JoinTable", join, "name", MAX_NAME),
    ("RejoinTable", rejoin, "name", MAX_NAME),
    ("CreateTable", create_table, "display_name", MAX_DISPLAY_NAME),
    ("CreateTournament", create_tournament, "spec.entrants[0].name", MAX_NAME),
]


@pytest.mark.parametrize(("rpc", "make", "field", "limit"), NAMED, ids=[n[0] for n in NAMED])
def test_every_name_taking_rpc_refuses_the_same_inputs(
    server: ServerThread, rpc: str, make: Callable[[ServerThread], Call], field: str, limit: int
) -> None:
    call = make(server)
    for text in bad_texts(limit):
        expect_error(partial(call, text), INVALID, "INVALID_FIELD", field=field)
    call("  Ana Bo  ")  # spaces inside are fine, around are trimmed


def test_rejoin_keeps_the_trimmed_name(server: ServerThread) -> None:
    table_id = create(server.stub)
    token = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name="Ana")).token
    server.stub.RejoinTable(svc.RejoinTableRequest(token=token, name="  Ana Bo "))
    listed = server.stub.ListTables(svc.ListTablesRequest())
    seats = next(t.seats for t in listed.tables if t.table_id == table_id)
    assert seats[0].name == "Ana Bo"


def test_a_cancel_reason_is_checked_like_a_name(server: ServerThread) -> None:
    stub = ts_grpc.TournamentServiceStub(server.channel)
    entrants = [tm.Entrant(name=f"b{i}", bot="random") for i in range(4)]
    spec = tm.TournamentSpec(variant="slovenian", players=4, entrants=entrants, deals=1)
    made = stub.CreateTournament(ts.CreateTournamentRequest(spec=spec, organiser_key=ORGANISER_KEY))
    for text in bad_texts(MAX_REASON):
        request = ts.CancelTournamentRequest(
            tournament_id=made.tournament_id, organiser_token=made.organiser_token, reason=text
        )
        expect_error(partial(stub.CancelTournament, request), INVALID, "INVALID_FIELD")
