"""The fast paths agree with the pure API (the fast-path principle): a phase rule's `is_legal`
with its `legal`, and `Variant.replay` with folding `apply(check=False)`, on random playouts of
every registered variant and player count (steered towards the rare mechanics: zaruf,
mondfang, pagat ultimo)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tarok_service.engine import tricks as t
from tarok_service.engine.auction import Auction
from tarok_service.engine.cards import MOND, PAGAT, SKIS, TAROK, Card, deal_packets, tarok54
from tarok_service.engine.fastcopy import copier, evolve, plain_evolve
from tarok_service.engine.memo import unmemoised
from tarok_service.engine.moves import IllegalMove, Move, Reason
from tarok_service.engine.options import Rules
from tarok_service.engine.state import REDEAL, TRICKS, HandState, without
from tarok_service.engine.trickplay import TrickPlay, play_moves
from tarok_service.engine.variant import Variant
from tarok_service.selfplay import choose
from tarok_service.variants.registry import all_variants, find_variant
from tarok_service.variants.slovenian.rules import (
    SLOVENIAN,
    Slovenian,
    SlovenianFamily,
    SlovenianState,
)

CONFIGS = sorted((v.id, n) for v in all_variants() for n in v.player_counts)
Hand = tuple[HandState, list[Move], list[HandState]]  # dealt state, moves, state after each


def steer(variant: Variant[Any], state: HandState, moves: list[Move], rng: random.Random) -> Move:
    """A random move, nudged towards rare mechanics: call a king lying in the talon and take
    its group (zaruf), play the called card when possible, take a mond with the skis or
    pagat (mondfang), announce pagat ultimo (held cards)."""
    called = getattr(state, "called", None)
    talon = state.talon
    deck = variant.deck(state.rules)
    mond_in = any(c.suit == TAROK and c.rank == MOND for _, c in state.trick)
    for move in moves:
        card = deck.by_code.get(move.value)
        if move.kind == "call" and card is not None and card in talon:
            return move
        if move.kind == "talon" and move.value.isdigit() and called in talon:
            size = len(talon) // len([m for m in moves if m.kind == "talon"])
            group = talon[int(move.value) * size : (int(move.value) + 1) * size]
            if called in group:
                return move
        if move.kind == "play" and card is not None and card == called:
            return move
        if move.kind == "play" and mond_in and card in (Card(TAROK, SKIS), Card(TAROK, PAGAT)):
            return move
        if move.kind == "announce" and "pagat" in move.value and rng.random() < 0.5:
            return move
    return choose(moves, rng, 0.6)


def playouts(variant_id: str, players: int, hands: int | None, seed: int = 1) -> Iterator[Hand]:
    """Seeded random hands (redeals included; endless for `hands=None`), every other one
    steered."""
    variant = find_variant(variant_id)
    rng = random.Random(f"{variant_id}/{players}/{seed}")
    rules = variant.make_rules(players)
    for number in itertools.count() if hands is None else range(hands):
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        dealt = state = variant.deal(rules, order, rng.randrange(players))
        moves: list[Move] = []
        states: list[HandState] = []
        pass_rate = rng.choice((0.3, 0.6, 0.9))
        while not state.finished:
            legal = variant.legal_moves(state)
            move = (
                steer(variant, state, legal, rng) if number % 2 else choose(legal, rng, pass_rate)
            )
            state = variant.apply(state, move, check=False)
            moves.append(move)
            states.append(state)
        yield dealt, moves, states


def events(state: HandState) -> set[str]:
    """The rare mechanics a finished hand went through."""
    fields = ("gifts", "talon_won", "mondfangs", "mond_caught")
    found = {f for f in fields if getattr(state, f, None)}
    if state.phase != REDEAL and any(state.hands):
        found.add("early_end")
    if getattr(state, "given", None) is not None:
        found.add("matto_given")
    if getattr(state, "contract", None) == "varsava":
        found.add("varsava")
    return found


EXPECTED_EVENTS = {  # zaruf (talon_won) needs a king call: not with 3 Slovenian players
    ("slovenian", 4): {"gifts", "talon_won", "mondfangs", "early_end"},
    ("slovenian", 3): {"gifts", "mondfangs", "early_end"},
    ("tarocco_bolognese", 4): {"matto_given"},
    ("taroky", 4): {"gifts", "varsava"},
    ("zwanzigerrufen", 4): {"mond_caught"},
    **{("double_tarok", n): {"gifts", "mondfangs", "talon_won", "early_end"} for n in (4, 6, 8)},
}


@pytest.mark.slow
@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_replay_equals_folding_apply(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for dealt, moves, states in playouts(variant_id, players, 320):
        final = states[-1] if states else dealt
        assert variant.replay(dealt, moves) == final
        assert variant.replay(dealt, iter(moves)) == final
        if moves:
            cut = rng.randrange(len(moves) + 1)  # may stop in the middle of a trick
            middle = variant.replay(dealt, moves[:cut])
            assert middle == (states[cut - 1] if cut else dealt)
            assert variant.replay(middle, tuple(moves[cut:])) == final
        seen.update(events(final))
    assert EXPECTED_EVENTS.get((variant_id, players), set()) <= set(seen), seen


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_replay_past_the_end_raises_like_apply(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    dealt, moves, states = next(h for h in playouts(variant_id, players, 10, seed=3) if h[1])
    with pytest.raises(IllegalMove) as pure:
        variant.apply(states[-1], moves[-1], check=False)
    with pytest.raises(IllegalMove) as fast:
        variant.replay(dealt, [*moves, moves[-1]])
    assert pure.value.reason == fast.value.reason == Reason.HAND_FINISHED


def candidates(
    variant: Variant[Any], state: HandState, legal: list[Move], rng: random.Random
) -> list[Move]:
    """Legal moves, some malformed ones, and cards of the deck as plays: all of them in trick
    play, a few in the other phases."""
    plays = list(play_moves(variant.deck(state.rules)).values())
    if state.phase != TRICKS:
        plays = rng.sample(plays, 4)
    junk = [Move("pass"), Move("play"), Move("play", "nonsense"), Move("bid", "nonsense")]
    return [*legal, *plays, *junk]


def rule_features(variant: Variant[Any], state: HandState) -> set[str]:
    assert isinstance(variant, TrickPlay) and state.turn is not None
    rules = variant.trick_rules(state)
    flags = {f.name for f in dataclasses.fields(rules) if getattr(rules, f.name) is True}
    found = {f for f in flags if f not in ("trumps_win", "emperor")}
    found |= {"no_trumps_win"} if not rules.trumps_win else set()
    found |= {"excuse"} if rules.excuse is not None else set()
    found |= {"held"} if variant.held_cards(state, state.turn) else set()
    return found | {"follow"} if state.trick else found | {"lead"}


@pytest.mark.slow
@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_is_legal_agrees_with_legal_on_random_positions(variant_id: str, players: int) -> None:
    variant = find_variant(variant_id)
    rng = random.Random(3)
    positions = 0
    for dealt, _, states in playouts(variant_id, players, None, seed=2):
        for state in (dealt, *states):
            if state.finished:
                assert not variant.is_legal(state, Move("pass"))
                continue
            legal = variant.legal_moves(state)
            hook = variant.checked_table()[state.phase].is_legal
            for move in candidates(variant, state, legal, rng):
                expected = move in legal
                assert variant.is_legal(state, move) == expected, (state.phase, move)
                if hook is not None:
                    assert hook(state, move) == expected, (state.phase, move)
            positions += 1
        if positions >= 1500:
            break


@pytest.mark.slow
def test_is_legal_positions_cover_every_trick_rule() -> None:
    seen: set[str] = set()
    for variant_id, players in CONFIGS:
        variant = find_variant(variant_id)
        for _, _, states in playouts(variant_id, players, 30, seed=2):
            for state in states:
                if state.phase == TRICKS:
                    seen |= rule_features(variant, state)
    wanted = {"must_overtake", "pagat_last", "pagat_last_tarok", "mond_not_under_skis"}
    wanted |= {"suits_before_trump_lead", "no_trumps_win", "excuse", "held", "lead", "follow"}
    assert wanted <= seen, wanted - seen


@pytest.mark.slow
def test_apply_check_uses_the_fast_legality_and_keeps_the_reasons() -> None:
    rng = random.Random(5)
    variant: Variant[Any] = SLOVENIAN  # the states of `playouts` are not typed per rule set
    for dealt, moves, states in playouts("slovenian", 4, 20, seed=5):
        for before, move in zip([dealt, *states][: len(moves)], moves, strict=True):
            assert variant.apply(before, move) == variant.apply(before, move, check=False)
            if before.phase != TRICKS:
                continue
            for bad in candidates(variant, before, [], rng):
                if bad not in variant.legal_moves(before):
                    with pytest.raises(IllegalMove) as err:
                        variant.apply(before, bad)
                    assert err.value.reason == variant.explain(before, bad)[0]


class OwnApply(Slovenian):
    """A rule set overriding `apply_tricks`: replay must go through it move by move."""

    id = "test_own_apply"
    calls = 0

    def apply_tricks(self, state: SlovenianState, move: Move) -> SlovenianState:
        OwnApply.calls += 1
        return super().apply_tricks(state, move)


def test_replay_respects_a_rule_set_with_its_own_apply_tricks() -> None:
    variant: Variant[Any] = OwnApply()  # `playouts` states are not typed per rule set
    for dealt, moves, states in playouts("slovenian", 4, 10, seed=4):
        OwnApply.calls = 0
        assert variant.replay(dealt, moves) == (states[-1] if states else dealt)
        assert OwnApply.calls == sum(1 for m in moves if m.kind == "play")


def test_replay_of_hands_holding_equal_cards_not_the_decks_own() -> None:
    """Replay finds the played cards by identity; hands of equal copies (a state read back
    from storage, say) must come out as folding `apply` gives them."""

    def copies(state: HandState) -> HandState:
        hands = tuple(tuple(Card(c.suit, c.rank, c.pack) for c in h) for h in state.hands)
        return evolve(state, hands=hands)

    for variant_id, players in CONFIGS:
        variant = find_variant(variant_id)
        for _, moves, states in playouts(variant_id, players, 6, seed=5):
            at = [k for k, s in enumerate(states[:-1]) if s.phase == TRICKS]
            for k in at[:: max(1, len(at) // 5)]:  # before some tricks, and inside some
                start, deck = copies(states[k]), variant.deck(states[k].rules)
                assert not any(c is deck.by_code[deck.codes[c]] for h in start.hands for c in h)
                assert variant.replay(start, moves[k + 1 :]) == states[-1], (variant_id, k)


def test_evolve_equals_dataclasses_replace_for_every_state_type() -> None:
    for variant_id, players in CONFIGS:
        _, _, states = next(playouts(variant_id, players, 1, seed=6))
        state = states[len(states) // 2]
        talon = state.talon[:1]
        fast = evolve(state, turn=1, trick=(), talon=talon)
        assert fast == plain_evolve(state, turn=1, trick=(), talon=talon)
        assert type(fast) is type(state)
        assert copier(type(state), "turn", "talon")(state, 1, talon) == plain_evolve(
            state, turn=1, talon=talon
        )
        assert evolve(state) == state and evolve(state) is not state
        with pytest.raises(TypeError):
            evolve(state, no_such_field=1)


def test_deck_sort_gives_the_decks_own_cards_in_deck_order() -> None:
    deck = tarok54()
    cards = [Card(c.suit, c.rank, c.pack) for c in reversed(deck.cards[::3])]
    result = deck.sort(cards)
    assert result == tuple(sorted(cards, key=deck.index.__getitem__))
    assert all(any(c is own for own in deck.cards) for c in result)


def test_without_removes_one_card_found_by_identity_or_equality() -> None:
    deck = tarok54()
    hand = deck.cards[:5]
    assert without(hand, hand[2]) == hand[:2] + hand[3:]
    assert without(hand, Card(hand[3].suit, hand[3].rank)) == hand[:3] + hand[4:]
    with pytest.raises(ValueError):
        without(hand, deck.cards[10])


@pytest.mark.slow
def test_is_legal_play_agrees_with_legal_plays_on_small_hands() -> None:
    deck = tarok54()
    rng = random.Random(11)
    rule_sets = [
        t.TrickRules(),
        t.TrickRules(must_overtake=True, pagat_last=True),
        t.TrickRules(trumps_win=False, suits_before_trump_lead=True, emperor=False),
        t.TrickRules(must_overtake=True, pagat_last_tarok=True, mond_not_under_skis=True),
    ]
    for _ in range(3000):
        cards = rng.sample(deck.cards, 9)
        hand, trick = cards[:6], cards[6 : 6 + rng.randrange(4)]
        held = tuple(rng.sample(hand, rng.randrange(2)))
        rules = rng.choice(rule_sets)
        legal = t.legal_plays(hand, trick, rules, held)
        for card in deck.cards:
            assert t.is_legal_play(hand, trick, card, rules, held) == (card in legal)


FAMILY_CONFIGS = [(i, n) for i, n in CONFIGS if isinstance(find_variant(i), SlovenianFamily)]


def reference_deal(
    variant: SlovenianFamily, rules: Rules, order: list[Card], dealer: int
) -> SlovenianState:
    """The deal as the rules say it, card by card: `cards.deal_packets`, hands sorted into
    deck order, a redeal when a hand holds no tarok."""
    n = rules.players
    hands, talon = deal_packets(
        order, n, (dealer + 1) % n, variant.talon_size, variant.family.packets[n]
    )
    deck = variant.deck(rules)
    state = SlovenianState(
        rules=rules,
        dealer=dealer,
        phase="bidding",
        turn=(dealer + 2) % n,
        hands=tuple(deck.sort(h) for h in hands),
        talon=talon,
        piles=((),) * n,
        auction=Auction((dealer + 1) % n, (None,) * n),
    )
    no_tarok = any(all(c.suit != TAROK for c in h) for h in state.hands)
    if no_tarok and variant.family.redeal_without_tarok:
        return evolve(state, phase=REDEAL, turn=None)
    return state


@pytest.mark.parametrize(("variant_id", "players"), FAMILY_CONFIGS)
def test_family_deal_equals_dealing_card_by_card(variant_id: str, players: int) -> None:
    """The deal on deck indices equals dealing the cards (redeals included, and orders of
    cards equal to the deck's but not its own objects); its hands and talon are the deck's
    objects."""
    variant = find_variant(variant_id)
    assert isinstance(variant, SlovenianFamily)
    rng = random.Random(f"deal/{variant_id}/{players}")
    deck = variant.deck(variant.make_rules(players))
    redeals = 0
    for number in range(600):
        rules = variant.make_rules(players)
        order = list(deck.cards)
        rng.shuffle(order)
        if number % 3 == 0:  # cards equal to the deck's, other objects
            order = [dataclasses.replace(c) for c in order]
        dealer = rng.randrange(players)
        if number % 5 == 0:  # no tarok for the first seat dealt to: suit cards in its packets
            packet, size = variant.family.packets[players], variant.talon_size
            first = [
                p for p in range(size, len(order)) if (p - size) // packet % players == 0
            ]
            suits = [c for c in order if not c.is_tarok]
            rest = [c for c in order if c not in suits[: len(first)]]
            for p in first:
                rest.insert(p, suits.pop(0))
            order = rest
        dealt = variant.deal(rules, order, dealer)
        assert dealt == reference_deal(variant, rules, order, dealer)
        assert all(c is deck.cards[deck.index[c]] for h in (*dealt.hands, dealt.talon) for c in h)
        redeals += dealt.phase == REDEAL
    assert bool(redeals) == variant.family.redeal_without_tarok


@pytest.mark.parametrize(("variant_id", "players"), FAMILY_CONFIGS)
def test_family_replay_equals_folding_apply_from_inside_every_phase(
    variant_id: str, players: int
) -> None:
    """Quick (the slow test above covers every rule set): from and to every position before
    trick play - inside the auction, the call, the talon exchange, the announcement round -
    `replay` agrees with `apply` move by move."""
    variant = find_variant(variant_id)
    seen: Counter[str] = Counter()
    for dealt, moves, states in playouts(variant_id, players, 40, seed=5):
        before = [dealt, *states]  # before[k]: the state before moves[k]
        final = before[-1]
        for k, state in enumerate(before[:-1]):
            if state.phase == TRICKS:
                break
            seen[state.phase] += 1
            assert variant.replay(state, moves[k:]) == final
            assert variant.replay(dealt, moves[:k]) == state
    assert {"bidding", "talon", "announce"} <= set(seen), seen


def test_every_state_keeps_the_hand_fields_slots_the_fast_paths_set() -> None:
    """`complete_in_place` and replay set piles, tricks, hands, trick and turn through
    HandState's own slot setters: no rule set's state may redefine those fields."""
    assert all_variants()  # every rule set (and its state class) imported
    todo, seen = list[type]([HandState]), list[type]()
    while todo:
        cls = todo.pop()
        seen.append(cls)
        todo += cls.__subclasses__()
    assert SlovenianState in seen
    for cls in seen:
        for name in ("piles", "tricks", "hands", "trick", "turn"):
            assert getattr(cls, name) is HandState.__dict__[name], (cls, name)


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_memoised_rule_set_answers_as_one_without_memory(variant_id: str, players: int) -> None:
    """The memos of `engine.memo` against their reference: a fresh object of the rule set's
    class (no remembered answer) for every question, over seeded hands."""
    variant = find_variant(variant_id)
    for dealt, _, states in playouts(variant_id, players, 4, seed=9):
        for state in (dealt, *states):
            plain = unmemoised(variant)
            assert variant.legal_moves(state) == plain.legal_moves(state)
            assert variant.view(state, state.turn) == plain.view(state, state.turn)
            assert variant.result(state) == plain.result(state)
