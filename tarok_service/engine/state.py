"""The state every trick-taking hand shares; variants extend it with their own fields."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from .cards import Card
from .options import Rules

SCORED = "scored"
REDEAL = "redeal"
TRICKS = "tricks"
ENDED = frozenset({SCORED, REDEAL})  # the phases that end a hand (no moves, no handlers)

Play = tuple[int, Card]
S = TypeVar("S")  # any frozen slots dataclass (for `evolve`)


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: the cards in playing order and the seat that won it."""

    plays: tuple[Play, ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)

    @property
    def leader(self) -> int:
        return self.plays[0][0]


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand in progress.

    Seats are numbered in the direction of play; `dealer + 1` is forehand. `piles` hold the
    cards each seat has won (tricks, discards, talon cards given to it).
    """

    rules: Rules
    dealer: int
    phase: str
    turn: int | None
    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.rules.players

    @property
    def finished(self) -> bool:
        return self.phase in ENDED

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    def tricks_won(self) -> tuple[int, ...]:
        counts = [0] * self.rules.players
        for t in self.tricks:
            counts[t.winner] += 1
        return tuple(counts)


def replace_at(
    items: tuple[tuple[Card, ...], ...], seat: int, new: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """`items` with the entry of `seat` replaced."""
    return (*items[:seat], new, *items[seat + 1 :])


def without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """`cards` less one copy of `card` (the very object if present: the cards of a deal are
    distinct, and an identity search skips the slow comparisons of dataclass equality)."""
    for i, c in enumerate(cards):
        if c is card:
            return cards[:i] + cards[i + 1 :]
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


_COPIERS: dict[tuple[type, tuple[str, ...]], Any] = {}


def _copier(cls: type, changed: tuple[str, ...]) -> Any:
    """A generated function copying a frozen slots dataclass with the `changed` fields (given
    positionally, in that order) replaced.

    The copy is made as an instance of a private subclass that adds no slot and takes back
    `object`'s plain attribute setting (so that every store is the interpreter's specialised
    slot store, not a call), then given the class `cls` itself: the result is an ordinary
    instance of `cls`. A class that refuses the class switch is copied through its slot
    descriptors instead."""
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(changed) - set(names))
    if unknown:
        raise TypeError(f"unknown fields {unknown}")
    args = {n: f"_v{i}" for i, n in enumerate(changed)}
    params = ", ".join(["obj", *args.values()])
    namespace: dict[str, Any] = {"make": object.__new__, "cls": cls}
    mutable = _mutable_twin(cls)
    if mutable is not None:
        body = "".join(f" new.{n} = {args.get(n, 'obj.' + n)}\n" for n in names)
        src = f"def copy({params}):\n new = make(twin)\n{body} new.__class__ = cls\n return new\n"
        namespace["twin"] = mutable
    else:
        for name in names:
            for klass in cls.__mro__:
                slot = klass.__dict__.get(name)
                if slot is not None and hasattr(slot, "__set__"):
                    namespace[f"set_{name}"] = slot.__set__
                    break
        body = "".join(f" set_{n}(new, {args.get(n, 'obj.' + n)})\n" for n in names)
        src = f"def copy({params}):\n new = make(cls)\n{body} return new\n"
    exec(src, namespace)
    return namespace["copy"]


def _mutable_twin(cls: type) -> type | None:
    """A subclass of `cls` with its layout and plain attribute setting, whose instances may
    switch to `cls`; None when `cls` does not allow that."""
    try:
        twin = type(
            f"_Mutable{cls.__name__}",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,
            },
        )
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


def evolve(obj: S, **changes: Any) -> S:
    """`dataclasses.replace` for frozen slots states (no `__post_init__`), several times faster
    (hot path)."""
    key = (type(obj), tuple(changes))
    found = _COPIERS.get(key)
    if found is None:
        found = _COPIERS[key] = _copier(*key)
    result: S = found(obj, *changes.values())
    return result


def copier(cls: type, *changed: str) -> Any:
    """`evolve`'s copy function for a `cls` with the fields `changed` replaced, called as
    `copy(obj, *new values in that order)`: for a hot path that makes many copies of one
    shape (no keyword arguments to gather)."""
    key = (cls, changed)
    found = _COPIERS.get(key)
    if found is None:
        found = _COPIERS[key] = _copier(cls, changed)
    return found
