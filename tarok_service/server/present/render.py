"""Ids and parameters of what a view shows, rendered in the viewer's language.

The rules engine gives ids (contract, bonus, phase, move kind, card code ...) and the score
lines' items; this module turns each into a `Term` (kind, id, parameters, label) through
`i18n.Labels`, which holds the words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from tarok_proto.tarok.v1 import labels_pb2, moves_pb2, views_pb2

from ...engine import cards as c
from ...engine.cards import Card, Deck
from ...engine.moves import Move, MoveKind
from ...engine.state import HandState
from ...engine.variant import Variant
from ...engine.view import Fact
from ...variants import vocabulary as v
from .. import errors as e
from .i18n import DEFAULT_LOCALE, Labels

_REASON = re.compile(r"^[A-Z][A-Z_]+$")

# The vocabulary a move's (or fact's) value belongs to, by move (fact) kind.
_VALUE_KIND = {
    "bid": v.CONTRACT,
    "announce": v.BONUS,
    "kontra": v.BONUS,
    "declaration": v.DECLARATION,
    "talon": v.CHOICE,
    "call": v.CARD,
    "play": v.CARD,
    "discard": v.CARD,
    "give": v.CARD,
}
_PARAM_NAME = {v.CONTRACT: "contract", v.BONUS: "bonus", v.CARD: "card", v.CHOICE: "choice"}
_BOLOGNESE_TRUMPS = {"TAngel", "TWorld", "TSun", "TMoon", "TBegato"}
_TALON_CHOICES = ("keep", "reject")


def word(labels: Labels, kind: str, ident: str) -> str:
    """The label of an id; a Zwanzigerrufen addition of the opponents ("pagat_against") is
    the addition's word marked as against the game."""
    if kind == v.BONUS and ident.endswith(v.AGAINST):
        return labels.text("against", item=labels.term(kind, ident.removesuffix(v.AGAINST)))
    return labels.term(kind, ident)


def term(
    labels: Labels, kind: str, ident: str, params: Mapping[str, str] | None = None
) -> labels_pb2.Term:
    """An id as a Term with its label (shared when it has no parameters: copy, never change)."""
    if params:
        return _term(labels, kind, ident, params)
    return _memo(_TERMS, (kind, ident), labels, lambda words: _term(words, kind, ident, None))


def _term(
    labels: Labels, kind: str, ident: str, params: Mapping[str, str] | None
) -> labels_pb2.Term:
    label = card_label(labels, ident) if kind == v.CARD else word(labels, kind, ident)
    return labels_pb2.Term(kind=kind, id=ident, params=params or {}, label=label)


# Rendered messages by (locale, rule set, key): views render the same few hundred words over
# and over. Each entry keeps the labels its rendering missed, so that every use counts them.
MAX_MEMO = 20_000
Missed = tuple[tuple[str, str], ...]
_TERMS: dict[tuple[object, ...], tuple[labels_pb2.Term, Missed]] = {}
_FACTS: dict[tuple[object, ...], tuple[views_pb2.Fact, Missed]] = {}
T = TypeVar("T")


def _memo(
    cache: dict[tuple[object, ...], tuple[T, Missed]],
    key: tuple[object, ...],
    labels: Labels,
    build: Callable[[Labels], T],
) -> T:
    full = (labels.locale, labels.context, *key)
    hit = cache.get(full)
    if hit is None:
        missed: list[tuple[str, str]] = []
        value = build(Labels(labels.locale, labels.context, lambda *x: missed.append(x)))
        hit = (value, tuple(missed))
        if len(cache) >= MAX_MEMO:
            cache.clear()
        cache[full] = hit
    if labels.missing is not None:
        for locale, kind in hit[1]:
            labels.missing(locale, kind)
    return hit[0]


# --- cards ----------------------------------------------------------------------------------


def card_label(labels: Labels, code: str, deck: Deck | None = None) -> str:
    """A card by its code: tarok numerals, the škis, suit symbol and localised face."""
    if deck is not None and code in deck.by_code:
        return card_text(labels, deck, deck.by_code[code])
    return code


