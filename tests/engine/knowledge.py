"""What each seat has been shown, event by event: a knowledge model written from the rules.

The model does not call `variant.view()`; it follows the moves of a hand and, for each rule
set, the rules about which cards are shown to whom:

- every seat knows its dealt hand; a card played to a trick is shown to everybody;
- Slovenian tarok and double tarok: the talon is turned up for the exchange (all of it, to
  everybody); the declarer's discards are his (a tarok is laid away face up, so shown to all);
  in klop the talon cards given to trick winners are shown; in open beggar the declarer's hand
  is shown once the first trick is over;
- Czech taroky: a talon card handed to a player is his; in the third obligation the declarer
  sees the three he looks at, a rejected three is turned up; discards as above (per
  discarder); the talon cards given to the first tricks in varsava are shown; a revealing
  declaration of the trul (alone or in trulhonery) shows the declarer's three trul cards to
  everybody, one of the four kings (královské honéry) his four kings;
- Zwanzigerrufen: nothing but the hands and the tricks;
- Königrufen: as Slovenian tarok (its talon halves turned up, discards, the called king);
  in Piccolo ouvert and Bettel ouvert the declarer's hand is shown once the first trick is
  over;
- French Tarot: in prise and garde the chien is turned up for everybody; the écart is the
  taker's, a trump laid away is shown to all; a poignée shows its cards to everybody;
- Tarocco Bolognese: the dealer's discards are his, the declared combinations are shown, and
  once play is over the piles are counted face up.

A card *named* by a call (the called king or tarok) may be mentioned to everybody: naming it
says nothing about where it lies. `mentioned` finds the cards a string names, by code or by
label, so that every string that leaves the engine can be checked against the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tarok_service.engine.cards import KING, MOND, PAGAT, SKIS, Card, Deck
from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant

Viewer = int | None
# Contracts played with the declarer's hand face up from the end of the first trick.
OPEN_HANDS = frozenset({"open_beggar", "piccolo_ouvert", "bettel_ouvert"})


class Leak(AssertionError):
    """A viewer was shown, or told about, a card the rules do not let it know."""


@dataclass
class Knowledge:
    """The cards each viewer (a seat, or None for a spectator) may know of, so far."""

    variant: Variant[Any]
    players: int
    public: set[Card] = field(default_factory=set)
    private: dict[int, set[Card]] = field(default_factory=dict)
    named: set[Card] = field(default_factory=set)

    @staticmethod
    def dealt(variant: Variant[Any], state: HandState) -> Knowledge:
        k = Knowledge(variant, state.players)
        k.private = {seat: set(hand) for seat, hand in enumerate(state.hands)}
        k.observe(None, None, state)
        return k

    def of(self, viewer: Viewer) -> set[Card]:
        own = self.private.get(viewer, set()) if viewer is not None else set()
        return self.public | own

    def show(self, cards: Iterable[Card], seat: Viewer = None) -> None:
        """Show `cards` to `seat` (None: to everybody)."""
        if seat is None:
            self.public.update(cards)
        else:
            self.private.setdefault(seat, set()).update(cards)

    def observe(self, before: HandState | None, move: Move | None, after: HandState) -> None:
        """Learn what `move` (from `before` to `after`) showed, by the rules of the variant."""
        if move is not None and move.kind == "play":
            self.show([self.variant.deck(after.rules).card(move.value)])
        RULES.get(self.variant.id, _nothing)(self, before, move, after)


def _attr(state: HandState | None, name: str, default: object = ()) -> object:
    return getattr(state, name, default) if state is not None else default


def _new(before: HandState | None, after: HandState, name: str) -> list[Any]:
    """Entries of the tuple field `name` that `after` has beyond `before`."""
    old = _attr(before, name)
    new = _attr(after, name)
    assert isinstance(old, tuple) and isinstance(new, tuple)
    return list(new[len(old) :]) if new[: len(old)] == old else list(new)


def _nothing(k: Knowledge, before: HandState | None, move: Move | None, after: HandState) -> None:
    return None


def _slovenian(k: Knowledge, before: HandState | None, move: Move | None, after: HandState) -> None:
    talon = _attr(after, "exposed_talon")
    assert isinstance(talon, tuple)
    k.show(talon)
    declarer = _attr(after, "declarer", None)
    for card in _new(before, after, "discards"):
        k.show([card], None if card.is_tarok or not isinstance(declarer, int) else declarer)
    k.show(c for c in _new(before, after, "gifts") if isinstance(c, Card))
    called = _attr(after, "called", ())
    assert isinstance(called, tuple)
    k.named.update(c for c in called if isinstance(c, Card))
    contract = _attr(after, "contract", -1)
    assert isinstance(contract, int)
    table = getattr(k.variant, "contract_table", ())
    if 0 <= contract < len(table) and table[contract].id in OPEN_HANDS and after.tricks:
        assert isinstance(declarer, int)
        k.show(after.hands[declarer])


def _taroky(k: Knowledge, before: HandState | None, move: Move | None, after: HandState) -> None:
    for seat, card in _new(before, after, "received"):
        k.show([card], seat)
    for three in _new(before, after, "shown"):
        k.show(three)
    declarer = _attr(after, "declarer", None)
    if after.phase == "third_talon" and isinstance(declarer, int):
        step = _attr(after, "third_step", 0)
        assert isinstance(step, int)
        k.show(after.talon[3 * step : 3 * step + 3], declarer)
    for seat, card in _new(before, after, "discards"):
        k.show([card], None if card.is_tarok else seat)
    k.show(card for _, card in _new(before, after, "gifts"))
    for seat, item in _new(before, after, "declarations"):
        hand = after.hands[seat]
        if item in ("trul", "trulhonery"):
            k.show(c for c in hand if c.is_tarok and c.rank in (PAGAT, MOND, SKIS))
        elif item == "kralovske_honery":
            k.show(c for c in hand if c.rank == KING and not c.is_tarok)
    called = _attr(after, "called", None)
    if isinstance(called, Card):
        k.named.add(called)


def _zwanzigerrufen(
    k: Knowledge, before: HandState | None, move: Move | None, after: HandState
) -> None:
    called = _attr(after, "called", None)
    if isinstance(called, Card):
        k.named.add(called)


def _bolognese(k: Knowledge, before: HandState | None, move: Move | None, after: HandState) -> None:
    for _, combos in _new(before, after, "declared"):
        k.show(combos.cards())
    if after.phase in ("matto", "scored"):
        k.show(c for pile in after.piles for c in pile)
    given = _attr(after, "given", None)
    if isinstance(given, Card):
        k.show([given])


def _french_tarot(
    k: Knowledge, before: HandState | None, move: Move | None, after: HandState
) -> None:
    taker = _attr(after, "taker", None)
    chien = _attr(after, "chien")
    assert isinstance(chien, tuple)
    k.show(chien)
    for card in _new(before, after, "ecart"):
        k.show([card], None if card.is_tarok or not isinstance(taker, int) else taker)
    for _, _, cards in _new(before, after, "poignees"):
        k.show(cards)
    called = _attr(after, "called", None)
    if isinstance(called, Card):
        k.named.add(called)


RULES: dict[str, Callable[[Knowledge, HandState | None, Move | None, HandState], None]] = {
    "slovenian": _slovenian,
    "double_tarok": _slovenian,
    "koenigrufen": _slovenian,
    "taroky": _taroky,
    "zwanzigerrufen": _zwanzigerrufen,
    "tarocco_bolognese": _bolognese,
    "french_tarot": _french_tarot,
}


@cache
def _pattern(deck: Deck) -> tuple[re.Pattern[str], dict[str, Card]]:
    names: dict[str, Card] = {}
    for card in deck.cards:
        names[deck.codes[card]] = card
        names[deck.labels[card]] = card
    alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternation})(?![\w.])"), names


def mentioned(deck: Deck, text: str) -> set[Card]:
    """The cards `text` names, by code ("HK", "T21.2") or by label ("♥K", "XXI")."""
    pattern, names = _pattern(deck)
    return {names[m.group(0)] for m in pattern.finditer(text)}


def called_by(deck: Deck, value: str) -> set[Card]:
    """The cards a call's value names: the code itself and the same card of every pack."""
    name = value.split(".")[0]
    return mentioned(deck, value) | {c for c in deck.cards if deck.codes[c].split(".")[0] == name}


