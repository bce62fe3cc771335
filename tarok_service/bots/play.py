"""Sensible trick play from a `Situation`: follow low, win tricks worth points with the cheapest
winning card, smear points on a partner's safe trick, keep the pagat and the mond safe; in
negative contracts (klop, beggar, varsava) the aim is turned round: stay under the trick."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import tricks as t
from ..engine.cards import MOND, PAGAT, SKIS, TAROK, Card
from .situation import Situation, is_mond, is_skis

WORTH_WINNING = 3  # card points in a trick that make it worth a high card when not last


def choose_card(sit: Situation) -> Card:
    """The card to play (one of `sit.legal`)."""
    if len(sit.legal) == 1:
        return sit.legal[0]
    if sit.negative:
        return _lead_negative(sit) if not sit.trick else _follow_negative(sit)
    return _lead(sit) if not sit.trick else _follow(sit)


# --- helpers ----------------------------------------------------------------------------------


def _wins(sit: Situation, card: Card) -> bool:
    """Whether `card` would take the trick as it stands."""
    cards = [c for _, c in sit.trick] + [card]
    return t.winning_index(cards, sit.rules) == len(cards) - 1


def _winners(sit: Situation) -> list[Card]:
    """The legal cards that would take the trick as it stands (`_wins` of each): each against
    the trick's best card so far, unless an excuse or a pagat (the emperor's trick) is about."""
    rules, trick = sit.rules, [c for _, c in sit.trick]
    trump = rules.trump
    if (
        not trick
        or rules.excuse is not None
        or (
            rules.emperor and any(c.rank == PAGAT and c.suit == trump for c in (*trick, *sit.legal))
        )
    ):
        return [c for c in sit.legal if _wins(sit, c)]
    led, best = trick[0], trick[t.winning_index(trick, rules)]
    return [c for c in sit.legal if t.beats(c, best, led, rules)]


def _winner(sit: Situation) -> tuple[int, Card]:
    cards = [c for _, c in sit.trick]
    return sit.trick[t.winning_index(cards, sit.rules)]


def _skis_safe(sit: Situation) -> bool:
    """Whether no skis can catch a mond in this trick: none is in it, and none is still out
    among the players after this one (a mond caught costs its owner a penalty even when his
    partner's skis takes it)."""
    if any(is_skis(c) for _, c in sit.trick):
        return False
    return sit.last or not any(c.rank == SKIS and c.suit == TAROK for c in sit.unseen)


def _protected(sit: Situation, card: Card) -> bool:
    """Cards to keep back: the pagat until the last trick, the mond while a skis is out, the
    skis (it should win a trick, not be thrown)."""
    if card.suit != TAROK or len(sit.hand) == 1:  # `is_pagat` ... inlined (hot path)
        return False
    rank = card.rank
    if rank in (PAGAT, SKIS):
        return True
    return rank == MOND and not _skis_safe(sit)


def _cost(sit: Situation, card: Card) -> tuple[bool, int, bool, int]:
    """How dear a card is to give up: protected ones last, then by points, taroks after suit
    cards, then by rank."""
    return (_protected(sit, card), sit.points[card], card.suit == TAROK, card.rank)


def _cheapest(sit: Situation, cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: _cost(sit, c))


def _is_boss(sit: Situation, card: Card) -> bool:
    """Whether no unseen card could beat `card` (a tarok, or a suit card when no tarok is out)."""
    if card.suit == TAROK:
        return not any(c.suit == TAROK and c.rank > card.rank for c in sit.unseen)
    if sit.rules.trumps_win and any(c.suit == TAROK for c in sit.unseen):
        return False
    return _is_top_of_suit(card, sit.unseen)


def _trick_points(sit: Situation) -> int:
    return sum(sit.points[c] for _, c in sit.trick)


# --- positive contracts -----------------------------------------------------------------------


def _lead(sit: Situation) -> Card:
    """The top card of a suit nobody has played yet (it should bring its points home), else a
    low card of the shortest suit (towards a void), else a boss tarok when a partner may
    smear on it, else the cheapest card; never the pagat or an unsafe mond if avoidable."""
    options = [c for c in sit.legal if not _protected(sit, c)] or list(sit.legal)
    played_suits = {c.suit for c in sit.gone}
    kings = [
        c
        for c in options
        if c.suit != TAROK and c.suit not in played_suits and _is_top_of_suit(c, sit.unseen)
    ]
    if kings:
        return max(kings, key=lambda c: sit.points[c])
    suits = [c for c in options if c.suit != TAROK]
    if suits:
        length = {s: sum(1 for c in sit.hand if c.suit == s) for s in {c.suit for c in suits}}
        return min(suits, key=lambda c: (length[c.suit], sit.points[c], c.rank))
    bosses = [c for c in options if _is_boss(sit, c)]
    if bosses and sit.friends:
        return min(bosses, key=lambda c: c.rank)
    return _cheapest(sit, options)


def _is_top_of_suit(card: Card, unseen: frozenset[Card]) -> bool:
    return not any(c.suit == card.suit and c.rank > card.rank for c in unseen)


def _follow(sit: Situation) -> Card:
    seat, best = _winner(sit)
    winners = _winners(sit)
    won = {id(c) for c in winners}  # the legal cards are distinct: identity tells them apart
    losers = [c for c in sit.legal if id(c) not in won]
    if seat in sit.friends:
        return _support(sit, best, winners, losers)
    return _take(sit, winners) or _give_little(sit, losers, winners)


def _give_little(sit: Situation, losers: list[Card], winners: list[Card]) -> Card:
    """The cheapest card that keeps the pagat, mond and skis back: one that loses if possible,
    else one that wins."""
    for group in (losers, winners):
        free = [c for c in group if not _protected(sit, c)]
        if free:
            return _cheapest(sit, free)
    return _cheapest(sit, losers or winners)


def _support(sit: Situation, best: Card, winners: list[Card], losers: list[Card]) -> Card:
    """A partner wins so far: smear points if the trick will stay ours, else give little."""
    if sit.last or (losers and _is_boss(sit, best)):
        pool = list(sit.legal) if sit.last else losers
        keep = [c for c in pool if not _protected(sit, c)] or pool
        return max(keep, key=lambda c: (sit.points[c], c.suit != TAROK, -c.rank))
    if losers:
        return _give_little(sit, losers, [])
    return _take(sit, winners) or _give_little(sit, [], winners)


def _take(sit: Situation, winners: list[Card]) -> Card | None:
    """The card to take an opponent's trick with, or None to duck."""
    usable = [c for c in winners if not _protected(sit, c) or (sit.last and not is_skis(c))]
    if is_skis_available(winners) and _mond_in_trick_for_foe(sit):
        return next(c for c in winners if is_skis(c))
    skis = [c for c in winners if is_skis(c)]
    if not usable and skis and (_trick_points(sit) >= WORTH_WINNING or len(sit.hand) <= 3):
        return skis[0]
    if not usable:
        return None
    if sit.last:
        return min(usable, key=lambda c: (c.suit == TAROK, c.rank))
    bosses = [c for c in usable if _is_boss(sit, c)]
    worth = _trick_points(sit) >= WORTH_WINNING or len(sit.trick) >= sit.players - 2
    if bosses and worth:
        return min(bosses, key=lambda c: (sit.points[c], c.rank))
    if bosses and all(c.suit != TAROK for c in bosses):
        return min(bosses, key=lambda c: c.rank)
    return None


def is_skis_available(cards: Sequence[Card]) -> bool:
    return any(is_skis(c) for c in cards)


def _mond_in_trick_for_foe(sit: Situation) -> bool:
    """A mond of an opponent lies in the trick: the skis catches it."""
    return any(is_mond(c) and s not in sit.friends for s, c in sit.trick)


# --- negative contracts -----------------------------------------------------------------------


def _lead_negative(sit: Situation) -> Card:
    """Lead low, suit cards first, so that somebody else must take it."""
    return min(sit.legal, key=lambda c: (c.suit == TAROK, c.rank, sit.points[c]))


def _follow_negative(sit: Situation) -> Card:
    """Stay under the trick with the highest card that does so; if every card wins, win as
    cheaply as possible (last: shed the highest card of few points)."""
    won = {id(c) for c in _winners(sit)}
    losers = [c for c in sit.legal if id(c) not in won]
    if losers:
        return max(losers, key=lambda c: (sit.points[c], c.rank))
    if sit.last:
        return min(sit.legal, key=lambda c: (sit.points[c], -c.rank))
    return min(sit.legal, key=lambda c: (c.rank, sit.points[c]))
