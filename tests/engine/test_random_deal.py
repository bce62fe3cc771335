"""The playouts' dealing and choosing fast paths: `shuffle.random_order` is a uniform
permutation (exactly: ties are drawn again), `Variant.random_deal` deals it as `deal` does,
`playout.fast_choice` draws what `random.Random.choice` draws, and the auction run on
situations agrees with `Auction` bid by bid."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest

from tarok_service.engine.auction import PASSED, Auction, legal_bids, run_auction
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.playout import fast_choice
from tarok_service.engine.shuffle import random_order
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import all_variants, find_variant

CONFIGS = sorted((v.id, n) for v in all_variants() for n in v.player_counts)


def test_random_order_is_a_permutation_of_every_size() -> None:
    rng = random.Random("sizes")
    for size in (1, 2, 3, 40, 54, 62, 108, 256):
        for _ in range(20):
            assert sorted(random_order(size, rng)) == list(range(size))
    with pytest.raises(ValueError):
        random_order(257, rng)


def test_random_order_gives_every_order_its_share() -> None:
    """All 24 orders of 4 positions about equally often (a chi-square far above the 0.1%
    quantile, 49.7 for 23 degrees of freedom), and each of 54 cards at each position."""
    rng = random.Random("uniform")
    draws = 24_000
    counts = Counter(bytes(random_order(4, rng)) for _ in range(draws))
    assert set(counts) == {bytes(p) for p in permutations(range(4))}
    expected = draws / 24
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 60
    at: Counter[tuple[int, int]] = Counter()
    for _ in range(2_000):
        at.update(enumerate(random_order(54, rng)))
    share = 2_000 / 54  # ~37 per (position, card)
    assert all(share / 4 < at[(p, c)] < share * 3 for p in range(54) for c in range(54))


class _TiedFirst:
    """Bits whose first draw has two equal random parts (positions 10 and 20)."""

    def __init__(self) -> None:
        self.calls = 0
        self.rng = random.Random(5)

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        if self.calls > 1:
            return self.rng.getrandbits(k)
        parts = [1000 + i if i != 20 else 1010 for i in range(54)]
        return sum(part << (64 * i + 8) for i, part in enumerate(parts))


def test_a_draw_with_equal_keys_is_drawn_again() -> None:
    tied = _TiedFirst()
    order = random_order(54, tied)
    assert tied.calls == 2
    assert order == random_order(54, random.Random(5))  # the second draw's order


class _Close:
    """One draw of 256 random parts, all distinct, two of them consecutive (5000 at position
    200, 5001 at position 10): their keys are closer than any two tied keys could be apart."""

    calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        parts = [20_000 + 10 * i for i in range(256)]
        parts[200], parts[10] = 5000, 5001
        return sum(part << (64 * i + 8) for i, part in enumerate(parts))


def test_close_but_distinct_keys_are_not_drawn_again() -> None:
    close = _Close()
    order = random_order(256, close)
    assert close.calls == 1
    assert list(order) == [200, 10, *(i for i in range(256) if i not in (10, 200))]


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_random_deal_deals_the_random_order(variant_id: str, players: int) -> None:
    """A rule set's own `random_deal` is `deal` of the deck in `random_order`."""
    variant = find_variant(variant_id)
    rules = variant.make_rules(players)
    cards = variant.deck(rules).cards
    for seed in range(30):
        dealer = seed % players
        dealt = variant.random_deal(rules, random.Random(seed), dealer)
        order = [cards[i] for i in random_order(len(cards), random.Random(seed))]
        assert dealt == variant.deal(rules, order, dealer)
        assert dealt == Variant.random_deal(variant, rules, random.Random(seed), dealer)
        same = evolve(dealt)  # a copy is equal and of the same class
        assert same == dealt and type(same) is type(dealt)


class _OwnChoice(random.Random):
    def choice(self, seq):  # type: ignore[no-untyped-def]
        return seq[-1]


def test_fast_choice_draws_what_random_choice_draws() -> None:
    fast_rng, plain_rng = random.Random(3), random.Random(3)
    choose = fast_choice(fast_rng)
    for n in [*range(1, 40), 1000, 12345]:
        seq = list(range(n))
        for _ in range(5):
            assert choose(seq) == plain_rng.choice(seq)
    assert fast_rng.random() == plain_rng.random()
    with pytest.raises(IndexError):
        choose([])
    own = _OwnChoice(1)
    assert fast_choice(own)([1, 2, 3]) == 3  # not the standard choice: its own


def test_the_auction_run_agrees_with_the_auction_bid_by_bid() -> None:
    rng = random.Random("auction")
    open_bids, only = list(range(12)), frozenset({0, 1})
    for _ in range(3_000):
        players = rng.choice((3, 4))
        forehand = rng.randrange(players)
        auction = Auction(forehand, (None,) * players)
        seat = (forehand + 1) % players
        for _ in range(rng.randrange(4)):  # start inside the auction now and then
            bid = rng.choice(auction.legal(seat, open_bids, only))
            auction = auction.bid(seat, bid)
            if bid != PASSED and auction.others_passed(seat):
                break
            seat = auction.next_bidder(seat)
        else:
            checked = auction

            def choose(who: int, situation: tuple[bool, bool, int]) -> int:
                nonlocal checked, seat
                assert who == seat
                assert situation == checked.situation(who)
                legal = legal_bids(situation, open_bids, only)
                assert legal == checked.legal(who, open_bids, only)
                bid = rng.choice(legal)
                checked = checked.bid(who, bid)
                if not (bid != PASSED and checked.others_passed(who)):
                    seat = checked.next_bidder(who)
                return bid

            bids, said, last = run_auction(auction, seat, choose)
            assert tuple(bids) == checked.bids
            assert checked.others_passed(last) and bids[last] != PASSED
            assert said[-1] == (last, bids[last])
