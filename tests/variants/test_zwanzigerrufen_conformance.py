"""Random playouts through the whole variant API: legality, reasons, views, invariants."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tarok_service import selfplay
from tarok_service.engine import moves as m
from tarok_service.engine.cards import Card
from tarok_service.engine.moves import IllegalMove, Move, MoveKind
from tarok_service.variants.zwanzigerrufen.auction import CANDIDATES
from tarok_service.variants.zwanzigerrufen.state import Phase, ZwanzigerState

from .zwanzigerrufen_helpers import DECK, VARIANT, rules

GENERIC = {m.Reason.ILLEGAL_MOVE, m.Reason.WRONG_PHASE, m.Reason.UNKNOWN_MOVE}


def random_hand(rng: random.Random) -> tuple[ZwanzigerState, list[Move]]:
    """A dealt hand from a seeded shuffle, played out with random legal moves."""
    order = list(DECK.cards)
    rng.shuffle(order)
    state = VARIANT.deal(rules(), order, rng.randrange(4))
    log: list[Move] = []
    while not state.finished:
        legal = VARIANT.legal_moves(state)
        passes = [mv for mv in legal if mv.kind == MoveKind.PASS]
        move = passes[0] if passes and rng.random() < 0.5 else rng.choice(legal)
        assert all(VARIANT.label(state, mv) for mv in legal)
        _check_rejections(state, legal)
        _check_views(state)
        state = VARIANT.apply(state, move)
        log.append(move)
    return state, log


def _check_rejections(state: ZwanzigerState, legal: list[Move]) -> None:
    """Every move that is not legal is rejected with a specific reason."""
    if state.phase == Phase.AUCTION:
        others = [mv for mv in CANDIDATES if mv not in legal]
    else:
        assert state.turn is not None
        others = [Move(MoveKind.PLAY, DECK.codes[c]) for c in state.hands[state.turn]]
        others = [mv for mv in others if mv not in legal]
    for move in others:
        with pytest.raises(IllegalMove) as err:
            VARIANT.apply(state, move)
        assert err.value.reason not in GENERIC, (move, err.value.reason)


def _check_views(state: ZwanzigerState) -> None:
    """No view shows a card the seat may not see."""
    on_table = {c for _, c in state.trick} | {c for t in state.tricks for c in t.cards}
    for seat in (None, 0, 1, 2, 3):
        view = VARIANT.view(state, seat)
        own = set(state.hands[seat]) if seat is not None else set()
        assert view.visible_cards() <= own | on_table
        assert bool(view.legal) == (seat is not None and seat == state.turn)


@pytest.mark.slow
def test_random_playouts_conform() -> None:
    rng = random.Random(5)
    games: Counter[str] = Counter()
    for _ in range(150):
        state, _ = random_hand(rng)
        result = VARIANT.result(state)
        assert result is not None
        assert selfplay.check_hand(VARIANT, state, result) == []
        games[result.contract] += 1
        if not result.redeal:
            assert sum(result.side_points) == 88 and sum(result.scores) == 0
            assert len(state.tricks) == 10
    assert {"call", "solo", "colour_solo"} <= set(games)


def test_replay_is_deterministic() -> None:
    state, log = random_hand(random.Random(11))
    again = VARIANT.deal(state.rules, _order_of(state), state.dealer)
    for move in log:
        again = VARIANT.apply(again, move)
    assert VARIANT.result(again) == VARIANT.result(state)


def _order_of(state: ZwanzigerState) -> list[Card]:
    """A card order that deals the same hands again (packets of 5 from forehand)."""
    dealt = state.dealt
    order: list[Card] = []
    for packet in range(2):
        for i in range(4):
            seat = (state.forehand + i) % 4
            order += list(dealt[seat][5 * packet : 5 * packet + 5])
    return order


def test_selfplay_has_no_invariant_failures() -> None:
    tally = selfplay.run(VARIANT, 4, 400, seed=3, pass_rate=0.6)
    assert tally.failures == []
    assert tally.games == 400
