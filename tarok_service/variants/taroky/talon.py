"""The talon in Czech taroky: the call, the 4+1+1 split, the third's threes, the discards."""

from __future__ import annotations

from ...engine.cards import KING, Card
from ...engine.fastcopy import evolve
from ...engine.moves import MoveKind
from ...engine.state import replace_at, without
from ...engine.view import Fact
from . import data as d
from .declarations import TRUL_RANKS
from .state import DECK, Phase, TarokyState

KEEP, REJECT = "keep", "reject"
CALL_RANKS = (19, 18, 17, 16)  # XIX, then XVIII, XVII; XVI by option


def callable_cards(s: TarokyState) -> list[Card]:
    """XIX; XVIII when the declarer holds XIX; XVII when he holds both (XVI by option).

    He may always call a card he holds himself and so play a secret solo."""
    assert s.declarer is not None
    hand = s.hands[s.declarer]
    ranks = CALL_RANKS if s.rules.flag("call_xvi") else CALL_RANKS[:3]
    out = []
    for rank in ranks:
        card = DECK.card(f"T{rank}")
        out.append(card)
        if card not in hand:
            break
    return out


def call(s: TarokyState, card: Card) -> TarokyState:
    """Call the partner's tarok, then hand out the talon: 4 to the declarer, 1 each to the next
    two players. The partner is whoever then holds the called card (none: playing alone)."""
    declarer = s.declarer
    assert declarer is not None
    s = evolve(s, called=card, facts=(*s.facts, Fact(declarer, MoveKind.CALL, DECK.codes[card])))
    hands, received, queue, start = s.hands, [*s.received], [], 0
    for i, count in enumerate(d.SPLIT):
        seat = (declarer + i) % s.players
        cards = s.talon[start : start + count]
        start += count
        hands = replace_at(hands, seat, DECK.sort(hands[seat] + cards))
        received += [(seat, c) for c in cards]
        queue.append((seat, count))
    holder = next(seat for seat, hand in enumerate(hands) if card in hand)
    partner = None if holder == declarer else holder
    return evolve(
        s,
        hands=hands,
        talon=(),
        received=tuple(received),
        queue=tuple(queue),
        partner=partner,
        phase=Phase.EXCHANGE,
        turn=declarer,
    )


def third_group(s: TarokyState) -> tuple[Card, ...]:
    """The three talon cards the third's declarer is looking at."""
    start = d.THREE * s.third_step
    return s.talon[start : start + d.THREE]


def third_choice(s: TarokyState, choice: str) -> TarokyState:
    """Keep the three looked at (x1, x2) or reject them face up; rejecting the second three
    takes the first three back (x4). The cards not taken go to the opponents."""
    declarer = s.declarer
    assert declarer is not None
    fact = Fact(declarer, MoveKind.TALON, choice)
    s = evolve(s, facts=(*s.facts, fact))
    first, second = s.talon[: d.THREE], s.talon[d.THREE :]
    if choice == REJECT and s.third_step == 0:
        return evolve(s, third_step=1, shown=(first,))
    if choice == KEEP:
        taken, rest = (first, second) if s.third_step == 0 else (second, first)
    else:
        taken, rest = first, second
        s = evolve(s, shown=(*s.shown, second))
    multiplier = d.THIRD_MULTIPLIERS[s.third_step + (choice == REJECT)]
    hands = replace_at(s.hands, declarer, DECK.sort(s.hands[declarer] + taken))
    received = tuple((declarer, c) for c in taken)
    return evolve(
        s,
        hands=hands,
        talon=rest,
        received=received,
        multiplier=multiplier,
        queue=((declarer, d.THREE),),
        phase=Phase.EXCHANGE,
        turn=declarer,
    )


def discardable(s: TarokyState, seat: int) -> list[Card]:
    """Cards `seat` may discard: no king, no trul card; taroks (face up, the called one
    too: the team is fixed when the talon is handed out) only when forced if the table says
    so."""
    allowed = [
        c
        for c in s.hands[seat]
        if not (c.rank == KING and not c.is_tarok) and not (c.is_tarok and c.rank in TRUL_RANKS)
    ]
    if s.rules.flag("discard_taroks_only_if_forced"):
        return [c for c in allowed if not c.is_tarok] or allowed
    return allowed


def discard(s: TarokyState, card: Card) -> TarokyState:
    """Lay one card face down on the discarder's own pile (a tarok face up)."""
    seat, left = s.queue[0]
    hands = replace_at(s.hands, seat, without(s.hands[seat], card))
    piles = replace_at(s.piles, seat, (*s.piles[seat], card))
    fact = Fact(seat, MoveKind.DISCARD, DECK.codes[card] if card.is_tarok else "")
    queue = ((seat, left - 1), *s.queue[1:]) if left > 1 else s.queue[1:]
    return evolve(
        s,
        hands=hands,
        piles=piles,
        discards=(*s.discards, (seat, card)),
        queue=queue,
        facts=(*s.facts, fact),
        turn=queue[0][0] if queue else None,
    )
