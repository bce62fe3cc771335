"""A uniformly random order of a deck for playouts, bots and benchmarks, with few Python-level
operations (the service deals with its own CSPRNG shuffle, `server.commands.secure_shuffle`).

`random.Random.shuffle` draws one bounded integer per card through two Python frames each.
`random_order` draws all the random bits at once and sorts in C: position i gets a 64-bit word
that reads as a float in [1, 2) whose mantissa holds 44 random bits above the 8 bits of i, so
that the words sort by their random bits and the low byte of each sorted word is a position.
Random parts that are all distinct give every order the same chance (they are exchangeable);
a draw with two equal random parts (a chance below size^2 / 2^45: 8e-11 for 54 cards) is
drawn again, so the order is exactly uniform.
"""

from __future__ import annotations

from struct import Struct
from typing import NamedTuple, Protocol

_WORD, _INDEX, _RANDOM = 64, 8, 44  # bits per key, of the position, random
_EXPONENT = 0x3FF << 52  # the floats' exponent bits: [1, 2)
MAX_SIZE = 1 << _INDEX


class RandomBits(Protocol):
    """A source of random bits (a `random.Random`, seeded or not)."""

    def getrandbits(self, k: int, /) -> int: ...


class _Layout(NamedTuple):
    floats: Struct
    random: int  # the random bits of every word
    fixed: int  # the exponent and the position of every word
    below_top: int  # every word but the last
    ones: int  # 1 in every word but the last
    highs: int  # the top bit of every word but the last


_LAYOUTS: dict[int, _Layout] = {}


def _layout(size: int) -> _Layout:
    if not 0 < size <= MAX_SIZE:
        raise ValueError(f"random_order: 1..{MAX_SIZE} positions, not {size}")
    words = range(size)
    return _Layout(
        Struct(f"<{size}d"),
        sum(((1 << _RANDOM) - 1) << (_WORD * i + _INDEX) for i in words),
        sum((_EXPONENT | i) << (_WORD * i) for i in words),
        (1 << (_WORD * (size - 1))) - 1,
        sum(1 << (_WORD * i) for i in words[:-1]),
        sum(1 << (_WORD * i + _WORD - 1) for i in words[:-1]),
    )


def random_order(size: int, rng: RandomBits) -> bytes:
    """A uniformly random permutation of `range(size)` (up to 256 positions), as the bytes of
    its positions."""
    layout = _LAYOUTS.get(size)
    if layout is None:
        layout = _LAYOUTS[size] = _layout(size)
    floats = layout.floats
    width = floats.size
    while True:
        bits = (rng.getrandbits(_WORD * size) & layout.random) | layout.fixed
        ordered = floats.pack(*sorted(floats.unpack(bits.to_bytes(width, "little"))))
        if not _tie(int.from_bytes(ordered, "little") & layout.random, layout):
            return ordered[::8]


def _tie(ordered: int, layout: _Layout) -> bool:
    """Whether two neighbouring words of `ordered` (random parts, nondecreasing word by word)
    are equal: each word's difference to the next is taken at once (no word borrows, as none
    is below the one before), then the classic test for a zero word (a zero word borrows
    from the next one up, so only the lowest zero word is exact: enough to tell whether there
    is one)."""
    steps = (ordered >> _WORD) - (ordered & layout.below_top)
    return (steps - layout.ones) & ~steps & layout.highs != 0
