"""Random playouts of Tarocco Bolognese checked against an independent referee: legal plays,
trick winners, card conservation, score lines, and what every view may show."""

from __future__ import annotations

import random

import pytest

from tarok_service.engine.cards import MATTO_CARD, TAROK, Card
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import TRICKS
from tarok_service.selfplay import check_hand
from tarok_service.variants.tarocco_bolognese.rules import DECK, BologneseState

from .bolognese_helpers import V, random_deal


def referee_legal(hand: tuple[Card, ...], trick: list[Card]) -> set[Card]:
    """Follow suit, else trump, else anything; the Matto always; a led Matto sets nothing."""
    others = [c for c in hand if c != MATTO_CARD]
    led = next((c for c in trick if c != MATTO_CARD), None)
    allowed = set(others)
    if led is not None:
        for suit in (led.suit, TAROK):
            if any(c.suit == suit for c in others):
                allowed = {c for c in others if c.suit == suit}
                break
    return allowed | ({MATTO_CARD} & set(hand))


def referee_winner(plays: tuple[tuple[int, Card], ...]) -> int:
    """Highest trump (the last of equal Moors), else the highest card of the first suit led."""
    real = [(seat, c) for seat, c in plays if c != MATTO_CARD]
    trumps = [(seat, c) for seat, c in real if c.suit == TAROK]
    pool = trumps or [(seat, c) for seat, c in real if c.suit == real[0][1].suit]
    best = max(c.rank for _, c in pool)
    return [seat for seat, c in pool if c.rank == best][-1]


def allowed_cards(s: BologneseState, seat: int | None) -> set[Card]:
    """What a seat may know of: its hand, every card played, declared cards, the discards
    (the dealer's own, or everyone's once play is over)."""
    seen = {c for tr in s.tricks for c in tr.cards} | {c for _, c in s.trick}
    seen |= {c for _, combos in s.declared for c in combos.cards()}
    if seat is not None:
        seen |= set(s.hands[seat])
    if seat == s.dealer or s.phase in ("matto", "scored"):
        seen |= set(s.discards)
    return seen


def check_views(s: BologneseState) -> None:
    for seat in (None, 0, 1, 2, 3):
        view = V.view(s, seat)
        assert view.visible_cards() <= allowed_cards(s, seat), (seat, s.phase)
        assert view.hand == (s.hands[seat] if seat is not None else ())
        expected = V.legal_moves(s) if seat is not None and seat == s.turn else []
        assert list(view.legal) == expected


def check_step(s: BologneseState, move: Move) -> None:
    if s.phase != TRICKS:
        return
    assert s.turn is not None
    legal = {DECK.card(mv.value) for mv in V.legal_moves(s)}
    trick = [c for _, c in s.trick]
    assert legal == referee_legal(s.hands[s.turn], trick)
    illegal = [c for c in s.hands[s.turn] if c not in legal]
    if illegal:
        with pytest.raises(IllegalMove):
            V.apply(s, Move("play", DECK.codes[illegal[0]]))


def playout(seed: int, views: bool) -> BologneseState:
    rng = random.Random(seed)
    state = random_deal(seed)
    while not state.finished:
        move = rng.choice(V.legal_moves(state))
        check_step(state, move)
        if views:
            check_views(state)
        after = V.apply(state, move)
        assert isinstance(after, BologneseState)
        if len(after.tricks) > len(state.tricks):
            assert after.tricks[-1].winner == referee_winner(after.tricks[-1].plays)
        state = after
    if views:
        check_views(state)
    return state


def check_matto(s: BologneseState) -> None:
    """The Matto ends with its owner's team unless that team took no trick."""
    owner = next(seat for tr in s.tricks for seat, c in tr.plays if c == MATTO_CARD)
    holder = next(seat for seat in range(4) if MATTO_CARD in s.piles[seat])
    team_tricks = sum(1 for tr in s.tricks if tr.winner % 2 == owner % 2)
    assert (holder % 2 == owner % 2) == (team_tricks > 0)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_random_playouts_follow_the_rules(block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        state = playout(seed, views=False)
        result = V.result(state)
        assert result is not None
        assert check_hand(V, state, result) == []
        assert sum(result.side_points) == 87
        assert len(state.tricks) == 15 and not any(state.hands)
        check_matto(state)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1012))
def test_random_playouts_never_show_a_hidden_card(seed: int) -> None:
    playout(seed, views=True)
