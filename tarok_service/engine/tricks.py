"""Trick mechanics shared by every rule set: what may be played, and who wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from . import moves as m
from .cards import MOND, PAGAT, SKIS, TAROK, Card

Play = tuple[int, Card]

# How two cards of equal suit and rank compare (two-deck games, Bolognese Moors).
TIE_FIRST = "first"  # the card played first keeps the trick
TIE_LEAD_PACK = "lead_pack"  # the card from the pack of the card led wins
TIE_LAST = "last"  # the card played last wins

EMPEROR_ANY = "any"
EMPEROR_PAGAT_LAST = "pagat_last"
EMPEROR_MOND_SKIS_PAGAT = "mond_skis_pagat"


@dataclass(frozen=True, slots=True)
class TrickRules:
    """The parameters that make one contract's trick play differ from another's."""

    trumps_win: bool = True  # False in colour valat: a tarok never beats a suit card
    must_overtake: bool = False  # negative contracts: beat the best card of the suit played
    pagat_last: bool = False  # the pagat may be played only as the sole legal card
    emperor: bool = True  # skis, mond and pagat in one trick: the pagat wins
    emperor_needs_tarok_lead: bool = False  # colour valat: the emperor's trick needs a tarok led
    emperor_order: str = EMPEROR_ANY
    tie: str = TIE_FIRST
    trump: str = TAROK
    pagat_last_tarok: bool = False  # Czech varsava: the pagat only as one's last tarok
    mond_not_under_skis: bool = False  # Czech varsava: XXI never into a trick holding the skis
    suits_before_trump_lead: bool = False  # colour solo: no tarok lead while holding suit cards
    # Bolognese Matto: may always be played, never wins, and is skipped when judging the trick
    # (when led, the next card sets the suit). None: no such card.
    excuse: Card | None = None


def plain(rules: TrickRules) -> bool:
    """Whether the rules are only "follow suit, else trump, else anything" (no overtaking, pagat,
    excuse or lead restrictions): the rules the fast legality checks decide on their own."""
    return not (
        rules.excuse is not None
        or rules.must_overtake
        or rules.pagat_last
        or rules.pagat_last_tarok
        or rules.mond_not_under_skis
        or rules.suits_before_trump_lead
    )


def has_suit(hand: Sequence[Card], suit: str) -> bool:
    return any(c.suit == suit for c in hand)


def obliged_suit(hand: Sequence[Card], led: Card, trump: str = TAROK) -> str | None:
    """The suit a follower must play: the led suit, else a trump, else None (anything)."""
    if has_suit(hand, led.suit):
        return led.suit
    if has_suit(hand, trump):
        return trump
    return None


def is_emperor(cards: Sequence[Card], rules: TrickRules) -> bool:
    """Whether skis, mond and pagat are all in these cards in an order the rules accept."""
    ranks = [c.rank for c in cards if c.suit == rules.trump]
    if not (SKIS in ranks and MOND in ranks and PAGAT in ranks):
        return False
    if rules.emperor_needs_tarok_lead and cards[0].suit != rules.trump:
        return False
    if rules.emperor_order == EMPEROR_PAGAT_LAST:
        return ranks.index(PAGAT) > max(ranks.index(SKIS), ranks.index(MOND))
    if rules.emperor_order == EMPEROR_MOND_SKIS_PAGAT:
        return ranks.index(MOND) < ranks.index(SKIS) < ranks.index(PAGAT)
    return True


def beats(card: Card, best: Card, led: Card, rules: TrickRules) -> bool:
    """Whether `card` takes the trick from the current `best` card."""
    if card.suit == best.suit:
        if card.rank != best.rank:
            return card.rank > best.rank
        if rules.tie == TIE_LAST:
            return True
        return rules.tie == TIE_LEAD_PACK and card.pack == led.pack and best.pack != led.pack
    return rules.trumps_win and card.suit == rules.trump


def outranks(card: Card, best: Card, led: Card, rules: TrickRules) -> bool:
    """Whether `card` beats `best` of the same suit; an identical card counts only under the
    lead-pack tie rule (two-deck games), where the copy with the led card's back is higher."""
    if card.rank != best.rank:
        return card.rank > best.rank
    return rules.tie == TIE_LEAD_PACK and card.pack == led.pack and best.pack != led.pack