def card_text(labels: Labels, deck: Deck, card: Card) -> str:
    if deck.name == "tarocco62":
        return _italian(labels, deck, card)
    if deck.name == "tarot78":
        return _french(labels, deck, card)
    if card.is_tarok:
        text = word(labels, "card", "skis") if card.rank == c.SKIS else c.ROMAN[card.rank]
    else:
        face = deck.codes[card][1:].split(".")[0]
        letter = word(labels, "face", face) if face in ("K", "Q", "C", "J", "A") else face
        text = c.SUIT_SYMBOLS[card.suit] + letter
    if deck.name == "tarok108":
        text += " " + labels.text(f"pack_{card.pack}")
    return text


def _french(labels: Labels, deck: Deck, card: Card) -> str:
    """French Tarot: trumps by number, the excuse, suit symbol and face (N, the cavalier,
    shown as the knight's letter)."""
    code = deck.codes[card]
    if not card.is_tarok and card.suit not in c.SUIT_SYMBOLS:
        return word(labels, "card", code)
    if card.is_tarok:
        return labels.text("trump", n=card.rank)
    face = {"N": "C"}.get(code[1:], code[1:])
    letter = word(labels, "face", face) if face in ("K", "Q", "C", "J") else face
    return c.SUIT_SYMBOLS[card.suit] + letter


def _italian(labels: Labels, deck: Deck, card: Card) -> str:
    code = deck.codes[card]
    if card == c.MATTO_CARD or code in _BOLOGNESE_TRUMPS:
        return word(labels, "card", code)
    if card.is_tarok and card.rank == c.MOOR:
        return labels.text("moor", n=card.pack + 1)
    if card.is_tarok:
        return labels.text("trump", n=card.rank)
    face = c.italian_face(card)
    face_label = word(labels, "face_it", face) if face in ("K", "Q", "C", "J", "A") else face
    return labels.text("italian_card", face=face_label, suit=word(labels, "suit", card.suit))


# --- moves and facts --------------------------------------------------------------------------


def kontra_level(facts: Iterable[Fact], item: str) -> int:
    """The kontra level `item` has reached so far, from the public kontra facts."""
    return max((f.level for f in facts if f.kind == MoveKind.KONTRA and f.value == item), default=0)


def kontra_name(variant: Variant[Any], level: int) -> str:
    """The rule set's name of a kontra level (1 = the first kontra); the top name beyond it."""
    names = v.vocabulary(variant)[v.KONTRA] or ("kontra",)
    return names[min(level, len(names)) - 1]


def move_params(variant: Variant[Any], facts: Iterable[Fact], move: Move) -> dict[str, str]:
    """A move's argument by name (kontra moves also name the level they reach)."""
    kind = _VALUE_KIND.get(move.kind)
    if not move.value:
        return {}
    if move.kind == MoveKind.KONTRA:
        level = kontra_level(facts, move.value) + 1
        return {
            "bonus": move.value,
            "level": str(level),
            "kontra": kontra_name(variant, level),
        }
    if move.kind == MoveKind.TALON:
        return {_talon_value(move.value): move.value}
    return {_PARAM_NAME.get(kind or "", "value"): move.value}


def _talon_value(value: str) -> str:
    """What a talon move or fact names: a group of the exposed talon by its index, a talon card
    (two-pack free exchange) or a choice (Czech third obligation: keep or reject)."""
    if value.isdigit():
        return "group"
    return "choice" if value in _TALON_CHOICES else "card"


def move_label(
    labels: Labels,
    variant: Variant[Any],
    deck: Deck,
    state: HandState,
    facts: Iterable[Fact],
    move: Move,
) -> str:
    """A legal move in words: "Licitiraj berač", "Igraj XXI", "Kontra: igra"."""
    kind = _VALUE_KIND.get(move.kind)
    params = move_params(variant, facts, move)
    if move.kind == MoveKind.KONTRA:
        level = word(labels, "kontra", params["kontra"])
        return labels.text("move_kontra", level=level, item=word(labels, v.BONUS, move.value))
    if move.kind == MoveKind.PASS:
        key = f"move.pass_{state.phase}"
        return (
            labels.lookup(key) or word(labels, "move", "pass")
            if labels.has(key)
            else word(labels, "move", "pass")
        )
    if move.kind == MoveKind.TALON and "group" in params:
        cards = variant.talon_group(state, int(move.value))
        shown = " ".join(card_text(labels, deck, x) for x in cards)
        return labels.text("move_pick", cards=shown)
    if move.kind == MoveKind.TALON and "card" in params:
        return labels.text("move_take", value=card_label(labels, move.value, deck))
    called = variant.call_cards(state, move.value) if move.kind == MoveKind.CALL else None
    if called is not None:
        shown = " + ".join(card_text(labels, deck, x) for x in called)
        return labels.text("move_call", value=shown)
    if move.kind == MoveKind.DECLARE:
        return _declare_label(labels, variant, state)
    if kind == v.CARD:
        value = card_label(labels, move.value, deck)
    elif kind is not None:
        value = word(labels, kind, move.value)
    else:
        value = move.value
    if not value:
        return word(labels, "move", move.kind)
    return labels.text(f"move_{move.kind}", value=value)


