"""No authoritative state in memory: restarts, replay checks and racing writers."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import grpc
from tarok_proto.tarok.v1 import events_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.usecases.tokens import TokenSigner
from tarok_service.store import NewEvent, SqliteEventStore

from .harness import (
    FINISHED,
    SECRET,
    ServerThread,
    config,
    expect_error,
    new_table,
    play_out,
    race,
    reason_of,
    step,
    submitting,
    view,
)


def test_restart_mid_table_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'events.db'}"
    first = ServerThread(config(store_url=url))
    try:
        _, tokens = new_table(first.stub, hands=2)
        rng = random.Random(9)
        for _ in range(15):
            step(first.stub, tokens, rng)
        before = [view(first.stub, t) for t in tokens]
    finally:
        first.stop()
    second = ServerThread(config(store_url=url))
    try:
        assert [view(second.stub, t) for t in tokens] == before
        play_out(second.stub, tokens, seed=9)
        assert view(second.stub, tokens[0]).status == FINISHED
    finally:
        second.stop()


def test_a_tampered_hand_result_is_refused_on_replay(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    running = ServerThread(config(store_url=f"sqlite:///{path}"))
    try:
        table, tokens = new_table(running.stub)
        play_out(running.stub, tokens, seed=4)
    finally:
        running.stop()
    copy = "tampered-" + table
    store = SqliteEventStore(str(path))

    async def forge() -> None:
        await store.open()
        try:
            stored = await store.read(table)
            forged = []
            for item in stored:
                payload = item.payload
                if item.type.startswith("tarok.v1.HandScored@"):
                    scored = events_pb2.HandScored.FromString(payload)
                    scored.totals[0] += 10
                    payload = scored.SerializeToString()
                forged.append(NewEvent(item.type, payload))
            await store.append(copy, 0, forged, 1.0)
        finally:
            await store.close()

    asyncio.run(forge())
    again = ServerThread(config(store_url=f"sqlite:///{path}"))
    try:
        token, _ = TokenSigner(SECRET, 3600).issue(copy, 0, time.time())
        get = again.stub.GetTableView
        expect_error(
            lambda: get(svc.GetTableViewRequest(token=token)),
            grpc.StatusCode.INTERNAL,
            "REPLAY_MISMATCH",
        )
        assert view(again.stub, tokens[0]).status == FINISHED  # the original is fine
    finally:
        again.stop()


def test_racing_moves_one_wins_the_other_gets_a_clean_error(server: ServerThread) -> None:
    stub = server.stub
    for _ in range(5):
        _, tokens = new_table(stub)
        seat = view(stub, tokens[0]).hand.turn
        mine = view(stub, tokens[seat])
        moves = [m.id for m in mine.hand.legal_moves][:2]
        requests = [
            svc.SubmitMoveRequest(
                token=tokens[seat], move_id=moves[0], expected_version=mine.version
            ),
            svc.SubmitMoveRequest(token=tokens[seat], move_id=moves[1]),
        ]
        outcomes = race([submitting(stub, r) for r in requests])
        wins = [o for o in outcomes if isinstance(o, int)]
        assert wins == [mine.version + 1] or len(wins) == 2
        for outcome in outcomes:
            if isinstance(outcome, grpc.RpcError):
                code, reason, _ = reason_of(outcome)
                assert (code, reason) in {
                    (grpc.StatusCode.ABORTED, "STALE_VERSION"),
                    (grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
                    (grpc.StatusCode.FAILED_PRECONDITION, "WRONG_PHASE"),
                }, (code, reason)
        assert view(stub, tokens[0]).version == mine.version + len(wins)
