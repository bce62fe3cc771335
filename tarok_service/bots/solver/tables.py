"""A rule set's trick play as the tables the C solver reads: each card's suit, rank, pack and
value, and the flags of a `tricks.TrickRules` (see `_dds.c`). Games are cached by the deck,
the rules, the player count and the value scheme (each holds its own transposition table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import tricks as t
from ...engine.cards import Card, Deck
from ._dds import Game

TrickRules = t.TrickRules
_TIES = {t.TIE_FIRST: 0, t.TIE_LEAD_PACK: 1, t.TIE_LAST: 2}
_EMPERORS = {t.EMPEROR_ANY: 0, t.EMPEROR_PAGAT_LAST: 1, t.EMPEROR_MOND_SKIS_PAGAT: 2}
TABLE_BITS = 18  # 2^18 entries of 24 bytes: 6 MB per game


def rule_flags(rules: TrickRules) -> list[int]:
    """The rules' flags in the order `Game` takes them."""
    return [
        int(rules.trumps_win),
        int(rules.must_overtake),
        int(rules.pagat_last),
        int(rules.emperor),
        int(rules.emperor_needs_tarok_lead),
        _EMPERORS[rules.emperor_order],
        _TIES[rules.tie],
        int(rules.pagat_last_tarok),
        int(rules.mond_not_under_skis),
        int(rules.suits_before_trump_lead),
    ]


def suit_ids(deck: Deck, trump: str) -> dict[str, int]:
    """A small number for each suit of the deck (the trump suit's included)."""
    names = sorted({c.suit for c in deck.cards} | {trump})
    return {s: i for i, s in enumerate(names)}


def build_game(
    deck: Deck, rules: TrickRules, players: int, values: Mapping[Card, int]
) -> Game:
    """A new `Game` of `deck` under `rules` with the card values `values`."""
    suits = suit_ids(deck, rules.trump)
    cards = deck.cards
    excuse = -1 if rules.excuse is None else deck.index[rules.excuse]
    return Game(
        players,
        [suits[c.suit] for c in cards],
        [c.rank for c in cards],
        [c.pack for c in cards],
        [values[c] for c in cards],
        suits[rules.trump],
        rule_flags(rules),
        excuse,
        TABLE_BITS,
    )


_GAMES: dict[tuple[int, TrickRules, int, tuple[int, ...]], tuple[Deck, Game]] = {}


def game_for(
    deck: Deck,
    rules: TrickRules,
    players: int,
    values: Sequence[int],
    own: dict[Any, Game] | None = None,
) -> Game:
    """The `Game` of `deck` under `rules` whose card `i` is worth `values[i]`: the shared one
    (the bots' cache), or the caller's own kept in `own` (whose transposition table no other
    search changes: a hand analysis gives the same answer every time)."""
    key = (id(deck), rules, players, tuple(values))
    if own is not None:
        game = own.get(key)
        if game is None:
            game = own[key] = _new_game(deck, rules, players, values)
        return game
    found = _GAMES.get(key)
    if found is None or found[0] is not deck:
        if len(_GAMES) >= 16:
            _GAMES.clear()
        found = _GAMES[key] = (deck, _new_game(deck, rules, players, values))
    return found[1]


def _new_game(deck: Deck, rules: TrickRules, players: int, values: Sequence[int]) -> Game:
    return build_game(deck, rules, players, dict(zip(deck.cards, values, strict=True)))
