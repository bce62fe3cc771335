"""SubmitMove over gRPC: the happy path, every error path, idempotency, hand transitions."""

from __future__ import annotations

import random

import grpc
import pytest
from tarok_proto.tarok.v1 import moves_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.variants.registry import find_variant

from .harness import (
    FINISHED,
    PLAYING,
    choose,
    create,
    expect_error,
    new_table,
    play_out,
    view,
)

Stub = svc_grpc.TarokServiceStub
# The family's newest rule sets in every player count they are played by (the older ones play
# full matches in their own tests and in the SDK and web suites).
FAMILY_MATCHES = [("french_tarot", 3), ("french_tarot", 4), ("french_tarot", 5), ("koenigrufen", 4)]
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
INVALID = grpc.StatusCode.INVALID_ARGUMENT


def submit(
    stub: Stub,
    token: str,
    move_id: str,
    expected_version: int | None = None,
    request_id: str = "",
) -> svc.SubmitMoveResponse:
    request = svc.SubmitMoveRequest(
        token=token, move_id=move_id, expected_version=expected_version, request_id=request_id
    )
    return stub.SubmitMove(request)


def to_move(stub: Stub, tokens: list[str]) -> tuple[int, str]:
    seat = view(stub, tokens[0]).hand.turn
    return seat, tokens[seat]


def test_a_legal_move_advances_the_table(stub: Stub) -> None:
    _, tokens = new_table(stub)
    seat, token = to_move(stub, tokens)
    before = view(stub, token)
    move = before.hand.legal_moves[0]
    reply = submit(stub, token, move.id, expected_version=before.version, request_id="r1")
    assert reply.version == before.version + 1 and reply.move.id == move.id
    assert reply.move.label == move.label and reply.status == PLAYING
    assert reply.turn == view(stub, tokens[0]).hand.turn != seat