def check_text(
    k: Knowledge, deck: Deck, viewer: Viewer, text: str, what: str, also: set[Card] | None = None
) -> None:
    """Raise Leak if `text`, sent to `viewer`, names a card the viewer may not know of
    (`also`: cards this one text may name besides)."""
    extra = mentioned(deck, text) - k.of(viewer) - k.named - (also or set())
    if extra:
        codes = sorted(deck.codes[c] for c in extra)
        raise Leak(f"{what} to viewer {viewer} names {codes}: {text!r}")


def check_cards(k: Knowledge, deck: Deck, viewer: Viewer, cards: Iterable[Card], what: str) -> None:
    extra = set(cards) - k.of(viewer)
    if extra:
        codes = sorted(deck.codes[c] for c in extra)
        raise Leak(f"{what} shows viewer {viewer} {codes}")


def check_viewer(k: Knowledge, variant: Variant[Any], state: HandState, viewer: Viewer) -> None:
    """Everything `viewer` is sent about `state`: the view's cards, fact values, the called
    cards, the legal moves' ids and labels and the score lines."""
    deck = variant.deck(state.rules)
    view = variant.view(state, viewer)
    check_cards(k, deck, viewer, view.visible_cards(), "view")
    for fact in view.facts:
        check_text(k, deck, viewer, fact.value, f"fact {fact.kind}")
    check_text(k, deck, viewer, view.called, "called")
    for move in view.legal:
        # a call names the card it would call (with two packs: the cards of that name in either
        # pack, "HK" calls both kings of hearts): that says nothing about where they lie
        also = called_by(deck, move.value) if move.kind == "call" else set()
        check_text(k, deck, viewer, move.id, "move id", also)
        check_text(k, deck, viewer, variant.label(state, move), f"label of {move.id}", also)
    if view.result is not None:
        for line in view.result.lines:
            check_text(k, deck, viewer, line.item, "score line")


def check_move_made(
    k: Knowledge, variant: Variant[Any], before: HandState, move: Move, viewers: Iterable[Viewer]
) -> None:
    """The label of a move just made (`k` already knows what it showed) goes to every viewer
    that may see the move: those that now know every card its id names."""
    deck = variant.deck(before.rules)
    label = variant.label(before, move)
    for viewer in viewers:
        if viewer == before.turn:
            continue
        if mentioned(deck, move.value) <= k.of(viewer) | k.named:
            check_text(k, deck, viewer, label, f"label of the move made {move.id}")
