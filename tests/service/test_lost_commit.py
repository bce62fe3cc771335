"""The store is the truth, also when its log goes BACK behind a replica's cache.

That happens when a commit the replica saw acknowledged is lost in a failover (a primary
with an asynchronous standby dies): the cached table then holds a version the database no
longer has. Here the last move is deleted behind the server's back; the table must go on
from what the store holds, not stay stuck on ABORTED CONTENTION.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import grpc
import psycopg
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from .harness import FINISHED, ServerThread, choose, config, expect_error, new_table, play_out, view
from .harness import step as random_step


def _lose_last_move(server: ServerThread, delete_after: Callable[[str, int], None]) -> None:
    stub = server.stub
    table_id, tokens = new_table(stub)
    rng = random.Random(3)
    for _ in range(2):
        assert random_step(stub, tokens, rng) is not None
    before = view(stub, tokens[0])
    seat = before.hand.turn
    move = choose(view(stub, tokens[seat]), rng)
    made = stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move))
    assert made.version == before.version + 1  # acknowledged, and cached by the server
    following = view(stub, tokens[made.turn])
    assert following.version == made.version

    delete_after(table_id, before.version)  # the acknowledged move is gone from the store

    # The cached table says it is `made.turn`'s move: that append conflicts, the table is
    # reloaded from the store (LOWER than the cache) and the move judged on the truth.
    expect_error(
        lambda: stub.SubmitMove(
            svc.SubmitMoveRequest(token=tokens[made.turn], move_id=choose(following, rng))
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
    )
    assert view(stub, tokens[0]).version == before.version
    again = stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move))
    assert again.version == made.version
    play_out(stub, tokens, seed=5)
    assert view(stub, tokens[0]).status == FINISHED


def test_a_lost_commit_under_the_cache_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "events.db"

    def delete_after(table_id: str, version: int) -> None:
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM events WHERE table_id = ? AND seq > ?", (table_id, version))

    server = ServerThread(config(store_url=f"sqlite:///{path}"))
    try:
        _lose_last_move(server, delete_after)
    finally:
        server.stop()


def test_a_lost_commit_under_the_cache_postgres(postgres_dsn: str) -> None:
    def delete_after(table_id: str, version: int) -> None:
        with psycopg.connect(postgres_dsn, autocommit=True) as db:
            db.execute("DELETE FROM events WHERE table_id = %s AND seq > %s", (table_id, version))

    server = ServerThread(config(store_url=postgres_dsn))
    try:
        _lose_last_move(server, delete_after)
    finally:
        server.stop()
