"""A programming error in the rules reaches a client as INTERNAL ENGINE_BUG with an ERROR log
line carrying the traceback, never as a rule reason; illegal moves keep their rule reasons."""

from __future__ import annotations

import io
import json

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.engine import moves as m
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import Move
from tarok_service.engine.phases import PhaseRule
from tarok_service.variants.zwanzigerrufen.rules import ZWANZIGERRUFEN
from tarok_service.variants.zwanzigerrufen.state import Phase, ZwanzigerState

from .harness import ServerThread, config, error_of, expect_error, new_table, view

LIMBO = "limbo"  # a phase no rule set has


def _into_limbo(state: ZwanzigerState, move: Move) -> ZwanzigerState:
    """A broken apply: the state it returns is in a phase the rule set has no rule for."""
    return evolve(state, phase=LIMBO)


def test_a_state_that_cannot_arise_is_internal_engine_bug(
    captured: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = ZWANZIGERRUFEN.checked_table()
    good = table[Phase.AUCTION]
    broken = PhaseRule(good.legal, _into_limbo)
    server = ServerThread(config())
    try:
        stub = server.stub
        _, tokens = new_table(stub, variant="zwanzigerrufen")
        turn = view(stub, tokens[0]).hand.turn
        mine = view(stub, tokens[turn])
        assert mine.hand.phase == Phase.AUCTION
        # A client's illegal move keeps its rule reason.
        illegal = svc.SubmitMoveRequest(token=tokens[turn], move_id="kontra:game")
        expect_error(
            lambda: stub.SubmitMove(illegal),
            grpc.StatusCode.FAILED_PRECONDITION,
            m.Reason.NO_GAME_ANNOUNCED_YET,
        )
        monkeypatch.setitem(table, Phase.AUCTION, broken)
        legal = svc.SubmitMoveRequest(token=tokens[turn], move_id=mine.hand.legal_moves[0].id)
        before = view(stub, tokens[turn]).version
        # The broken apply is caught before anything is written.
        code, reason, _ = error_of(lambda: stub.SubmitMove(legal))
        assert (code, reason) == (grpc.StatusCode.INTERNAL, "ENGINE_BUG")
        monkeypatch.setitem(table, Phase.AUCTION, good)
        after = view(stub, tokens[turn])
        assert (after.version, after.hand.phase) == (before, Phase.AUCTION)
    finally:
        server.stop()
    lines = [json.loads(x) for x in captured.getvalue().splitlines() if x.startswith("{")]
    bugs = [x for x in lines if x.get("event") == "engine bug"]
    assert bugs and all(x["level"] == "error" for x in bugs)
    assert "EngineBug" in bugs[0]["exception"] and "Traceback" in bugs[0]["exception"]
    assert "led to phase 'limbo'" in bugs[0]["exception"]
