"""The client's converter gives the bot brains exactly the View the engine gives the seat."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tarok_client.convert import engine_view
from tarok_proto.tarok.v1 import views_pb2
from tarok_proto.tarok.v1 import views_pb2 as client_views

from tarok_service.server.model.wire import option_text
from tarok_service.server.present import codec
from tarok_service.variants.registry import all_variants

CASES = [(v.id, n) for v in all_variants() for n in v.player_counts]


@pytest.mark.parametrize(("variant_id", "players"), CASES)
def test_converted_view_equals_the_engine_view(variant_id: str, players: int) -> None:
    variant = next(v for v in all_variants() if v.id == variant_id)
    rules = variant.make_rules(players)
    deck = variant.deck(rules)
    rng = random.Random(players)
    for _ in range(2):
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, dealer=rng.randrange(players))
        while not state.finished:
            seat = state.turn
            assert seat is not None
            engine = variant.view(state, seat)
            message = views_pb2.TableView(variant=variant.id, players=players, seat=seat)
            message.options.update({k: option_text(v) for k, v in rules.options.items()})
            message.hand.CopyFrom(codec.hand_view_msg(variant, deck, state, engine))
            wire = client_views.TableView.FromString(message.SerializeToString())
            converted, _, got_rules = engine_view(wire)
            assert converted == dataclasses.replace(engine, result=None)
            assert got_rules == rules
            state = variant.apply(state, rng.choice(variant.legal_moves(state)))
