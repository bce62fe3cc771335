"""Builders for Slovenian test positions with the cards written out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from tarok_service.engine.cards import Card
from tarok_service.engine.match import MatchState
from tarok_service.engine.options import OptionValue, Rules
from tarok_service.engine.outcome import HandResult
from tarok_service.engine.state import SCORED, TRICKS, Trick
from tarok_service.variants.slovenian import data as d
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState

DECK = SLOVENIAN.deck(SLOVENIAN.make_rules(4))


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, e.g. "T21 HK S10"."""
    return tuple(DECK.card(code) for code in text.split())


def rules(players: int = 4, **options: OptionValue) -> Rules:
    return SLOVENIAN.make_rules(players, options)


def order_for(hands: Sequence[str], talon: str, dealer: int = 3) -> list[Card]:
    """A card order that deals `hands` (by seat) and `talon` with Slovenian packets."""
    n = len(hands)
    packet = SLOVENIAN.family.packets[n]
    by_seat = [list(cards(h)) for h in hands]
    order = list(cards(talon))
    seat = (dealer + 1) % n
    while any(by_seat):
        order += by_seat[seat][:packet]
        by_seat[seat] = by_seat[seat][packet:]
        seat = (seat + 1) % n
    return order


def playing(
    contract: str,
    hands: Sequence[str],
    declarer: int | None = 0,
    turn: int = 0,
    partner: int | None = None,
    called: str | None = None,
    dealer: int = 3,
    **options: OptionValue,
) -> SlovenianState:
    """A position in trick play with the given (possibly short) hands."""
    n = len(hands)
    return SlovenianState(
        rules=rules(n, **options),
        dealer=dealer,
        phase=TRICKS,
        turn=turn,
        hands=tuple(DECK.sort(cards(h)) for h in hands),
        talon=(),
        piles=((),) * n,
        contract=d.CONTRACT_INDEX[contract],
        declarer=declarer,
        partners=() if partner is None else (partner,),
        called=cards(called) if called else (),
    )


def play(state: SlovenianState, *codes: str) -> SlovenianState:
    """Play the cards in turn order, with legality checks."""
    from tarok_service.engine.moves import Move

    out = state
    for code in codes:
        out = SLOVENIAN.apply(out, Move("play", code))
    return out


def legal_cards(state: SlovenianState) -> set[str]:
    return {mv.value for mv in SLOVENIAN.legal_moves(state)}


def pile_worth(points: int, size: int, exclude: Iterable[Card] = ()) -> list[Card]:
    """`size` cards whose count in groups of three is exactly `points`."""
    target = points + 2 * (size // 3) + (1 if size % 3 else 0)
    pool = [c for c in DECK.cards if c not in set(exclude)]
    ones = [c for c in pool if DECK.points[c] == 1]
    high = sorted((c for c in pool if DECK.points[c] > 1), key=lambda c: -DECK.points[c])
    pile = ones[:size]
    excess = target - size
    for card in high:
        gain = DECK.points[card] - 1
        if 0 < gain <= excess and pile:
            pile.pop()
            pile.insert(0, card)
            excess -= gain
    assert excess == 0 and len(pile) == size, (points, size, excess)
    return pile


def finished(
    contract: str,
    team_cards: Sequence[Card],
    declarer: int = 0,
    partner: int | None = 2,
    last: Sequence[tuple[int, str]] | None = None,
    last_winner: int | None = None,
    **fields: Any,
) -> SlovenianState:
    """A scored 4-player hand: the team holds `team_cards`, the opponents the rest.

    Tricks are synthetic (scoring needs only who won which cards and the last trick).
    """
    options = fields.pop("options", {})
    team = [declarer] + ([partner] if partner is not None else [])
    opp = [s for s in range(4) if s not in team]
    last_cards = cards(" ".join(code for _, code in last)) if last else ()
    team_set = set(team_cards)
    opp_cards = [c for c in DECK.cards if c not in team_set]
    tricks = _synthetic_tricks(list(team_cards), opp_cards, declarer, opp[0], last_cards)
    if last:
        assert last_winner is not None
        tricks.append(Trick(tuple((s, DECK.card(c)) for s, c in last), last_winner))
    piles = [[] for _ in range(4)]  # type: list[list[Card]]
    for c in team_cards:
        piles[declarer].append(c)
    for c in opp_cards:
        piles[opp[0]].append(c)
    state = SlovenianState(
        rules=rules(4, **options),
        dealer=3,
        phase=SCORED,
        turn=None,
        hands=((),) * 4,
        talon=(),
        piles=tuple(tuple(p) for p in piles),
        tricks=tuple(tricks),
        contract=d.CONTRACT_INDEX[contract],
        declarer=declarer,
        partners=() if partner is None else (partner,),
    )
    return replace(state, **fields)


def _synthetic_tricks(
    team: list[Card], opp: list[Card], team_seat: int, opp_seat: int, last: tuple[Card, ...]
) -> list[Trick]:
    """Twelve tricks (less one for an explicit last trick) won in proportion to the cards."""
    total = 12 - (1 if last else 0)
    team = [c for c in team if c not in last]
    opp = [c for c in opp if c not in last]
    n_team = round(total * len(team) / max(1, len(team) + len(opp)))
    n_team = min(max(n_team, 1 if team else 0), total - (1 if opp else 0))
    tricks = []
    for pool, count, seat in ((team, n_team, team_seat), (opp, total - n_team, opp_seat)):
        for i in range(count):
            chunk = pool[i::count]
            tricks.append(Trick(tuple((j % 4, c) for j, c in enumerate(chunk)), seat))
    return tricks


def result_of(state: SlovenianState) -> HandResult:
    """The scored result of a finished hand (a finished hand always has one)."""
    result = SLOVENIAN.result(state)
    assert result is not None
    return result


def match(players: int = 4, hands: int = 4, **options: OptionValue) -> MatchState:
    return MatchState.start(players, hands, 0, rules(players, **options))
