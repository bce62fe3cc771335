"""Engine values <-> protobuf messages (cards, moves, results, hand views, variant tables)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from tarok_proto.tarok.v1 import (
    cards_pb2,
    labels_pb2,
    moves_pb2,
    results_pb2,
    variants_pb2,
    views_pb2,
)
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...engine.cards import Card, Deck
from ...engine.moves import Move
from ...engine.options import OptionSpec
from ...engine.outcome import HandResult
from ...engine.state import HandState
from ...engine.variant import Variant
from ...engine.view import View
from ...variants import vocabulary as vocab
from .. import errors as e
from ..model.wire import option_text, result_msg
from . import render
from .i18n import DEFAULT_LOCALE, Labels

_MOVE_TOKEN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.,+\-]{0,62}$")
_MOVE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.,+\-:]{0,127}$")


class CardCodec:
    """Card <-> Card message for one deck, with the messages built once (labels in `locale`,
    or the deck's own when None)."""

    def __init__(self, deck: Deck, locale: str | None = None) -> None:
        self.deck = deck
        words = Labels(locale) if locale is not None else None
        self.messages = {
            c: cards_pb2.Card(
                code=deck.codes[c],
                suit=c.suit,
                rank=c.rank,
                pack=c.pack,
                label=deck.labels[c] if words is None else render.card_text(words, deck, c),
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
def cards_for(deck: Deck, locale: str | None = None) -> CardCodec:
    return CardCodec(deck, locale)


def result_view_msg(result: HandResult, words: Labels) -> results_pb2.HandResult:
    """`result_msg` with the ids, parameters and labels of its contract and lines (for views;
    the event log keeps the plain `result_msg`)."""
    msg = result_msg(result)
    msg.contract_term.CopyFrom(render.term(words, vocab.CONTRACT, result.contract))
    for line in msg.lines:
        ident, params = vocab.line_key(line.item)
        line.id = ident
        line.params.update(params)
        line.label = render.line_label(words, ident, params)
    return msg


def legal_msg(
    variant: Variant[Any],
    state: HandState,
    move: Move,
    words: Labels | None = None,
    view: View | None = None,
    deck: Deck | None = None,
) -> moves_pb2.LegalMove:
    """A legal move with its id, kind, parameters and label (in `words`' language, else the
    rule set's own English label)."""
    facts = view.facts if view is not None else ()
    if words is not None and deck is not None:
        return render.legal_move_msg(words, variant, deck, state, facts, move)
    return render.english_move_msg(variant, state, facts, move)


def hand_view_msg(
    variant: Variant[Any], deck: Deck, state: HandState, view: View, words: Labels | None = None
) -> views_pb2.HandView:
    """The HandView message mirroring an engine View; with `words`, every label in their
    language (else cards and moves keep the rule set's English labels)."""
    cards = cards_for(deck, words.locale if words is not None else None)
    terms = words or Labels(DEFAULT_LOCALE, variant.id)
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
        done = msg.tricks.add(winner=trick.winner, leader=trick.leader)
        for seat, card in trick.plays:
            done.plays.add(seat=seat, card=cards.messages[card])
    for group in view.public:
        pub = msg.public_cards.add(name=group.name)
        pub.group.CopyFrom(render.term(terms, vocab.GROUP, vocab.ident(group.name)))
        cards.fill(pub.cards, group.cards)
        if group.seat is not None:
            pub.seat = group.seat
    msg.facts.extend(render.fact_msg(variant, deck, terms, fact) for fact in view.facts)
    msg.legal_moves.extend(legal_msg(variant, state, m, words, view, deck) for m in view.legal)
    msg.phase_term.CopyFrom(render.term(terms, vocab.PHASE, view.phase))
    if view.contract:
        msg.contract_term.CopyFrom(render.term(terms, vocab.CONTRACT, view.contract))
    if view.called:
        called = render.card_label(terms, view.called, deck)
        msg.called_term.CopyFrom(labels_pb2.Term(kind=vocab.CARD, id=view.called, label=called))
    if view.result is not None:
        msg.result.CopyFrom(result_view_msg(view.result, terms))
    return msg


def vocabulary_msgs(variant: Variant[Any], words: Labels) -> list[labels_pb2.Vocabulary]:
    """Every vocabulary of a rule set with its labels (cards: the pack of its first count)."""
    kinds = {**vocab.vocabulary(variant), vocab.REASON: render.reasons()}
    out = [
        labels_pb2.Vocabulary(
            kind=kind,
            terms=[render.term(words, render.line_kind(variant.id, i), i) for i in ids]
            if kind == vocab.LINE
            else [render.term(words, kind, i) for i in ids],
        )
        for kind, ids in kinds.items()
    ]
    deck = variant.deck(variant.make_rules(variant.player_counts[0]))
    out.append(
        labels_pb2.Vocabulary(
            kind=vocab.CARD,
            terms=[
                labels_pb2.Term(
                    kind=vocab.CARD, id=deck.codes[c], label=render.card_text(words, deck, c)
                )
                for c in deck.cards
            ],
        )
    )
    return out


def option_msg(spec: OptionSpec) -> variants_pb2.OptionInfo:
    return variants_pb2.OptionInfo(
        name=spec.name,
        default_value=option_text(spec.default),
        doc=spec.doc,
        allowed=spec.allowed(),
    )


def variant_msg(variant: Variant[Any], locale: str | None = None) -> variants_pb2.VariantInfo:
    """A variant's ListVariants entry: options, contract and bonus tables, deck, and every
    vocabulary; names in `locale` (else the rule set's own English names)."""
    words = Labels(locale or DEFAULT_LOCALE, variant.id)
    msg = variants_pb2.VariantInfo(
        id=variant.id,
        name=variant.name if locale is None else words.term("variant", variant.id),
        player_counts=variant.player_counts,
        rules_version=variant.rules_version,
        locale=words.locale,
    )
    msg.options.extend(option_msg(s) for s in variant.option_specs)
    for players in variant.player_counts:
        rules = msg.rules.add(players=players)
        for c in variant.contracts(players):
            if players in c.players:
                name = c.name if locale is None else words.term(vocab.CONTRACT, c.id)
                rules.contracts.add(id=c.id, name=name, value=c.value)
        for b in variant.bonuses(players):
            name = b.name if locale is None else words.term(vocab.BONUS, b.id)
            rules.bonuses.add(id=b.id, name=name, silent=b.silent, announced=b.announced)
        deck = variant.deck(variant.make_rules(players))
        cards_for(deck, locale).fill(rules.deck, deck.cards)
    msg.vocabularies.extend(vocabulary_msgs(variant, words))
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
