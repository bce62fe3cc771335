"""Engine values <-> protobuf messages (cards, moves, results, hand views, variant tables)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from tarok_proto.tarok.v1 import cards_pb2, moves_pb2, results_pb2, variants_pb2, views_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..engine.cards import Card, Deck
from ..engine.moves import Move
from ..engine.options import OptionSpec, OptionValue
from ..engine.outcome import HandResult
from ..engine.state import HandState
from ..engine.variant import Variant
from ..engine.view import View
from . import errors as e

_MOVE_TOKEN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.,+\-]{0,62}$")
_MOVE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.,+\-:]{0,127}$")


class CardCodec:
    """Card <-> Card message for one deck, with the messages built once."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.messages = {
            c: cards_pb2.Card(
                code=deck.codes[c],
                suit=c.suit,
                rank=c.rank,
                pack=c.pack,
                label=deck.labels[c],
                points=deck.points[c],
            )
            for c in deck.cards
        }

    def fill(
        self, target: RepeatedCompositeFieldContainer[cards_pb2.Card], cards: Iterable[Card]
    ) -> None:
        """Append the messages of `cards` to a repeated Card field."""
        target.extend(self.messages[c] for c in cards)


@lru_cache(maxsize=64)
def cards_for(deck: Deck) -> CardCodec:
    return CardCodec(deck)


def option_text(value: OptionValue) -> str:
    """Option values as text: booleans as "true"/"false"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def result_msg(result: HandResult) -> results_pb2.HandResult:
    msg = results_pb2.HandResult(
        contract=result.contract,
        team=result.team,
        scores=result.scores,
        penalties=result.penalties,
        side_points=result.side_points,
        radelci=result.radelci,
        redeal=result.redeal,
        pot=result.pot,
        totals=result.totals,
    )
    if result.declarer is not None:
        msg.declarer = result.declarer
    if result.won is not None:
        msg.won = result.won
    for line in result.lines:
        msg.lines.add(item=line.item, points=line.points, seats=line.seats)
    return msg


def legal_msg(variant: Variant, state: HandState, move: Move) -> moves_pb2.LegalMove:
    return moves_pb2.LegalMove(
        id=move.id, label=variant.label(state, move), kind=move.kind, value=move.value
    )


def hand_view_msg(variant: Variant, deck: Deck, state: HandState, view: View) -> views_pb2.HandView:
    """The HandView message mirroring an engine View."""
    cards = cards_for(deck)
    msg = views_pb2.HandView(
        phase=view.phase,
        dealer=view.dealer,
        hand_sizes=view.hand_sizes,
        tricks_won=view.tricks_won,
        contract=view.contract,
        partners=view.partners,
        called=view.called,
    )
    if view.turn is not None:
        msg.turn = view.turn
    if view.declarer is not None:
        msg.declarer = view.declarer
    cards.fill(msg.cards, view.hand)
    for seat, card in view.trick:
        msg.trick.add(seat=seat, card=cards.messages[card])
    for seat, card in view.last_trick:
        msg.last_trick.add(seat=seat, card=cards.messages[card])
    for trick in view.tricks:
        done = msg.tricks.add(winner=trick.winner)
        for seat, card in trick.plays:
            done.plays.add(seat=seat, card=cards.messages[card])
    for group in view.public:
        pub = msg.public_cards.add(name=group.name)
        cards.fill(pub.cards, group.cards)
        if group.seat is not None:
            pub.seat = group.seat
    for fact in view.facts:
        f = msg.facts.add(kind=fact.kind, value=fact.value, level=fact.level)
        if fact.seat is not None:
            f.seat = fact.seat
    msg.legal_moves.extend(legal_msg(variant, state, m) for m in view.legal)
    if view.result is not None:
        msg.result.CopyFrom(result_msg(view.result))
    return msg


def option_msg(spec: OptionSpec) -> variants_pb2.OptionInfo:
    return variants_pb2.OptionInfo(
        name=spec.name,
        default_value=option_text(spec.default),
        doc=spec.doc,
        allowed=spec.allowed(),
    )


def variant_msg(variant: Variant) -> variants_pb2.VariantInfo:
    """A variant's ListVariants entry: options, contract and bonus tables, deck."""
    msg = variants_pb2.VariantInfo(
        id=variant.id,
        name=variant.name,
        player_counts=variant.player_counts,
        rules_version=variant.rules_version,
    )
    msg.options.extend(option_msg(s) for s in variant.option_specs)
    for players in variant.player_counts:
        rules = msg.rules.add(players=players)
        for c in variant.contracts(players):
            if players in c.players:
                rules.contracts.add(id=c.id, name=c.name, value=c.value)
        for b in variant.bonuses(players):
            rules.bonuses.add(id=b.id, name=b.name, silent=b.silent, announced=b.announced)
        deck = variant.deck(variant.make_rules(players))
        cards_for(deck).fill(rules.deck, deck.cards)
    return msg


def move_from_request(request: svc.SubmitMoveRequest) -> Move:
    """The engine Move a SubmitMove request names; INVALID_ARGUMENT when malformed."""
    which = request.WhichOneof("move")
    if which == "move_id":
        if not _MOVE_ID.match(request.move_id):
            raise e.invalid(
                "move_id", f"malformed move id {e.shown(request.move_id)!r}", e.MALFORMED_MOVE
            )
        return Move.parse(request.move_id)
    if which == "spec":
        spec = request.spec
        if not _MOVE_TOKEN.match(spec.kind) or ":" in spec.kind:
            raise e.invalid(
                "spec.kind", f"malformed move kind {e.shown(spec.kind)!r}", e.MALFORMED_MOVE
            )
        arg = spec.WhichOneof("argument")
        value = getattr(spec, arg) if arg else ""
        if value and not _MOVE_TOKEN.match(value):
            raise e.invalid(
                f"spec.{arg}", f"malformed move argument {e.shown(value)!r}", e.MALFORMED_MOVE
            )
        return Move(spec.kind, value)
    raise e.invalid("move", "a move is required: move_id or spec", e.MALFORMED_MOVE)
