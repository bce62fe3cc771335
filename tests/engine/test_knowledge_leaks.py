"""Every string and card the engine gives a viewer agrees with the knowledge model, for every
rule set and player count; a deliberate leak (a concealed discard published as a fact) is
caught."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import Fact
from tarok_service.variants.registry import all_variants
from tarok_service.variants.slovenian.rules import Slovenian
from tarok_service.variants.slovenian.state import SlovenianState

from .knowledge import Knowledge, Leak, check_move_made, check_text, check_viewer, mentioned

CASES = [(v, n) for v in all_variants() for n in v.player_counts]


def pick(rng: random.Random, legal: list[Move]) -> Move:
    """A random legal move, passing more often than not so that the games vary."""
    passes = [mv for mv in legal if mv.kind == "pass"]
    if passes and rng.random() < 0.6:
        return passes[0]
    return rng.choice(legal)


def check_error(k: Knowledge, variant: Variant[Any], state: HandState, rng: random.Random) -> None:
    """An illegal move by the seat to move: its message may echo the move, nothing more."""
    deck = variant.deck(state.rules)
    legal = variant.legal_moves(state)
    kind = legal[0].kind if legal else "play"
    card = rng.choice(deck.cards)
    move = Move(kind, deck.codes[card])
    if move in legal:
        return
    with pytest.raises(IllegalMove) as err:
        variant.apply(state, move)
    also = {card}
    check_text(k, deck, state.turn, err.value.message, f"error for {move.id}", also)
    check_text(k, deck, state.turn, err.value.reason, "error reason", also)


def playout(variant: Variant[Any], players: int, seed: int) -> int:
    """One random hand checked after every move for every viewer; the number of moves."""
    rng = random.Random(seed)
    rules = variant.make_rules(players)
    cards = list(variant.deck(rules).cards)
    rng.shuffle(cards)
    state = variant.deal(rules, cards, rng.randrange(players))
    k = Knowledge.dealt(variant, state)
    viewers: list[int | None] = [*range(players), None]
    moves = 0
    while True:
        for viewer in viewers:
            check_viewer(k, variant, state, viewer)
        if state.finished or state.turn is None:
            return moves
        if moves % 7 == 0:
            check_error(k, variant, state, rng)
        move = pick(rng, variant.legal_moves(state))
        after = variant.apply(state, move)
        k.observe(state, move, after)
        check_move_made(k, variant, state, move, viewers)
        state, moves = after, moves + 1


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), CASES, ids=lambda x: getattr(x, "id", str(x)))
def test_views_and_strings_agree_with_the_knowledge_model(
    variant: Variant[Any], players: int
) -> None:
    total = sum(playout(variant, players, seed) for seed in range(6))
    assert total > 0


class LeakyDiscards(Slovenian):
    """A mutant: the declarer's concealed discards are published as facts."""

    def apply_talon(self, state: SlovenianState, move: Move) -> SlovenianState:
        after = super().apply_talon(state, move)
        if move.kind != "discard":
            return after
        facts = after.facts
        last = facts[-1]
        return evolve(after, facts=(*facts[:-1], Fact(last.seat, last.kind, move.value)))


@pytest.mark.slow
def test_the_mutant_publishing_concealed_discards_is_caught() -> None:
    mutant = LeakyDiscards()
    caught = 0
    for seed in range(60):
        try:
            playout(mutant, 4, seed)
        except Leak as err:
            assert "fact discard" in str(err)
            caught += 1
    assert caught > 0
    for seed in range(60):  # the same hands on the real rule set pass
        playout(Slovenian(), 4, seed)


def test_mentioned_reads_codes_and_labels() -> None:
    slovenian = Slovenian()
    deck = slovenian.deck(slovenian.make_rules(4))
    found = mentioned(deck, "Discard ♥K and T21, not T211 or XXIII; Škis, I, II")
    assert {deck.codes[c] for c in found} == {"HK", "T21", "T22", "T1", "T2"}
