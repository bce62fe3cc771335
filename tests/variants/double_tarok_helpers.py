"""Builders for double-tarok test positions with the cards written out ("HK.1" = blue back,
"HK.2" = red back)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from tarok_service.engine.cards import Card
from tarok_service.engine.counting import in_threes
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.outcome import HandResult
from tarok_service.engine.state import SCORED, TRICKS, Trick
from tarok_service.variants.double_tarok import data as dd
from tarok_service.variants.double_tarok.rules import DOUBLE_TAROK
from tarok_service.variants.slovenian.state import SlovenianState, is_suit_king, is_trula

DT = DOUBLE_TAROK
DECK = DT.deck(DT.make_rules(4))
HONOURS = frozenset(c for c in DECK.cards if is_suit_king(c) or is_trula(c))
NEUTRAL = "HK.1 HK.2 T1.1 T1.2"  # with these the team has no kings/trula, nor the opponents


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, e.g. "T21.1 HK.2 S10.1"."""
    return tuple(DECK.card(code) for code in text.split())


def rules(players: int = 4, **options: Any) -> Rules:
    return DT.make_rules(players, options)


def order_for(hands: Sequence[str], talon: str, dealer: int) -> list[Card]:
    """A card order that deals `hands` (by seat) and `talon` with double-tarok packets."""
    n = len(hands)
    packet = DT.family.packets[n]
    by_seat = [list(cards(h)) for h in hands]
    order = list(cards(talon))
    seat = (dealer + 1) % n
    while any(by_seat):
        order += by_seat[seat][:packet]
        by_seat[seat] = by_seat[seat][packet:]
        seat = (seat + 1) % n
    return order


def do(state: SlovenianState, *move_ids: str) -> SlovenianState:
    """Apply moves by id, with legality checks."""
    out: Any = state
    for move_id in move_ids:
        out = DT.apply(out, Move.parse(move_id))
    assert isinstance(out, SlovenianState)
    return out


def ids(state: SlovenianState) -> list[str]:
    return [mv.id for mv in DT.legal_moves(state)]


def playing(
    contract: str,
    hands: Sequence[str],
    declarer: int | None = 0,
    turn: int = 0,
    partners: tuple[int, ...] = (),
    called: str = "",
    announced: tuple[tuple[str, int], ...] = (),
    **options: Any,
) -> SlovenianState:
    """A position in trick play with the given (possibly short) hands."""
    n = len(hands)
    return SlovenianState(
        rules=rules(n, **options), dealer=n - 1, phase=TRICKS, turn=turn,
        hands=tuple(DECK.sort(cards(h)) for h in hands), talon=(), piles=((),) * n,
        contract=dd.CONTRACT_INDEX[contract], declarer=declarer, partners=partners,
        called=cards(called), announced=announced,
    )


def play(state: SlovenianState, *codes: str) -> SlovenianState:
    """Play the cards in turn order, with legality checks."""
    return do(state, *(f"play:{code}" for code in codes))


def legal_cards(state: SlovenianState) -> set[str]:
    return {mv.value for mv in DT.legal_moves(state)}


def pile_worth(
    points: int, must: Iterable[Card] = (), exclude: Iterable[Card] = (), honours: bool = False
) -> list[Card]:
    """A pile holding `must`, filled with other cards (no kings or trula cards unless
    `honours`), that counts exactly `points` in groups of three."""
    must = list(must)
    banned = set(must) | set(exclude) | (set() if honours else HONOURS)
    pool = sorted((c for c in DECK.cards if c not in banned), key=DECK.points.__getitem__)
    values = [DECK.points[c] for c in pool]
    base = sum(DECK.points[c] for c in must)
    for extra in range(len(pool) + 1):
        n = len(must) + extra
        target = points + 2 * (n // 3) + (1 if n % 3 else 0) - base
        low, high = sum(values[:extra]), sum(values[len(values) - extra :])
        if low <= target <= high:
            pile = must + _fill(pool, extra, target - low)
            assert in_threes(pile, DECK.points) == points
            return pile
    raise AssertionError(f"no pile worth {points}")


def _fill(pool: list[Card], size: int, excess: int) -> list[Card]:
    """The `size` lowest cards of `pool` (sorted by points), upgraded by exactly `excess`."""
    fill, unused = pool[:size], pool[size:]
    for i, low in enumerate(fill):
        if excess == 0:
            break
        gains = [c for c in unused if 0 < DECK.points[c] - DECK.points[low] <= excess]
        if gains:
            best = max(gains, key=DECK.points.__getitem__)
            unused[unused.index(best)] = low
            fill[i] = best
            excess -= DECK.points[best] - DECK.points[low]
    assert excess == 0
    return fill


def finished(
    players: int,
    contract: str,
    team_points: int,
    team: Sequence[int] = (0,),
    honours: str = NEUTRAL,
    last: Sequence[tuple[int, str]] = (),
    last_winner: int | None = None,
    winners: Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> SlovenianState:
    """A scored hand: the team (declarer first) won `team_points` card points and, of the kings
    and trula cards, exactly `honours` (plus its cards in `last` if it won that trick); the
    opponents won everything else. Tricks are synthetic: `winners` by seat (default: one each
    to the declarer and the first opponent), then `last` if given."""
    opp = [s for s in range(players) if s not in team]
    last_cards = cards(" ".join(code for _, code in last))
    won_last = last_winner is not None and last_winner in team
    must = list(cards(honours)) + [c for c in last_cards if won_last and c not in cards(honours)]
    pile = pile_worth(team_points, must, exclude=() if won_last else last_cards)
    rest = [c for c in DECK.cards if c not in set(pile)]
    piles: list[tuple[Card, ...]] = [()] * players
    piles[team[0]] = tuple(pile)
    piles[opp[0]] = tuple(rest)
    dummy = DECK.card("T2.1")  # a card no bonus looks at
    plays = [Trick(((w, dummy),), w) for w in (winners or (team[0], opp[0]))]
    if last:
        assert last_winner is not None
        plays.append(Trick(tuple((s, DECK.card(c)) for s, c in last), last_winner))
    state = SlovenianState(
        rules=rules(players, **(options or {})), dealer=players - 1, phase=SCORED, turn=None,
        hands=((),) * players, talon=(), piles=tuple(piles), tricks=tuple(plays),
        contract=dd.CONTRACT_INDEX[contract], declarer=team[0], partners=tuple(team[1:]),
    )
    return replace(state, **fields)


def result(state: SlovenianState) -> HandResult:
    out = DT.result(state)
    assert out is not None
    return out


def lines(state: SlovenianState) -> dict[str, int]:
    """Score lines by item (each item appears once in these positions)."""
    out: dict[str, int] = {}
    for line in result(state).lines:
        assert line.item not in out, line.item
        out[line.item] = line.points
    return out
