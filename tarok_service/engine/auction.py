"""A priority auction: forehand has the highest priority and may hold (bid equal).

Contracts are indices into the variant's contract table, ordered low to high. The auction
follows pagat's Slovenian rules (as OpenSpiel models them): it opens with the player after
forehand; a pass is final; a player of higher priority may hold the current bid; when all
others have passed the last bidder names the final contract, equal to or above his bid, and
forehand, if nobody bid at all, may also take the forehand-only contracts.
"""

from __future__ import annotations

from dataclasses import dataclass

PASSED = -1


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

    def legal(self, seat: int, open_bids: list[int], forehand_only: frozenset[int]) -> list[int]:
        """Contracts `seat` may bid (PASSED included when a pass is allowed)."""
        best, best_seat = self.high()
        last = self.others_passed(seat)
        result: list[int] = [] if last else [PASSED]
        if last and seat == self.forehand and self.bids[seat] is None:
            result += sorted(forehand_only)
        holding = best_seat is not None and self.priority(seat) <= self.priority(best_seat)
        result += [
            c for c in open_bids if c not in forehand_only and (c > best or (c == best and holding))
        ]
        return result

    def bid(self, seat: int, contract: int) -> Auction:
        bids = list(self.bids)
        bids[seat] = contract
        return Auction(self.forehand, tuple(bids))

    def next_bidder(self, seat: int) -> int:
        s = (seat + 1) % self.players
        while self.bids[s] == PASSED:
            s = (s + 1) % self.players
        return s
