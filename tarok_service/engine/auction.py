"""A priority auction: forehand has the highest priority and may hold (bid equal).

Contracts are indices into the variant's contract table, ordered low to high. The auction
follows pagat's Slovenian rules (as OpenSpiel models them): it opens with the player after
forehand; a pass is final; a player of higher priority may hold the current bid; when all
others have passed the last bidder names the final contract, equal to or above his bid, and
forehand, if nobody bid at all, may also take the forehand-only contracts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

PASSED = -1

# What the legal bids of the seat to bid depend on (`Auction.situation`): whether it may pass,
# whether it may take forehand's own contracts, and the lowest of the other contracts open to it.
Situation: TypeAlias = tuple[bool, bool, int]


@dataclass(frozen=True, slots=True)
class Auction:
    """Bids by seat: None = not spoken yet, PASSED, or a contract index."""

    forehand: int
    bids: tuple[int | None, ...]

    @property
    def players(self) -> int:
        return len(self.bids)

    def priority(self, seat: int) -> int:
        """0 for forehand (highest), players-1 for the dealer."""
        return (seat - self.forehand) % len(self.bids)

    def high(self) -> tuple[int, int | None]:
        """(highest bid, its seat), preferring the seat with higher priority on equal bids."""
        best, seat = PASSED, None
        bids, n = self.bids, len(self.bids)
        for k in range(n):  # seats in priority order, forehand first
            s = (self.forehand + k) % n
            bid = bids[s]
            if bid is not None and bid > best:
                best, seat = bid, s
        return best, seat

    def others_passed(self, seat: int) -> bool:
        return all(b == PASSED for s, b in enumerate(self.bids) if s != seat)

    def situation(self, seat: int) -> Situation:
        """What the legal bids of `seat` depend on: it must bid when all others have passed
        (and then, as forehand who has not spoken, may take forehand's own contracts); it may
        hold the highest bid if it has priority over its bidder, else must bid above it."""
        best, best_seat = self.high()
        last = self.others_passed(seat)
        holding = best_seat is not None and self.priority(seat) <= self.priority(best_seat)
        own = last and seat == self.forehand and self.bids[seat] is None
        return not last, own, best if holding else best + 1

    def legal(self, seat: int, open_bids: list[int], forehand_only: frozenset[int]) -> list[int]:
        """Contracts `seat` may bid (PASSED included when a pass is allowed)."""
        return legal_bids(self.situation(seat), open_bids, forehand_only)

    def bid(self, seat: int, contract: int) -> Auction:
        bids = list(self.bids)
        bids[seat] = contract
        return Auction(self.forehand, tuple(bids))

    def next_bidder(self, seat: int) -> int:
        s = (seat + 1) % self.players
        while self.bids[s] == PASSED:
            s = (s + 1) % self.players
        return s


def legal_bids(
    situation: Situation, open_bids: list[int], forehand_only: frozenset[int]
) -> list[int]:
    """The legal bids in a situation: PASSED first when a pass is allowed, then forehand's own
    contracts when open, then the other open contracts from the lowest allowed up."""
    may_pass, own, lowest = situation
    result: list[int] = [PASSED] if may_pass else []
    if own:
        result += sorted(forehand_only)
    result += [c for c in open_bids if c not in forehand_only and c >= lowest]
    return result


def run_auction(
    auction: Auction, seat: int, choose: Callable[[int, Situation], int]
) -> tuple[list[int | None], list[tuple[int, int]], int]:
    """The auction from `auction` with `seat` to bid, played to its end by `choose(seat,
    situation)` (a legal bid in that situation): the bids at the end, every (seat, bid) said in
    order, and the seat whose bid ended it. The same bids as `Auction.bid` and
    `Auction.next_bidder` one by one, with each situation equal to `Auction.situation`, kept
    on locals: the highest bid is always the last one not a pass (a seat may only hold it with
    priority over its bidder), and the seat holding it never passes."""
    forehand, bids = auction.forehand, [*auction.bids]
    players = len(bids)
    best, best_seat = auction.high()
    top = -1 if best_seat is None else (best_seat - forehand) % players
    passed = bids.count(PASSED)
    said: list[tuple[int, int]] = []
    while True:
        last = passed == players - 1
        priority = (seat - forehand) % players
        bid = choose(
            seat,
            (
                not last,
                last and seat == forehand and bids[seat] is None,
                best if priority <= top else best + 1,
            ),
        )
        bids[seat] = bid
        said.append((seat, bid))
        if bid == PASSED:
            passed += 1
        else:
            if last:
                return bids, said, seat
            best, top = bid, priority
        seat = (seat + 1) % players
        while bids[seat] == PASSED:
            seat = (seat + 1) % players