def winning_index(cards: Sequence[Card], rules: TrickRules) -> int:
    """Index of the winning card among the cards of a trick, in playing order."""
    excuse = rules.excuse
    if excuse is not None:
        others = [i for i, c in enumerate(cards) if c.suit != excuse.suit or c != excuse]
        if not others:
            return 0
        return others[winning_index([cards[i] for i in others], _plain(rules))]
    trump, trumps_win, emperor = rules.trump, rules.trumps_win, rules.emperor
    if emperor and not trumps_win:
        for c in cards:  # a cheap test first (hot path): is a pagat in the trick at all?
            if c.rank == PAGAT and c.suit == trump:
                if is_emperor(cards, rules):
                    return _emperor_pagat(cards, trump)
                break
    # `beats` inlined (hot path): the best card so far and its index
    led = best = cards[0]
    index, tie = 0, rules.tie
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit == best.suit:
            if card.rank != best.rank:
                if card.rank > best.rank:
                    best, index = card, i
            elif tie == TIE_LAST or (
                tie == TIE_LEAD_PACK and card.pack == led.pack and best.pack != led.pack
            ):
                best, index = card, i
        elif trumps_win and card.suit == trump:
            best, index = card, i
    # trumps winning, an emperor's trick holds the skis and so would go to one: the pagat's
    # claim is only checked then (hot path)
    skis_wins = emperor and trumps_win and best.rank == SKIS and best.suit == trump
    if skis_wins and is_emperor(cards, rules):
        return _emperor_pagat(cards, trump)
    return index


def _emperor_pagat(cards: Sequence[Card], trump: str) -> int:
    """The index of the pagat that takes an emperor's trick (two packs: the one of the led
    card's pack, else the first)."""
    pagats = [i for i, c in enumerate(cards) if c.suit == trump and c.rank == PAGAT]
    if len(pagats) == 1:
        return pagats[0]
    led = cards[0]
    return next((i for i in pagats if cards[i].pack == led.pack), pagats[0])


def winner(plays: Sequence[Play], rules: TrickRules) -> int:
    """Seat that wins a complete trick."""
    return plays[winning_index([c for _, c in plays], rules)][0]


def _card_to_beat(trick: Sequence[Card], suit: str, rules: TrickRules) -> Card | None:
    """The best card of `suit` in the trick that a negative-contract follower must beat."""
    trump_in = any(c.suit == rules.trump for c in trick)
    if suit != rules.trump and trump_in:
        return None
    if suit == rules.trump and not trump_in:
        return None
    best: Card | None = None
    for c in trick:
        if c.suit == suit and (best is None or c.rank > best.rank):
            best = c
    return best


def _is_pagat(card: Card, rules: TrickRules) -> bool:
    return card.suit == rules.trump and card.rank == PAGAT


def _without_pagat(cards: list[Card], rules: TrickRules) -> list[Card]:
    if len(cards) <= 1:
        return cards
    rest = [c for c in cards if not _is_pagat(c, rules)]
    return rest or cards


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules, held: Sequence[Card] = ()
) -> list[Card]:
    """Cards the player may play now. `held` are cards to keep for the last trick if possible."""
    if rules.excuse is not None:
        return _with_excuse(hand, trick, rules, held)
    cards = _candidates(hand, trick, rules)
    if rules.pagat_last_tarok or rules.mond_not_under_skis:
        cards = [c for c in cards if not _banned(c, hand, trick, rules)] or cards
    if held and len(hand) > 1:
        kept = [c for c in cards if c not in held]
        cards = kept or cards
    return cards


def is_legal_play(
    hand: Sequence[Card], trick: Sequence[Card], card: Card, rules: TrickRules, held: Sequence[Card]
) -> bool:
    """`card in legal_plays(hand, trick, rules, held)`, without listing them when the rules are
    plain (follow suit, else trump)."""
    if not plain(rules) or (held and len(hand) > 1):
        return member(card, legal_plays(hand, trick, rules, held))
    if not member(card, hand):
        return False
    if not trick:
        return True
    led = trick[0].suit
    if card.suit == led:
        return True
    if has_suit(hand, led):
        return False
    return card.suit == rules.trump or not has_suit(hand, rules.trump)


def member(card: Card, cards: Sequence[Card]) -> bool:
    """`card in cards`, trying identity first (dataclass equality is slow)."""
    for c in cards:
        if c is card:
            return True
    return card in cards


def _leads(hand: Sequence[Card], rules: TrickRules) -> list[Card]:
    """Cards the leader may lead."""
    cards = list(hand)
    if rules.suits_before_trump_lead:
        cards = [c for c in cards if c.suit != rules.trump] or cards
    return _without_pagat(cards, rules) if rules.pagat_last else cards


