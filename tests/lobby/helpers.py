"""A person at a table where the server plays the other seats."""

from __future__ import annotations

import random

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..service.harness import choose


def play_seat(stub: svc_grpc.TarokServiceStub, token: str, seat: int, seed: int = 0) -> int:
    """Follow the table and move for `seat` whenever it is its turn, until the table has
    finished (the stream ends after TableClosed); returns the moves made."""
    rng, moved = random.Random(seed), 0
    watch = svc.WatchTableRequest(token=token, with_views=True)
    for item in stub.WatchTable(watch, timeout=300):
        view = item.view
        if item.WhichOneof("item") != "view" or view.hand.turn != seat:
            continue
        if not view.hand.legal_moves:
            continue
        move = svc.SubmitMoveRequest(
            token=token, move_id=choose(view, rng), expected_version=view.version
        )
        stub.SubmitMove(move)  # the server's seats only move after this: the version is current
        moved += 1
    return moved