def test_errors_write_nothing_and_carry_stable_reasons(stub: Stub) -> None:
    table, tokens = new_table(stub)
    seat, token = to_move(stub, tokens)
    other = tokens[(seat + 1) % 4]
    version = view(stub, token).version
    expect_error(lambda: submit(stub, other, "pass"), PRECONDITION, "NOT_YOUR_TURN", turn=str(seat))
    expect_error(
        lambda: submit(stub, token, "play:T21"), PRECONDITION, "WRONG_PHASE", move="play:T21"
    )
    expect_error(lambda: submit(stub, token, "bid:no_such_contract"), PRECONDITION, "WRONG_PHASE")
    expect_error(
        lambda: submit(stub, token, "pass", expected_version=version - 1),
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
        current_version=str(version),
    )
    expect_error(
        lambda: submit(stub, token, "pass", expected_version=version + 5),
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
        current_version=str(version),
    )
    expect_error(
        lambda: submit(stub, token, "has space"), INVALID, "MALFORMED_MOVE", field="move_id"
    )
    expect_error(
        lambda: stub.SubmitMove(svc.SubmitMoveRequest(token=token)),
        INVALID,
        "MALFORMED_MOVE",
        field="move",
    )
    spec = moves_pb2.MoveSpec(kind="play", card="not a card")
    expect_error(
        lambda: stub.SubmitMove(svc.SubmitMoveRequest(token=token, spec=spec)),
        INVALID,
        "MALFORMED_MOVE",
        field="spec.card",
    )
    expect_error(
        lambda: submit(stub, token, "pass", request_id="x" * 200),
        INVALID,
        "INVALID_FIELD",
        field="request_id",
    )
    spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table, spectator=True)).token
    expect_error(
        lambda: submit(stub, spectator, "pass"),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATOR_CANNOT_MOVE",
    )
    expect_error(lambda: submit(stub, "junk", "pass"), grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")
    assert view(stub, token).version == version


def test_table_not_started_and_finished(stub: Stub) -> None:
    table = create(stub)
    early = stub.JoinTable(svc.JoinTableRequest(table_id=table)).token
    expect_error(lambda: submit(stub, early, "pass"), PRECONDITION, "TABLE_NOT_STARTED")
    tokens = [early] + [
        stub.JoinTable(svc.JoinTableRequest(table_id=table)).token for _ in range(3)
    ]
    play_out(stub, tokens, seed=1)
    final = view(stub, tokens[0])
    assert final.status == FINISHED and final.hands_played == 1
    expect_error(lambda: submit(stub, tokens[0], "pass"), PRECONDITION, "TABLE_FINISHED")


def test_structured_move_equals_move_id(stub: Stub) -> None:
    _, tokens = new_table(stub)
    _, token = to_move(stub, tokens)
    legal = view(stub, token).hand.legal_moves
    bid = next((m for m in legal if m.kind == "bid"), legal[0])
    spec = (
        moves_pb2.MoveSpec(kind=bid.kind, contract=bid.value)
        if bid.value
        else moves_pb2.MoveSpec(kind=bid.kind)
    )
    reply = stub.SubmitMove(svc.SubmitMoveRequest(token=token, spec=spec))
    assert reply.move.id == bid.id


def test_repeated_request_id_returns_the_first_answer(stub: Stub) -> None:
    _, tokens = new_table(stub)
    _, token = to_move(stub, tokens)
    move = view(stub, token).hand.legal_moves[0].id
    first = submit(stub, token, move, request_id="same")
    version = view(stub, token).version
    again = submit(stub, token, move, request_id="same")
    stale_retry = submit(stub, token, move, request_id="same", expected_version=1)
    assert again == first == stale_retry
    assert view(stub, token).version == version


def test_retry_of_the_move_that_ended_a_hand(stub: Stub) -> None:
    _, tokens = new_table(stub, hands=2)
    rng = random.Random(4)
    while True:
        _, token = to_move(stub, tokens)
        mine = view(stub, token)
        move = choose(mine, rng)
        reply = submit(stub, token, move, request_id=f"m{mine.version}")
        if reply.HasField("result"):
            break
    assert submit(stub, token, move, request_id=f"m{mine.version}") == reply
    log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
    kinds = [e.WhichOneof("body") for e in log.events]
    i = kinds.index("hand_scored")
    assert kinds[i - 1 : i + 2] == ["move_made", "hand_scored", "hand_dealt"]
    dealt = log.events[i + 1].hand_dealt
    assert (dealt.dealer, dealt.deal_number) == (1, 2) or log.events[i].hand_scored.result.redeal
    assert reply.version == log.version and reply.status == PLAYING
    assert reply.result == log.events[i].hand_scored.result


def test_preset_deals_make_tables_reproducible(stub: Stub) -> None:
    variant = find_variant("slovenian")
    deck = variant.deck(variant.make_rules(4))
    order = [deck.codes[c] for c in reversed(deck.cards)]
    results = []
    for _ in range(2):
        _, tokens = new_table(stub, presets=[order])
        play_out(stub, tokens, seed=7)
        log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
        dealt = next(e.hand_dealt for e in log.events if e.HasField("hand_dealt"))
        assert dealt.preset and list(dealt.order) == order
        results.append([e.hand_scored.result for e in log.events if e.HasField("hand_scored")])
    assert results[0] == results[1]


def test_hand_without_taroks_is_dealt_again_by_the_same_dealer(stub: Stub) -> None:
    variant = find_variant("slovenian")
    deck = variant.deck(variant.make_rules(4))
    codes = [deck.codes[c] for c in deck.cards]
    suits = [c for c in codes if not c.startswith("T")][:12]
    rest = iter([c for c in codes if c not in suits])
    # dealer 0 deals the talon (6 cards), then packets of 6 from seat 1: [6:12] and [30:36]
    seat1 = set(range(6, 12)) | set(range(30, 36))
    chosen = iter(suits)
    no_taroks = [next(chosen) if i in seat1 else next(rest) for i in range(len(codes))]
    normal = list(codes)
    random.Random(5).shuffle(normal)
    assert (
        variant.deal(variant.make_rules(4), [deck.by_code[c] for c in normal], 0).phase != "redeal"
    )
    table, tokens = new_table(stub, presets=[no_taroks, normal], hands=1)
    log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
    kinds = [e.WhichOneof("body") for e in log.events]
    assert kinds[-4:] == ["player_seated", "hand_dealt", "hand_scored", "hand_dealt"], kinds
    redeal, again = log.events[-2].hand_scored, log.events[-1].hand_dealt
    assert redeal.result.redeal and again.dealer == 0 and again.deal_number == 2
    assert len({(e.time.seconds, e.time.nanos) for e in log.events[-4:]}) == 1  # one append
    assert view(stub, tokens[0]).status == PLAYING and table


def test_oversized_request_is_resource_exhausted(stub: Stub) -> None:
    try:
        stub.Ping(svc.PingRequest(payload=b"x" * (2 << 20)))
    except grpc.RpcError as error:
        assert isinstance(error, grpc.Call)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    else:
        raise AssertionError("a 2 MiB request must be refused")


def test_full_match_scores_every_hand(stub: Stub) -> None:
    table, tokens = new_table(stub, hands=3)
    play_out(stub, tokens, seed=3)
    final = view(stub, tokens[0])
    assert final.status == FINISHED and final.hands_played == 3
    log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
    scored = [e.hand_scored for e in log.events if e.HasField("hand_scored")]
    played = [s for s in scored if not s.result.redeal]
    assert len(played) == 3
    closed = log.events[-1].table_closed
    assert list(closed.totals) == list(final.totals) and closed.hands_played == 3
    dealers = [e.hand_dealt.dealer for e in log.events if e.HasField("hand_dealt")]
    assert dealers[0] == 0 and max(dealers) <= 2 and sorted(dealers) == dealers
    assert table


@pytest.mark.parametrize(("variant", "players"), FAMILY_MATCHES, ids=lambda x: str(x))
def test_full_match_of_each_rule_set_and_player_count(
    stub: Stub, variant: str, players: int
) -> None:
    """A two-hand match played to the end by random legal moves: every hand scored, the
    scores of each hand summing to zero, and the table's totals their running sum."""
    _, tokens = new_table(stub, variant=variant, players=players, hands=2)
    assert view(stub, tokens[0]).variant == variant
    play_out(stub, tokens, seed=players, pass_rate=0.3)  # games where everybody passes are rare
    final = view(stub, tokens[0])
    assert final.status == FINISHED and final.hands_played == 2
    log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
    results = [e.hand_scored.result for e in log.events if e.HasField("hand_scored")]
    played = [r for r in results if not r.redeal]
    assert len(played) == 2 and all(len(r.totals) == players for r in played)
    assert [sum(r.totals) for r in played] == [0, 0]
    assert any(r.HasField("declarer") and r.lines for r in played), [r.contract for r in played]
    running = [sum(r.settled.amounts[i] for r in results) for i in range(players)]
    assert list(final.totals) == running == list(log.events[-1].table_closed.totals)
