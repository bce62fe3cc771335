"""Random-playout conformance of double tarok at 4, 6 and 8 players: invariants, views that
show no hidden card, legality checks and replays."""

from __future__ import annotations

import random

import pytest

from tarok_service.engine.cards import Card
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import HandState
from tarok_service.selfplay import check_hand, choose, run
from tarok_service.variants.slovenian.state import SlovenianState

from .double_tarok_helpers import DECK, DT, rules


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 6, 8])
def test_selfplay_has_no_invariant_failures(players: int) -> None:
    tally = run(DT, players, games=40, seed=players, pass_rate=0.6)
    assert tally.failures == []
    assert tally.games == 40 and len(tally.contracts) >= 6


def hidden_from(state: HandState, seat: int) -> set[Card]:
    """Cards in other players' hands, in a talon nobody was shown and among the suit cards the
    declarer laid away (less the exposed talon, which everybody saw)."""
    assert isinstance(state, SlovenianState)
    cards = {c for i, hand in enumerate(state.hands) if i != seat for c in hand}
    cards |= set(state.talon)
    if seat != state.declarer:
        cards |= {c for c in state.discards if not c.is_tarok}
    return cards - set(state.exposed_talon)


def check_views(state: HandState) -> None:
    assert isinstance(state, SlovenianState)
    for seat in range(state.players):
        view = DT.view(state, seat)
        assert view.hand == state.hands[seat]
        assert not view.visible_cards() & hidden_from(state, seat), (seat, state.phase)
        assert set(view.partners) <= set(state.team())
    spectator = DT.view(state, None)
    assert spectator.hand == () and not spectator.legal


def illegal_card(state: HandState, rng: random.Random) -> Move | None:
    """A card play that is not legal now (a card of another hand), if any."""
    assert state.turn is not None
    others = [c for i, h in enumerate(state.hands) if i != state.turn for c in h]
    return Move("play", DECK.codes[rng.choice(others)]) if others else None


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    (4, {}), (6, {}), (8, {}),
    (6, {"talon_exchange": "free", "klop_value": 140, "six_forehand_only": False}),
])
def test_random_playouts_conform(players: int, options: dict[str, object]) -> None:
    rng = random.Random(100 + players + len(options))
    table = rules(players, **options)
    for _ in range(4):
        order = list(DECK.cards)
        rng.shuffle(order)
        start = state = DT.deal(table, order, rng.randrange(players))
        log: list[Move] = []
        while not state.finished:
            moves = DT.legal_moves(state)
            assert moves, state.phase
            check_views(state)
            if state.phase == "tricks" and (bad := illegal_card(state, rng)) is not None:
                with pytest.raises(IllegalMove):
                    DT.apply(state, bad)
            move = choose(moves, rng, 0.6)
            assert DT.label(state, move)
            state = DT.apply(state, move)
            log.append(move)
        result = DT.result(state)
        assert result is not None
        assert check_hand(DT, state, result) == []
        replayed = start
        for move in log:
            replayed = DT.apply(replayed, move, check=False)
        assert DT.result(replayed) == result
