"""Through the service: the settled results a client sees, and ids of other streams."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from tarok_proto.tarok.v1 import results_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as tsvc
from tarok_proto.tarok.v1 import tournaments_pb2 as tm
from tarok_proto.tarok.v1.tournament_service_pb2_grpc import TournamentServiceStub

from tarok_service.store import NewEvent, SqliteEventStore

from ..service.harness import (
    FINISHED,
    ServerThread,
    config,
    expect_error,
    new_table,
    play_out,
    view,
)


def explained(settled: results_pb2.Settlement, before: list[int], after: list[int]) -> None:
    per_seat = [0] * len(before)
    for line in settled.lines:
        per_seat[line.seat] += line.amount
    assert per_seat == list(settled.amounts)
    assert [b + a for b, a in zip(before, settled.amounts, strict=True)] == after


def test_every_hand_and_the_match_end_are_settled_line_by_line() -> None:
    running = ServerThread(config())
    try:
        stub = running.stub
        _, tokens = new_table(stub, hands=4)
        play_out(stub, tokens, seed=21)
        final = view(stub, tokens[0])
        assert final.status == FINISHED
        assert final.last_result.HasField("settled")
        log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
        totals = [0] * 4
        hands = 0
        for event in log.events:
            if event.HasField("hand_scored"):
                scored = event.hand_scored
                explained(scored.result.settled, totals, list(scored.totals))
                totals = list(scored.totals)
                hands += 1
                last = scored.result.settled
            elif event.HasField("table_closed"):
                closed = event.table_closed
                explained(closed.adjustments, totals, list(closed.totals))
                assert list(closed.totals) == list(final.totals)
        assert hands >= 4
        assert final.last_result.settled == last
    finally:
        running.stop()


def test_the_id_of_another_stream_is_not_a_table(tmp_path: Path) -> None:
    path = tmp_path / "events.db"

    async def registry() -> None:
        store = SqliteEventStore(str(path))
        await store.open()
        try:
            listed = tm.TournamentListed(tournament_id="T00")
            await store.append(
                "tournaments", 0, [NewEvent("TournamentListed", listed.SerializeToString())], 1.0
            )
        finally:
            await store.close()

    asyncio.run(registry())
    running = ServerThread(config(store_url=f"sqlite:///{path}"))
    try:
        for table_id in ("tournaments", "no-such-table"):
            expect_error(
                lambda t=table_id: running.stub.JoinTable(svc.JoinTableRequest(table_id=t)),  # type: ignore[misc]
                grpc.StatusCode.NOT_FOUND,
                "TABLE_NOT_FOUND",
            )
    finally:
        running.stop()


def test_a_table_id_is_not_a_tournament() -> None:
    running = ServerThread(config())
    try:
        table_id, _ = new_table(running.stub)
        tournaments = TournamentServiceStub(running.channel)
        for tournament_id in (table_id, "tournaments", "ratings.slovenian"):
            expect_error(
                lambda t=tournament_id: tournaments.GetTournament(  # type: ignore[misc]
                    tsvc.GetTournamentRequest(tournament_id=t)
                ),
                grpc.StatusCode.NOT_FOUND,
                "TOURNAMENT_NOT_FOUND",
            )
    finally:
        running.stop()
