"""Zwanzigerrufen over gRPC: a turn of several statements ended by the `end` move."""

from __future__ import annotations

import grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from ..variants.zwanzigerrufen_helpers import DECK, order_for
from .harness import create, expect_error, seat_all, view

Stub = svc_grpc.TarokServiceStub
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
# Dealer 0, so seat 1 is forehand: he holds skis, XIX-XVII, XII and the pagat.
HANDS = (
    "T4 T9 T8 T7 CC CJ C10 DJ D1 S10",
    "T22 T19 T18 T17 T12 T1 HK HQ CK CQ",
    "T20 T16 T15 T11 T5 DK DQ DC SK SQ",
    "T21 T14 T13 T10 T6 HC HJ H1 SC SJ",
)


def submit(stub: Stub, token: str, move_id: str) -> None:
    stub.SubmitMove(svc.SubmitMoveRequest(token=token, move_id=move_id))


def test_solo_with_absolut_and_pagat_in_one_turn(stub: Stub) -> None:
    order = [DECK.codes[c] for c in order_for(HANDS, dealer=0)]
    table_id = create(stub, variant="zwanzigerrufen", presets=[order])
    tokens = seat_all(stub, table_id, 4)
    assert view(stub, tokens[1]).hand.turn == 1
    submit(stub, tokens[1], "bid:solo")
    mine = view(stub, tokens[1]).hand
    assert mine.turn == 1
    legal = {m.id: m.label for m in mine.legal_moves}
    assert legal["end"] == "End the turn" and "pass" not in legal
    expect_error(lambda: submit(stub, tokens[1], "pass"), PRECONDITION, "TURN_ALREADY_STARTED")
    submit(stub, tokens[1], "announce:absolut")
    submit(stub, tokens[1], "announce:pagat")
    submit(stub, tokens[1], "end")
    expect_error(lambda: submit(stub, tokens[2], "end"), PRECONDITION, "NOTHING_SAID_THIS_TURN")
    for seat in (2, 3, 0):
        submit(stub, tokens[seat], "pass")
    public = view(stub, tokens[0]).hand
    assert public.phase == "tricks" and public.contract == "solo"
    said = [(f.seat, f.kind, f.value) for f in public.facts]
    assert said == [(1, "bid", "solo"), (1, "announce", "absolut"), (1, "announce", "pagat")]
