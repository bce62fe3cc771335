"""The fast random playout (`engine/playout.py`) and the bit tables it plays on
(`engine/bitcards.py`) agree with the pure API: the same final state and the same random
numbers drawn as `apply(rng.choice(legal_moves))` move by move, over every rule set and player
count, from deals and from positions inside trick play."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise
from operator import itemgetter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarok_service.engine import playout
from tarok_service.engine import tricks as t
from tarok_service.engine.bitcards import bit_deck
from tarok_service.engine.cards import TAROK, Deck, tarocco62, tarock40, tarok54
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import Move
from tarok_service.engine.playout import random_playout
from tarok_service.engine.state import TRICKS, HandState
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import all_variants, find_variant

CONFIGS = sorted((v.id, n) for v in all_variants() for n in v.player_counts)
DECKS = [tarok54(), tarok54(packs=2), tarock40(), tarocco62()]


def pure_playout(variant: Variant[Any], state: HandState, rng: random.Random) -> HandState:
    while not state.finished:
        state = variant.apply(state, rng.choice(variant.legal_moves(state)))
    return state


def dealt(variant: Variant[Any], players: int, rng: random.Random) -> HandState:
    rules = variant.make_rules(players)
    order = list(variant.deck(rules).cards)
    rng.shuffle(order)
    state: HandState = variant.deal(rules, order, rng.randrange(players))
    return state


def assert_same_playout(variant: Variant[Any], state: HandState, seed: int) -> HandState:
    pure_rng, fast_rng = random.Random(seed), random.Random(seed)
    pure = pure_playout(variant, state, pure_rng)
    fast = random_playout(variant, state, fast_rng)
    assert fast == pure
    assert fast_rng.random() == pure_rng.random()  # as many random numbers drawn
    return pure


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_random_playout_equals_the_pure_loop_from_deals(
    variant_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = find_variant(variant_id)
    rng = random.Random(f"playout/{variant_id}/{players}")
    runs: list[HandState | None] = []  # what each run of the bitmask trick loop returned

    def spy(*args: Any) -> HandState | None:
        runs.append(bitmask_loop(*args))
        return runs[-1]

    bitmask_loop = playout._play_tricks
    monkeypatch.setattr(playout, "_play_tricks", spy)
    for seed in range(60):
        assert_same_playout(variant, dealt(variant, players, rng), seed)
    if not playout.plain_trick_play(variant):  # type: ignore[arg-type]
        assert runs == []  # a rule set with its own card rules (French Tarot) plays move by move
        return
    assert runs and None not in runs  # trick play went through the bitmask loop


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_random_playout_equals_the_pure_loop_inside_trick_play(
    variant_id: str, players: int
) -> None:
    """From positions inside trick play (mid-trick too), where PIMC starts its playouts."""
    variant = find_variant(variant_id)
    rng = random.Random(f"inside/{variant_id}/{players}")
    positions = 0
    while positions < 40:
        state = dealt(variant, players, rng)
        stop = rng.randrange(1, 30)
        while not state.finished and stop:
            state = variant.apply(state, rng.choice(variant.legal_moves(state)))
            stop -= state.phase == TRICKS
        if state.finished or state.phase != TRICKS:
            continue
        assert_same_playout(variant, state, positions)
        positions += 1


@settings(max_examples=60, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    deal_seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
)
def test_random_playout_equals_the_pure_loop_for_any_seed(
    config: tuple[str, int], deal_seed: int, play_seed: int
) -> None:
    variant = find_variant(config[0])
    assert_same_playout(variant, dealt(variant, config[1], random.Random(deal_seed)), play_seed)


@pytest.mark.parametrize("deck", DECKS, ids=[d.name for d in DECKS])
def test_masks_stand_for_card_sets_in_deck_order(deck: Deck) -> None:
    bits = bit_deck(deck)
    assert bit_deck(deck) is bits
    rng = random.Random(deck.name)
    for _ in range(200):
        cards = rng.sample(deck.cards, rng.randrange(len(deck.cards) + 1))
        ordered = list(deck.sort(cards))
        mask = bits.mask(cards)
        assert mask.bit_count() == len(cards)  # two packs: each copy a bit of its own
        assert bits.cards_of(mask) == ordered
        assert bits.in_deck_order(ordered)
        if len(ordered) > 1:
            assert not bits.in_deck_order(ordered[::-1])
    equal = [type(c)(c.suit, c.rank, c.pack) for c in deck.cards[:3]]  # equal, not the deck's
    assert bits.mask(equal) == 0b111
    assert not bits.in_deck_order(equal)


@pytest.mark.parametrize("deck", DECKS, ids=[d.name for d in DECKS])
def test_hands_made_from_indices_keep_the_mask_of_their_cards(deck: Deck) -> None:
    """`hands_of` deals the hands of the deck's cards at the positions each seat takes of an
    order, in deck order, and tells whether each holds a card of a mask; `ordered_mask` gives
    back the masks it kept, equal to the ones worked out from the cards (a hand made again
    or more hands than the deck keeps: worked out alike)."""
    bits, size = bit_deck(deck), len(deck.cards)
    rng = random.Random(f"made/{deck.name}")
    made = []
    for _ in range(300):
        order = rng.sample(range(size), size)
        cut = sorted(rng.sample(range(2, size - 1), rng.randrange(0, 4)))
        bounds = [0, *[c for c in cut if c >= 2], size]
        spans = [(a, b) for a, b in pairwise(bounds) if b - a >= 2]
        seats = [itemgetter(*rng.sample(range(a, b), b - a)) for a, b in spans]
        must = sum(1 << i for i in rng.sample(range(size), rng.randrange(1, 6)))
        hands, every = bits.hands_of(order, seats, must)
        assert len(hands) == len(spans)
        for (a, b), hand in zip(spans, hands, strict=True):
            indices = sorted(order[a:b])
            assert hand == tuple(deck.cards[i] for i in indices)
            assert bits.ordered_mask(hand) == bits.mask(hand) == sum(1 << i for i in indices)
            copy = tuple(hand)  # the same cards, a tuple not made by `hands_of`
            assert bits.ordered_mask(list(copy)) == bits.mask(hand)
            made.append(hand)
        assert every == all(bits.mask(h) & must for h in hands)
    assert all(bits.ordered_mask(h) == bits.mask(h) for h in made)  # also those not kept


@pytest.mark.parametrize("deck", DECKS, ids=[d.name for d in DECKS])
def test_follow_mask_equals_legal_plays_under_plain_rules(deck: Deck) -> None:
    bits, rules = bit_deck(deck), t.TrickRules()
    rng = random.Random(deck.name)
    voids = 0
    for _ in range(500):
        cards = rng.sample(deck.cards, rng.randrange(2, 20))
        hand, led = deck.sort(cards[1:]), cards[0]
        if led.suit != TAROK:  # some hands void in the suit led, some without taroks too
            hand = tuple(c for c in hand if c.suit != led.suit or rng.random() < 0.5)
        expected = t.legal_plays(hand, [led], rules)
        assert bits.cards_of(bits.follow_mask(bits.mask(hand), led, rules.trump)) == expected
        voids += not t.has_suit(hand, led.suit)
    assert voids > 20


@settings(max_examples=200, deadline=None)
@given(
    deck=st.sampled_from(DECKS),
    picks=st.lists(st.integers(0, 107), max_size=40),
    led_pick=st.integers(0, 107),
)
def test_bitmask_tables_agree_with_the_card_functions_for_any_hand(
    deck: Deck, picks: list[int], led_pick: int
) -> None:
    """Any hand (repeats and out-of-order picks included) of any deck, two packs too: the
    mask keeps one bit per distinct card, gives the cards back in deck order, and the legal
    cards to follow any led card under plain rules."""
    bits, size = bit_deck(deck), len(deck.cards)
    cards = [deck.cards[i % size] for i in picks]
    hand = deck.sort(set(cards))
    mask = bits.mask(cards)
    assert mask.bit_count() == len(hand)
    assert bits.cards_of(mask) == list(hand)
    assert bits.ordered_mask(hand) == mask
    assert (bits.ordered_mask(cards) is not None) == (list(cards) == list(hand))
    led = deck.cards[led_pick % size]
    if led not in hand:
        expected = t.legal_plays(hand, [led], t.TrickRules())
        assert bits.cards_of(bits.follow_mask(mask, led, TAROK)) == expected


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_hands_out_of_deck_order_are_played_through_the_hooks_alike(
    variant_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hands not in deck order (the masks cannot give their order): card by card through the
    phase hooks, with the same result as the pure loop."""
    variant = find_variant(variant_id)
    rng = random.Random(f"unordered/{variant_id}/{players}")
    runs: list[HandState | None] = []

    def spy(*args: Any) -> HandState | None:
        runs.append(bitmask_loop(*args))
        return runs[-1]

    bitmask_loop = playout._play_tricks
    monkeypatch.setattr(playout, "_play_tricks", spy)
    compared = 0
    while compared < 10:
        state = dealt(variant, players, rng)
        while not state.finished and state.phase != TRICKS:
            state = variant.apply(state, rng.choice(variant.legal_moves(state)))
        if state.finished or all(len(h) < 2 for h in state.hands):
            continue
        reversed_hands = tuple(tuple(reversed(h)) for h in state.hands)
        assert_same_playout(variant, evolve(state, hands=reversed_hands), compared)
        compared += 1
    assert None in runs or not playout.plain_trick_play(variant)  # type: ignore[arg-type]


