"""AnalyseHand over gRPC: a finished table's hand, card by card, for every rule set."""

from __future__ import annotations

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.bots.solver import solvable
from tarok_service.variants.registry import all_variants, find_variant

from .harness import FINISHED, expect_error, new_table, play_out, view

Stub = svc_grpc.TarokServiceStub


@pytest.mark.parametrize("variant_id", [v.id for v in all_variants() if solvable(v)])
def test_analyse_hand_of_every_rule_set(stub: Stub, variant_id: str) -> None:
    variant = find_variant(variant_id)
    players = variant.player_counts[0]
    rules = variant.make_rules(players)
    deck = variant.deck(rules)
    codes = set(deck.by_code)
    dealt = variant.deal(rules, list(deck.cards), 0).hands
    whole = players * min(len(h) for h in dealt)  # every card (a dealer's extra ones laid away)
    analysed: list[tuple[svc.AnalyseHandResponse, list[str]]] = []
    for seed in range(8):  # a hand thrown in has no card play: another table
        _, tokens = new_table(stub, players, variant=variant_id)
        if seed == 0:
            early = svc.AnalyseHandRequest(token=tokens[0])
            expect_error(
                lambda: stub.AnalyseHand(early),  # noqa: B023 (called at once)
                grpc.StatusCode.FAILED_PRECONDITION,
                "TABLE_NOT_FINISHED",
            )
        play_out(stub, tokens, seed=seed)
        assert view(stub, tokens[0]).status == FINISHED
        found = stub.AnalyseHand(svc.AnalyseHandRequest(token=tokens[1]), timeout=120)
        if found.cards:
            analysed.append((found, tokens))
            if len(found.cards) == whole:  # played to its last trick
                break
    assert analysed, "no hand with card play in 8 tables"
    found, tokens = analysed[-1]
    assert found.deal_number >= 1 and found.contract and found.measure in ("points", "tricks")
    assert all(c.card in codes for c in found.cards)
    assert [c.trick for c in found.cards] == sorted(c.trick for c in found.cards)
    last = found.cards[-1]
    if len(found.cards) == whole:  # the hand's very last card had no alternative
        assert last.exact and last.value == last.best
    for c in found.cards:  # the card played is never better for its side than the best one
        mine = c.seat in c.side
        assert (c.best >= c.value - 1e-9) if mine else (c.best <= c.value + 1e-9)
    again = stub.AnalyseHand(
        svc.AnalyseHandRequest(token=tokens[0], deal_number=found.deal_number), timeout=120
    )
    assert again == found
    expect_error(
        lambda: stub.AnalyseHand(svc.AnalyseHandRequest(token=tokens[0], deal_number=99)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_FIELD",
    )


def test_a_rule_set_the_solver_does_not_model_is_refused(stub: Stub) -> None:
    unsolved = [v for v in all_variants() if not solvable(v)]
    assert [v.id for v in unsolved] == ["french_tarot"]  # its overtrumping and excuse
    variant = unsolved[0]
    _, tokens = new_table(stub, variant.player_counts[0], variant=variant.id)
    play_out(stub, tokens, seed=0)
    assert view(stub, tokens[0]).status == FINISHED
    expect_error(
        lambda: stub.AnalyseHand(svc.AnalyseHandRequest(token=tokens[0])),
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_ANALYSABLE",
    )
