"""Sampling hidden cards for Monte Carlo bots: the `Sampler` hook and a constrained deal.

A sampler is given a seat's `View` only, and builds a complete hand state of its variant that
agrees with everything that view shows; the cards it cannot see are dealt at random, subject to
what the play so far has revealed (voids, announced cards, a known partner).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Protocol, TypeVar

from .cards import Card
from .inference import completed_tricks
from .moves import Move, MoveKind
from .options import Rules
from .state import HandState
from .variant import Variant
from .view import View

TALON_SLOT = -1  # the hidden talon cards
DISCARD_SLOT = -2  # the declarer's discards this seat did not see

S = TypeVar("S", bound=HandState)
T = TypeVar("T")
Allowed = Callable[[Card, int], bool]
Check = Callable[[dict[int, list[Card]]], bool]


class Rng(Protocol):
    """The random source a sampler draws from: a `Rng` that its caller owns and
    seeds (the engine keeps no randomness of its own)."""

    def random(self) -> float: ...

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def choices(
        self, population: Sequence[T], weights: Sequence[float] | None = None
    ) -> list[T]: ...


class Sampler(Protocol[S]):
    """Builds full hand states of its rule set's state type `S` consistent with a view (a
    variant-specific hook)."""

    def sample(self, view: View, rules: Rules, rng: Rng) -> S | None:
        """A state whose view for `view.seat` shows what `view` shows, with the hidden cards
        dealt at random; None when the view is not in a phase the sampler handles, or no
        consistent deal was found."""
        ...

    def team(self, state: S) -> tuple[int, ...]:
        """The declarer side of a (sampled) state; () when each plays for himself."""
        ...


def deal_constrained(
    cards: Sequence[Card],
    capacity: Mapping[int, int],
    allowed: Allowed,
    rng: Rng,
    tries: int = 20,
) -> dict[int, list[Card]] | None:
    """Deal `cards` into slots of the given sizes so that every card lands where `allowed`;
    None when the sizes do not add up or `tries` random attempts all fail. The most constrained
    cards go first, each to a slot chosen with odds proportional to the room left, which keeps
    the deal close to uniform among the consistent ones."""
    if sum(capacity.values()) != len(cards) or any(n < 0 for n in capacity.values()):
        return None
    options = {c: [s for s, n in capacity.items() if n > 0 and allowed(c, s)] for c in cards}
    if any(not slots for slots in options.values()):
        return None
    for _ in range(tries):
        dealt = _attempt(cards, capacity, options, rng)
        if dealt is not None:
            return dealt
    return None


def _attempt(
    cards: Sequence[Card],
    capacity: Mapping[int, int],
    options: Mapping[Card, list[int]],
    rng: Rng,
) -> dict[int, list[Card]] | None:
    order = sorted(cards, key=lambda c: (len(options[c]), rng.random()))
    left = dict(capacity)
    out: dict[int, list[Card]] = {s: [] for s in capacity}
    for card in order:
        slots = [s for s in options[card] if left[s] > 0]
        if not slots:
            return None
        slot = rng.choices(slots, weights=[left[s] for s in slots])[0]
        out[slot].append(card)
        left[slot] -= 1
    return out


def deal_checked(
    cards: Sequence[Card],
    capacity: Mapping[int, int],
    allowed: Allowed,
    check: Check,
    rng: Rng,
    attempts: int = 8,
) -> dict[int, list[Card]] | None:
    """`deal_constrained` drawn again until the deal passes `check`, a condition on whole hands
    that no single card's slot can express (a declared hand's combinations, a bid's suit count);
    None when no deal is found or `attempts` deals all fail the check."""
    for _ in range(attempts):
        dealt = deal_constrained(cards, capacity, allowed, rng)
        if dealt is None:
            return None
        if check(dealt):
            return dealt
    return None


# --- helpers shared by the samplers of several rule sets ---------------------------------------

Must = tuple[int, tuple[Card, ...]]  # a seat known to hold at least one of these cards


def played_by_seat(view: View) -> dict[int, list[Card]]:
    """The cards each seat has played this hand (completed tricks, then the current one)."""
    played: dict[int, list[Card]] = {s: [] for s in range(len(view.hand_sizes))}
    for plays in (*completed_tricks(view), view.trick):
        for seat, card in plays:
            played[seat].append(card)
    return played


def first_leader(view: View) -> int | None:
    """The seat that led the first trick (the seat to move when no card has been played)."""
    if view.tricks:
        return view.tricks[0].leader
    return view.trick[0][0] if view.trick else view.turn


def replay(variant: Variant[S], view: View, start: S) -> S | None:
    """Play the cards the view shows from the state as trick play began; None when the
    result does not match the view (a seat out of turn, a finished hand, another turn)."""
    codes = variant.deck(start.rules).codes
    state = start
    for plays in (*completed_tricks(view), view.trick):
        for seat, card in plays:
            if state.turn != seat or state.finished:
                return None
            state = variant.apply(state, Move(MoveKind.PLAY, codes[card]), check=False)
    if state.turn != view.turn or state.finished:
        return None
    return state


def choose_holders(
    musts: Sequence[Must],
    holding: Mapping[int, Collection[Card]],
    free: Collection[Card],
    allowed: Allowed,
    rng: Rng,
) -> dict[Card, int]:
    """Pins (card -> seat) meeting each "seat holds one of these cards" fact not met by the
    cards `holding` shows: one of the `free` (still unplaced) cards the seat may hold, chosen
    at random. A fact no free card can meet is left out (the deal is then loosened)."""
    pins: dict[Card, int] = {}
    for seat, options in musts:
        if any(c in holding.get(seat, ()) or pins.get(c) == seat for c in options):
            continue
        candidates = [c for c in options if c in free and c not in pins and allowed(c, seat)]
        if candidates:
            pins[rng.choice(candidates)] = seat
    return pins


def repair(
    dealt: dict[int, list[Card]],
    allowed: Allowed,
    cost: Callable[[int, Sequence[Card]], int],
    rng: Rng,
    steps: int = 600,
) -> int:
    """Swap cards between the slots of a deal (each card staying where `allowed`) to bring
    the total of `cost(slot, cards)` down to zero, accepting swaps that do not raise it; the
    cost left (0: every slot is satisfied). Facts about whole hands, such as a declared
    number of taroks, are met this way."""
    costs = {s: cost(s, cards) for s, cards in dealt.items()}
    slots = [s for s, cards in dealt.items() if cards]
    for _ in range(steps):
        bad = [s for s in slots if costs[s]]
        if not bad:
            return 0
        a = rng.choice(bad)
        b = rng.choice(slots)
        if a == b:
            continue
        i, j = rng.randrange(len(dealt[a])), rng.randrange(len(dealt[b]))
        x, y = dealt[a][i], dealt[b][j]
        if not (allowed(x, b) and allowed(y, a)):
            continue
        dealt[a][i], dealt[b][j] = y, x
        new_a, new_b = cost(a, dealt[a]), cost(b, dealt[b])
        if new_a + new_b <= costs[a] + costs[b]:
            costs[a], costs[b] = new_a, new_b
        else:
            dealt[a][i], dealt[b][j] = x, y
    return sum(costs.values())
