"""Builders for Czech taroky tests: written-out deals, scripted play, finished hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from tarok_service.engine.cards import Card
from tarok_service.engine.counting import in_threes
from tarok_service.engine.match import MatchState
from tarok_service.engine.moves import Move
from tarok_service.engine.options import OptionValue
from tarok_service.engine.outcome import HandResult
from tarok_service.engine.state import SCORED, TRICKS, HandState, Trick
from tarok_service.engine.tricks import TrickRules, winner
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.state import DECK, TarokyState

Policy = Callable[[HandState, list[Move]], Move]


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes: "T22 HK S10"."""
    return tuple(DECK.card(code) for code in text.split())


def rules(**options: OptionValue) -> object:
    return TAROKY.make_rules(4, options)


def order_for(hands: Mapping[int, str], talon: str, dealer: int = 0) -> list[Card]:
    """The card order that deals these hands: talon first, then packets of six from forehand."""
    split = {seat: cards(text) for seat, text in hands.items()}
    assert all(len(h) == 12 for h in split.values())
    order = list(cards(talon))
    for half in (0, 6):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            order += split[seat][half : half + 6]
    assert sorted(order) == sorted(DECK.cards), "a deal must use the whole pack once"
    return order


def deal(
    hands: Mapping[int, str], talon: str, dealer: int = 0, **options: OptionValue
) -> TarokyState:
    """A hand dealt from hands written out (seat -> codes)."""
    table = TAROKY.make_rules(4, options)
    return TAROKY.deal(table, order_for(hands, talon, dealer), dealer)


def play(state: TarokyState, moves: Iterable[str]) -> TarokyState:
    """Apply move ids in order (each checked for legality)."""
    for move in moves.split() if isinstance(moves, str) else moves:
        state = TAROKY.apply(state, Move.parse(move))
    return state


def first_legal(state: HandState, legal: list[Move]) -> Move:
    return legal[0]


def last_legal(state: HandState, legal: list[Move]) -> Move:
    return legal[-1]


def run_out(state: TarokyState, policy: Policy = first_legal) -> TarokyState:
    """Play until the hand is over: passes in the declarations, else the policy."""
    while not state.finished:
        legal = TAROKY.legal_moves(state)
        passes = [mv for mv in legal if mv.kind == "pass"]
        declaring = state.phase == "declaring" and passes
        state = TAROKY.apply(state, passes[0] if declaring else policy(state, legal))
    return state


def pile_worth(points: int, size: int, exclude: Sequence[Card] = ()) -> list[Card]:
    """A pile of `size` cards counting exactly `points` in threes (a seeded local search)."""
    rng = random.Random(points * 100 + size)
    pool = [c for c in DECK.cards if c not in exclude]
    rng.shuffle(pool)
    pile, rest = pool[:size], pool[size:]
    for _ in range(20000):
        diff = points - in_threes(pile, DECK.points)
        if diff == 0:
            return pile
        i, j = rng.randrange(len(pile)), rng.randrange(len(rest))
        if (DECK.points[rest[j]] - DECK.points[pile[i]]) * diff > 0:
            pile[i], rest[j] = rest[j], pile[i]
    raise AssertionError(f"no pile of {size} cards worth {points}")


def finished(
    contract: str,
    team_cards: Sequence[Card],
    *,
    declarer: int = 0,
    partner: int | None = None,
    multiplier: int = 1,
    flek: int = 0,
    declarations: tuple[tuple[int, str], ...] = (),
    announced: tuple[tuple[str, int], ...] = (),
    last: Sequence[tuple[int, str]] = (),
    winners: Sequence[int] | None = None,
    talon: Sequence[Card] = (),
    **options: OptionValue,
) -> TarokyState:
    """A scored hand: the declaring side won `team_cards` (on the declarer's pile), the other
    cards lie on the first opponent's pile (less `talon`); 12 tricks won by `winners`
    (default: alternately declarer and first opponent); `last` replaces the last trick."""
    table = TAROKY.make_rules(4, options)
    team = {declarer} | ({partner} if partner is not None else set())
    first_opp = next(seat for seat in range(4) if seat not in team)
    rest = tuple(c for c in DECK.cards if c not in team_cards and c not in talon)
    piles: list[tuple[Card, ...]] = [()] * 4
    piles[declarer], piles[first_opp] = tuple(team_cards), rest
    who = list(winners) if winners is not None else [declarer, first_opp] * 6
    tricks = [Trick(((w, DECK.cards[-1]),), w) for w in who]  # no pagat
    if last:
        plays = tuple((seat, DECK.card(code)) for seat, code in last)
        tricks[-1] = Trick(plays, winner(plays, TrickRules(emperor=False)))
    return TarokyState(
        rules=table,
        dealer=3,
        phase=SCORED,
        turn=None,
        hands=((),) * 4,
        talon=tuple(talon),
        piles=tuple(piles),
        tricks=tuple(tricks),
        contract=contract,
        declarer=declarer,
        partner=partner,
        multiplier=multiplier,
        levels=(("game", flek),) if flek else (),
        declarations=declarations,
        announced=announced,
    )


def in_tricks(
    contract: str, hands: Mapping[int, str], trick: Sequence[tuple[int, str]] = (), turn: int = 0
) -> TarokyState:
    """A hand in trick play: the given hands (others empty) and the cards of the current trick."""
    table = TAROKY.make_rules(4, {})
    plays = tuple((seat, DECK.card(code)) for seat, code in trick)
    return TarokyState(
        rules=table,
        dealer=3,
        phase=TRICKS,
        turn=turn,
        hands=tuple(cards(hands.get(seat, "")) for seat in range(4)),
        talon=(),
        piles=((),) * 4,
        trick=plays,
        contract=contract,
        declarer=0,
    )


def result(state: TarokyState) -> HandResult:
    out = TAROKY.result(state)
    assert out is not None
    return out


def table(pot: int = 0, **options: OptionValue) -> MatchState:
    """A fresh 4-player match with a pot already in the zid."""
    match = MatchState.start(4, 10, 0, TAROKY.make_rules(4, options))
    return replace(match, pot=pot)


# A written-out deal, dealer 0 (forehand 1): nobody but seat 2 holds XIX.
DEAL_A = {
    1: "T22 T21 T20 T1 T15 T14 HK HQ HC H1 CK C10",
    2: "T19 T13 T12 T11 DK DQ DC DJ D1 D2 SK S10",
    3: "T18 T10 T9 T8 T7 HJ H2 CQ CC CJ SQ SC",
    0: "T17 T16 T6 T5 T4 H3 H4 D3 D4 C9 C8 SJ",
}
TALON_A = "T3 T2 C7 S9 S8 S7"


def swap(hands: Mapping[int, str], talon: str, a: str, b: str) -> tuple[dict[int, str], str]:
    """The deal with cards `a` and `b` exchanged (in hands or talon)."""

    def sub(text: str) -> str:
        return " ".join(b if c == a else a if c == b else c for c in text.split())

    return {seat: sub(text) for seat, text in hands.items()}, sub(talon)