def _trump_lead_barred(hand: Sequence[Card], card: Card, rules: TrickRules) -> bool:
    """Whether leading `card` breaks the no-trump-lead-while-holding-suits rule."""
    return (
        rules.suits_before_trump_lead
        and card.suit == rules.trump
        and any(c.suit != rules.trump for c in hand)
    )


def _candidates(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> list[Card]:
    if not trick:
        return _leads(hand, rules)
    suit = obliged_suit(hand, trick[0], rules.trump)
    if suit is None:
        return list(hand)
    cards = [c for c in hand if c.suit == suit]
    if not rules.must_overtake:
        return cards
    if suit == rules.trump and rules.emperor and _emperor_completes(hand, trick, rules):
        return [c for c in cards if _is_pagat(c, rules)]
    to_beat = _card_to_beat(trick, suit, rules)
    if to_beat is not None:
        higher = [c for c in cards if outranks(c, to_beat, trick[0], rules)]
        cards = higher or cards
    return _without_pagat(cards, rules) if rules.pagat_last else cards


def _emperor_completes(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> bool:
    """Whether the player holds the pagat and the trick already has skis and mond."""
    if not any(_is_pagat(c, rules) for c in hand):
        return False
    ranks = {c.rank for c in trick if c.suit == rules.trump}
    return SKIS in ranks and MOND in ranks


def _banned(card: Card, hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> str:
    """The reason code of a ban (Czech varsava) that `card` falls under, else ""; a ban gives
    way when it would leave no legal card (see `legal_plays`)."""
    trumps = [c for c in hand if c.suit == rules.trump]
    if rules.pagat_last_tarok and _is_pagat(card, rules) and len(trumps) > 1:
        return m.Reason.PAGAT_ONLY_AS_LAST_TAROK
    is_mond = card.suit == rules.trump and card.rank == MOND
    if rules.mond_not_under_skis and is_mond and any(_is_skis(c, rules) for c in trick):
        return m.Reason.MOND_UNDER_SKIS
    return ""


def _is_skis(card: Card, rules: TrickRules) -> bool:
    return card.suit == rules.trump and card.rank == SKIS


def _with_excuse(
    hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules, held: Sequence[Card]
) -> list[Card]:
    """Legal plays when the rules have an excuse: the other cards as if it were not in the hand
    or the trick, plus the excuse itself whenever it is held."""
    rest, led = _no_excuse(hand, rules), _no_excuse(trick, rules)
    cards = legal_plays(rest, led, _plain(rules), held) if rest else []
    excuse = rules.excuse
    assert excuse is not None
    return cards + [c for c in hand if c.suit == excuse.suit and c == excuse]


def _no_excuse(cards: Sequence[Card], rules: TrickRules) -> list[Card]:
    excuse = rules.excuse
    if excuse is None:
        return list(cards)
    return [c for c in cards if c.suit != excuse.suit or c != excuse]


_PLAIN: dict[int, tuple[TrickRules, TrickRules]] = {}


def _plain(rules: TrickRules) -> TrickRules:
    """The same rules without an excuse card (cached by identity: hashing rules is slow)."""
    found = _PLAIN.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_PLAIN) >= 64:
            _PLAIN.clear()
        found = _PLAIN[id(rules)] = (rules, replace(rules, excuse=None))
    return found[1]


def explain(hand: Sequence[Card], trick: Sequence[Card], card: Card, rules: TrickRules) -> str:
    """The reason code for playing `card` when it is not legal."""
    if rules.excuse is not None and card != rules.excuse:
        return explain(_no_excuse(hand, rules), _no_excuse(trick, rules), card, _plain(rules))
    if card not in hand:
        return m.Reason.CARD_NOT_IN_HAND
    if rules.pagat_last_tarok or rules.mond_not_under_skis:
        ban = _banned(card, hand, trick, rules)
        if ban and card in _candidates(hand, trick, rules):
            return ban
    if trick:
        suit = obliged_suit(hand, trick[0], rules.trump)
        if suit is not None and card.suit != suit:
            return m.Reason.MUST_FOLLOW_SUIT if suit == trick[0].suit else m.Reason.MUST_PLAY_TAROK
        if _is_pagat(card, rules) and rules.pagat_last:
            return m.Reason.PAGAT_MUST_BE_HELD_BACK
        if rules.must_overtake:
            return m.Reason.MUST_OVERTAKE
    elif _trump_lead_barred(hand, card, rules):
        return m.Reason.TAROK_LEAD_NOT_ALLOWED
    elif _is_pagat(card, rules) and rules.pagat_last:
        return m.Reason.PAGAT_MUST_BE_HELD_BACK
    return m.Reason.ANNOUNCED_CARD_MUST_BE_HELD
