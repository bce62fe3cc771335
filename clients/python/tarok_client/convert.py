"""The protocol's TableView as the engine's `View`, for the built-in bot brains.

The brains in `tarok_service.bots` are pure Python over `tarok_service.engine` (no server
code), so a remote bot can run them on what the server sent its seat: the view, the variant
and the table rules (the view carries the options). Nothing else is needed, nothing else is
seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from tarok_proto.tarok.v1 import views_pb2

from tarok_service.engine.cards import Card, Deck
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.state import Trick
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import Fact, PublicCards, View
from tarok_service.variants.registry import find_variant


@lru_cache(maxsize=64)
def _table_rules(
    variant_id: str, players: int, options: tuple[tuple[str, str], ...]
) -> tuple[Variant[Any], Rules, Deck]:
    variant = find_variant(variant_id)
    rules = variant.make_rules(players, dict(options))
    return variant, rules, variant.deck(rules)


def table_rules(view: views_pb2.TableView) -> tuple[Variant[Any], Rules, Deck]:
    """The variant, rules and deck of the table a view shows."""
    return _table_rules(view.variant, view.players, tuple(sorted(view.options.items())))


def engine_view(view: views_pb2.TableView) -> tuple[View, Variant[Any], Rules]:
    """The engine's View of a seat's TableView (without the hand result), with its rules."""
    variant, rules, deck = table_rules(view)
    hand = view.hand
    engine = View(
        seat=view.seat if view.HasField("seat") else None,
        phase=hand.phase,
        turn=hand.turn if hand.HasField("turn") else None,
        dealer=hand.dealer,
        hand=_cards(deck, (c.code for c in hand.cards)),
        hand_sizes=tuple(hand.hand_sizes),
        trick=_plays(deck, hand.trick),
        last_trick=_plays(deck, hand.last_trick),
        tricks_won=tuple(hand.tricks_won),
        public=tuple(_public(deck, group) for group in hand.public_cards),
        facts=tuple(_fact(f) for f in hand.facts),
        contract=hand.contract,
        declarer=hand.declarer if hand.HasField("declarer") else None,
        partners=tuple(hand.partners),
        called=hand.called,
        legal=tuple(Move(m.kind, m.value) for m in hand.legal_moves),
        result=None,
        tricks=tuple(Trick(_plays(deck, t.plays), t.winner) for t in hand.tricks),
    )
    return engine, variant, rules


def _cards(deck: Deck, codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(deck.by_code[c] for c in codes)


def _plays(deck: Deck, plays: Iterable[views_pb2.Play]) -> tuple[tuple[int, Card], ...]:
    return tuple((p.seat, deck.by_code[p.card.code]) for p in plays)


def _public(deck: Deck, group: views_pb2.PublicCards) -> PublicCards:
    seat = group.seat if group.HasField("seat") else None
    return PublicCards(group.name, _cards(deck, (c.code for c in group.cards)), seat)


def _fact(fact: views_pb2.Fact) -> Fact:
    seat = fact.seat if fact.HasField("seat") else None
    return Fact(seat, fact.kind, fact.value, fact.level)
