"""Provably fair deals: commitments to card orders and to tournament seeds, and the seeded
derivation of tournament deals (the scheme is described in docs/fair-deals.md).

- A deal's commitment is SHA-256(salt || the card codes of the order joined by ","), with a
  fresh 32-byte salt; it is public from the moment the hand is dealt, the salt and the order
  are revealed once the deal may be shown.
- A tournament's seed commitment is SHA-256(seed_salt || the seed as decimal text).
- A tournament deal's card order is a Fisher-Yates shuffle of the deck (in the deck's order)
  driven by SHA-256 in counter mode over "tarok-deal/v1/{seed}/{deal}/{spare}"; anyone may
  recompute it from the revealed seed.

Pure functions (no I/O, no randomness: the server draws the salts), shared by the server and
the verifier in the Python client.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

SALT_BYTES = 32
SEPARATOR = ","
_DRAW = 8  # bytes per random draw (big-endian unsigned)


def deal_commitment(salt: bytes, order: Sequence[str]) -> bytes:
    """SHA-256(salt || ",".join(order) as UTF-8)."""
    return hashlib.sha256(salt + SEPARATOR.join(order).encode("utf-8")).digest()


def seed_commitment(salt: bytes, seed: int) -> bytes:
    """SHA-256(salt || str(seed) as ASCII)."""
    return hashlib.sha256(salt + str(seed).encode("ascii")).digest()


def _draws(key: str) -> Iterator[int]:
    """64-bit numbers from SHA-256(key || "/" || counter), counter = 0, 1, 2, ..."""
    counter = 0
    while True:
        block = hashlib.sha256(f"{key}/{counter}".encode()).digest()
        for i in range(0, len(block), _DRAW):
            yield int.from_bytes(block[i : i + _DRAW], "big")
        counter += 1


def seeded_order(codes: Sequence[str], seed: int, deal: int, spare: int) -> list[str]:
    """The card order of a tournament deal (spare 0; 1, 2, ... for redeals) from the seed.

    Fisher-Yates from the last position down: position i swaps with j drawn uniformly from
    0..i by rejection sampling (a draw x is used when x < 2**64 - 2**64 % (i + 1), j = x % (i + 1)).
    """
    order = list(codes)
    draws = _draws(f"tarok-deal/v1/{seed}/{deal}/{spare}")
    for i in range(len(order) - 1, 0, -1):
        span = i + 1
        limit = (1 << 64) - (1 << 64) % span
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % span
        order[i], order[j] = order[j], order[i]
    return order


REDEAL_PRESETS = 3  # extra preset deals per table, so thrown-in hands stay duplicate too


def deal_orders(codes: Sequence[str], seed: int, deal: int) -> list[list[str]]:
    """The preset card orders of a tournament deal (the first, then spares for redeals),
    from the seed. Every table of the same deal gets the same orders; the seed is the
    tournament's secret until it ends, then anyone may recompute them."""
    return [seeded_order(codes, seed, deal, spare) for spare in range(1 + REDEAL_PRESETS)]
