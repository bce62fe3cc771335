"""A uniformly random order of a deck for playouts, bots and benchmarks, with few Python-level
random calls (the service deals with its own CSPRNG shuffle, `server.commands.secure_shuffle`).

`random.Random.shuffle` draws one bounded integer per card through two Python frames each;
`random_order` draws a 30-bit key per position in one `getrandbits` call and sorts the
positions by their keys in C (keys below 2^30 are one-digit ints, which CPython compares
fastest). Keys that are all distinct give every order the same chance (the keys are
exchangeable); a draw with two equal keys (a chance below size^2 / 2^31: about 1.3e-6 for 54
cards) is drawn again, so the order stays exactly uniform.
"""

from __future__ import annotations

from struct import Struct
from typing import Protocol

_WORD = 32  # bits per key as drawn; the top two are masked off
_LAYOUTS: dict[int, tuple[Struct, int]] = {}


class RandomBits(Protocol):
    """A source of random bits (a `random.Random`, seeded or not)."""

    def getrandbits(self, k: int, /) -> int: ...


def random_order(size: int, rng: RandomBits) -> list[int]:
    """A uniformly random permutation of `range(size)`."""
    found = _LAYOUTS.get(size)
    if found is None:
        mask = sum(((1 << (_WORD - 2)) - 1) << (_WORD * i) for i in range(size))
        found = _LAYOUTS[size] = (Struct(f"<{size}I"), mask)
    layout, mask = found
    bits, width = _WORD * size, layout.size
    while True:
        keys = layout.unpack((rng.getrandbits(bits) & mask).to_bytes(width, "little"))
        if len(set(keys)) == size:
            return sorted(range(size), key=keys.__getitem__)