def picker(log: list[str], chooser: random.Random) -> Callable[[list[Move]], Move]:
    """A random pick that logs what it was offered and what it chose."""

    def pick(moves: list[Move]) -> Move:
        move = chooser.choice(moves)
        log.append(f"{[mv.id for mv in moves]} -> {move.id}")
        return move

    return pick


def phase_playouts(variant: Variant[Any]) -> list[str]:
    """The phases of a rule set that declare a `playout` fast path."""
    assert variant.phases is not None
    return [
        str(p)
        for p in variant.phases
        if str(p) in variant.checked_table() and variant.phase_rule(p).playout is not None
    ]


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_phase_playouts_equal_the_pure_loop_over_the_phase(variant_id: str, players: int) -> None:
    """A phase's `playout(state, pick)` from any position inside the phase: the same lists
    offered to `pick`, the same picks and the same state when the phase is over as
    `apply(pick(legal))` move by move."""
    variant = find_variant(variant_id)
    declared = phase_playouts(variant)
    rng = random.Random(f"phase/{variant_id}/{players}")
    checked = dict.fromkeys(declared, 0)
    for _ in range(400):
        state = dealt(variant, players, rng)
        while not state.finished:
            phase = state.phase
            rule = variant.phase_rule(phase)
            if rule.playout is not None and rng.random() < 0.5:
                seed = rng.randrange(2**32)
                offered: list[list[str]] = [[], []]

                pure, choose_pure = state, picker(offered[0], random.Random(seed))
                while not pure.finished and pure.phase == phase:
                    move = choose_pure(variant.legal_moves(pure))
                    pure = variant.apply(pure, move, check=False)
                fast = rule.playout(state, picker(offered[1], random.Random(seed)))
                assert fast == pure
                assert offered[0] == offered[1]
                checked[phase] += 1
            state = variant.apply(state, rng.choice(variant.legal_moves(state)), check=False)
    assert all(checked.values()), checked


def test_the_slovenian_auction_and_announcement_round_have_playouts() -> None:
    assert set(phase_playouts(find_variant("slovenian"))) >= {"bidding", "announce"}