# Moves whose words depend on nothing but the move (and, for a pass, the phase).
_PLAIN_MOVES = frozenset({"bid", "pass", "discard", "announce", "play", "give"})
_MOVES: dict[tuple[object, ...], tuple[moves_pb2.LegalMove, Missed]] = {}


def legal_move_msg(
    labels: Labels,
    variant: Variant[Any],
    deck: Deck,
    state: HandState,
    facts: Iterable[Fact],
    move: Move,
) -> moves_pb2.LegalMove:
    """A legal move with its id, kind, parameters and label (shared when its words depend
    on the move alone: copy, never change)."""
    if move.kind not in _PLAIN_MOVES:
        return _legal_move(labels, variant, deck, state, facts, move)
    key = (deck.name, state.phase if move.kind == MoveKind.PASS else "", move)
    return _memo(_MOVES, key, labels, lambda w: _legal_move(w, variant, deck, state, (), move))


def english_move_msg(
    variant: Variant[Any], state: HandState, facts: Iterable[Fact], move: Move
) -> moves_pb2.LegalMove:
    """A legal move labelled by its rule set's own English (`Variant.label`), for callers that
    name no locale (shared when its words depend on the move alone: copy, never change)."""
    english = Labels(DEFAULT_LOCALE, variant.id)
    if move.kind not in _PLAIN_MOVES:
        return _english_move(english, variant, state, facts, move)
    key = ("rule set", state.phase, move)
    return _memo(_MOVES, key, english, lambda w: _english_move(w, variant, state, (), move))


def _english_move(
    labels: Labels, variant: Variant[Any], state: HandState, facts: Iterable[Fact], move: Move
) -> moves_pb2.LegalMove:
    msg = moves_pb2.LegalMove(id=move.id, kind=move.kind, value=move.value)
    msg.params.update(move_params(variant, facts, move))
    msg.label = variant.label(state, move)
    msg.kind_term.CopyFrom(term(labels, v.MOVE, move.kind))
    return msg


def _legal_move(
    labels: Labels,
    variant: Variant[Any],
    deck: Deck,
    state: HandState,
    facts: Iterable[Fact],
    move: Move,
) -> moves_pb2.LegalMove:
    msg = moves_pb2.LegalMove(id=move.id, kind=move.kind, value=move.value)
    msg.params.update(move_params(variant, facts, move))
    msg.label = move_label(labels, variant, deck, state, facts, move)
    msg.kind_term.CopyFrom(term(labels, v.MOVE, move.kind))
    return msg


def _declare_label(labels: Labels, variant: Variant[Any], state: HandState) -> str:
    combos = None if state.turn is None else variant.combinations(state, state.hands[state.turn])
    if combos is None:
        return word(labels, "move", "declare")
    names = ", ".join(combination_label(labels, x.name, len(x.cards)) for x in combos.all)
    return labels.text("move_declare", value=names, points=labels.count("points", combos.total))


def combination_label(labels: Labels, name: str, count: int) -> str:
    return labels.text("combination", name=word(labels, v.COMBINATION, name), count=count)


def fact_msg(variant: Variant[Any], deck: Deck, labels: Labels, fact: Fact) -> views_pb2.Fact:
    """A public fact with its kind and value as terms and the whole of it in words (shared:
    copy, never change)."""
    return _memo(_FACTS, (deck.name, fact), labels, lambda w: _fact(variant, deck, w, fact))


