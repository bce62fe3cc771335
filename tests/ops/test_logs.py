"""Logs: JSON lines carrying the request context, reasons on errors, and never a card code."""

from __future__ import annotations

import io
import json
import re
import threading

import grpc
import pytest
import structlog
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.ops.logconf import (
    CARD_MASK,
    card_codes,
    configure_logging,
    request_context,
    scrub_text,
)

from ..service.harness import ServerThread, config, new_table, play_out, view

CONTEXT_KEYS = ("request_id", "table", "seat", "variant", "method")


def test_a_full_table_logs_context_and_no_card(captured: io.StringIO) -> None:
    server = ServerThread(config())
    try:
        stub = server.stub
        table_id, tokens = new_table(stub, hands=2)
        spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
        stream = stub.WatchTable(svc.WatchTableRequest(token=spectator, with_views=True))
        watcher = threading.Thread(target=lambda: list(stream))
        watcher.start()
        turn = view(stub, tokens[0]).hand.turn
        other = (turn + 1) % 4
        theirs = [c.code for c in view(stub, tokens[other]).hand.cards]
        refusals = [  # moves naming cards: out of turn, a card-like kind, another's card
            (other, f"play:{theirs[0]}"),
            (other, theirs[1]),
            (turn, f"play:{theirs[2]}"),
        ]
        for seat, bad in refusals:
            with pytest.raises(grpc.RpcError):
                stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=bad))
        moves = play_out(stub, tokens, seed=5)
        watcher.join(30)
        log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
    finally:
        server.stop()
    assert log.complete and moves > 0
    dealt = {c for e in log.events if e.HasField("hand_dealt") for c in e.hand_dealt.order}
    assert len(dealt) == 54

    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    rpcs = [x for x in lines if x["event"] == "rpc"]
    assert len(rpcs) >= moves + 2
    for line in rpcs:
        assert all(key in line for key in CONTEXT_KEYS), line
        assert line["request_id"] and line["method"].startswith("/tarok.v1.")
    moved = [x for x in rpcs if x["method"].endswith("/SubmitMove") and x["code"] == "OK"]
    assert len(moved) == moves
    assert all(x["table"] == table_id and x["variant"] == "slovenian" for x in moved)
    assert {x["seat"] for x in moved} == {0, 1, 2, 3}
    kinds = [e.move_made.move_id.partition(":")[0] for e in log.events if e.HasField("move_made")]
    assert [x["move_kind"] for x in moved] == kinds
    refused = [x for x in rpcs if x["code"] != "OK" and x["method"].endswith("/SubmitMove")]
    assert [x["reason"] for x in refused][:2] == ["NOT_YOUR_TURN", "NOT_YOUR_TURN"]
    assert len(refused) == 3 and refused[2]["reason"] != "NOT_YOUR_TURN"
    assert [x["move_kind"] for x in refused] == ["play", "?", "play"]
    assert any(x["method"].endswith("/WatchTable") and x["seat"] is None for x in rpcs)
    created = next(x for x in rpcs if x["method"].endswith("/CreateTable"))
    assert created["table"] == table_id and created["variant"] == "slovenian"
    joined = [x["seat"] for x in rpcs if x["method"].endswith("/JoinTable")]
    assert joined == [0, 1, 2, 3, None]  # the spectator has no seat

    text = captured.getvalue()
    tokens_seen = set(re.findall(r"[A-Za-z0-9]+", text))
    assert not tokens_seen & dealt, sorted(tokens_seen & dealt)


def test_console_format_is_readable(captured: io.StringIO) -> None:
    buffer = io.StringIO()
    configure_logging("console", stream=buffer)
    bound = request_context.set({"request_id": "r1", "table": "t1", "seat": 2})
    try:
        structlog.get_logger("tarok.server").info("rpc", code="OK", move_kind="play")
    finally:
        request_context.reset(bound)
    line = buffer.getvalue()
    assert "rpc" in line and "request_id=r1" in line and "seat=2" in line
    assert not line.lstrip().startswith("{")


def test_card_codes_in_free_text_are_masked(captured: io.StringIO) -> None:
    structlog.get_logger("tarok.server").warning("internal error", error="KeyError('T21')")
    line = json.loads(captured.getvalue().splitlines()[-1])
    assert line["error"] == f"KeyError('{CARD_MASK}')"
    assert scrub_text("played SK and C10.1, T1x stays") == (
        f"played {CARD_MASK} and {CARD_MASK}, T1x stays"
    )
    assert {"T21", "SK", "C10.1", "Matto"} <= card_codes()


def test_unknown_log_format_is_refused() -> None:
    with pytest.raises(ValueError):
        configure_logging("xml")