def _fact(variant: Variant[Any], deck: Deck, labels: Labels, fact: Fact) -> views_pb2.Fact:
    msg = views_pb2.Fact(kind=fact.kind, value=fact.value, level=fact.level)
    if fact.seat is not None:
        msg.seat = fact.seat
    msg.kind_term.CopyFrom(term(labels, v.FACT, fact.kind))
    msg.value_term.CopyFrom(fact_value(variant, deck, labels, fact))
    msg.label = fact_label(labels, fact.kind, msg.kind_term.label, msg.value_term.label)
    return msg


def fact_value(variant: Variant[Any], deck: Deck, labels: Labels, fact: Fact) -> labels_pb2.Term:
    """A fact's value as a term of its vocabulary."""
    kind = _VALUE_KIND.get(fact.kind, "")
    params: dict[str, str] = {}
    if fact.kind == MoveKind.KONTRA:
        params = {"level": str(fact.level), "kontra": kontra_name(variant, max(fact.level, 1))}
    if fact.kind == MoveKind.BID and fact.value == "pass":
        return term(labels, "move", "pass")
    if fact.kind == MoveKind.DECLARE:
        parts = [p.split(" x") for p in fact.value.split(",") if " x" in p]
        label = ", ".join(combination_label(labels, n, int(k)) for n, k in parts)
        return labels_pb2.Term(kind=v.COMBINATION, id=fact.value, label=label)
    if fact.kind == MoveKind.TALON and _talon_value(fact.value) == "group":
        label = labels.text("talon_group", n=int(fact.value) + 1)
        return labels_pb2.Term(kind=v.GROUP, id=fact.value, label=label)
    if kind == v.CARD or (fact.kind == MoveKind.TALON and _talon_value(fact.value) == "card"):
        codes = [x for x in fact.value.split(",") if x]
        label = " ".join(card_label(labels, x, deck) for x in codes)
        return labels_pb2.Term(kind=v.CARD, id=fact.value, label=label)
    if not kind:
        return labels_pb2.Term(kind="value", id=fact.value, label=fact.value)
    out = _term(labels, kind, fact.value, params)
    if fact.kind == MoveKind.KONTRA:
        out.label = labels.text(
            "move_kontra", level=word(labels, "kontra", params["kontra"]), item=out.label
        )
    return out


def fact_label(labels: Labels, kind: str, kind_label: str, value_label: str) -> str:
    """A fact in words: "Licitacija: berač"; a kontra says itself ("Re na igro")."""
    if kind == "kontra" and value_label:
        return value_label
    return labels.text("fact", kind=kind_label, value=value_label) if value_label else kind_label


# --- score lines ------------------------------------------------------------------------------


def line_kind(context: str, ident: str) -> str:
    """Where a score line's id is worded: its own "line" entry, else the bonus or contract of
    the same id (a line "beggar" is the contract's word)."""
    english = Labels(DEFAULT_LOCALE, context)
    for kind in (v.LINE, v.BONUS, v.CONTRACT):
        if english.has(f"{kind}.{ident}"):
            return kind
    return v.LINE


def reasons() -> tuple[str, ...]:
    """Every error reason a client may see: the rules engine's and the service's (all in
    `errors.py`). A reason is a constant named as it reads (`TABLE_FULL = "TABLE_FULL"`)."""
    service = (
        x for name, x in vars(e).items() if isinstance(x, str) and name == x and _REASON.match(x)
    )
    return tuple(dict.fromkeys((*v.REASONS, *sorted(set(service)))))


def line_label(labels: Labels, ident: str, params: Mapping[str, str]) -> str:
    """A score line in words: "pagat ultimo (tiho)", "nasprotniki: trula (napovedano)"."""
    if ident == "combination":
        name = combination_label(labels, params["combination"], int(params["count"]))
    else:
        name = word(labels, line_kind(labels.context, ident), ident)
    how = [word(labels, v.PARAM, params[p]) for p in ("mode", "outcome") if p in params]
    if "kontra" in params:
        how.append(word(labels, v.KONTRA, params["kontra"]))
    text = labels.text("line_how", name=name, how=", ".join(how)) if how else name
    if params.get("team") == "opponents":
        text = labels.text("line_opponents", line=text)
    if "source" in params:
        source = word(labels, v.PARAM, params["source"])
        if "seat" in params:
            source = labels.text("declared_by", seat=int(params["seat"]) + 1)
        text = labels.text("line_source", source=source, line=text)
    return text
