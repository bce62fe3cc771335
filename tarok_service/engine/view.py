"""What one seat (or a spectator) may see of a hand: the only door to state."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move
from .outcome import HandResult
from .state import HandState, Trick


@dataclass(frozen=True)
class PublicCards:
    """A named group of face-up cards, e.g. ("talon", ...), ("shown discards", ...)."""

    name: str
    cards: tuple[Card, ...]
    seat: int | None = None


@dataclass(frozen=True)
class Fact:
    """A public fact of the hand: a bid, an announcement, a kontra, a declaration."""

    seat: int | None
    kind: str
    value: str
    level: int = 0


_FACTS: dict[tuple[int | None, str, str, int], Fact] = {}


def shared_fact(seat: int | None, kind: str, value: str, level: int = 0) -> Fact:
    """`Fact(seat, kind, value, level)`, one object per distinct fact (facts are immutable,
    and the few distinct bids, announcements and kontras recur in every hand: the frozen
    dataclass's `__init__` is slow on the hot paths)."""
    key = (seat, kind, value, level)
    found = _FACTS.get(key)
    if found is None:
        if len(_FACTS) >= 4096:
            _FACTS.clear()
        found = _FACTS[key] = Fact(seat, kind, value, level)
    return found


@dataclass(frozen=True)
class View:
    """Everything `seat` may see now; seat None is a spectator."""

    seat: int | None
    phase: str
    turn: int | None
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[int, Card], ...]
    tricks_won: tuple[int, ...]
    public: tuple[PublicCards, ...]
    facts: tuple[Fact, ...]
    contract: str
    declarer: int | None
    partners: tuple[int, ...]
    called: str
    legal: tuple[Move, ...]
    result: HandResult | None
    tricks: tuple[Trick, ...] = ()  # every completed trick of the hand (public)

    def visible_cards(self) -> set[Card]:
        """Every card this view shows."""
        seen = set(self.hand)
        seen.update(c for _, c in self.trick)
        seen.update(c for _, c in self.last_trick)
        for trick in self.tricks:
            seen.update(trick.cards)
        for group in self.public:
            seen.update(group.cards)
        return seen


def seat_view(
    state: HandState,
    seat: int | None,
    *,
    public: tuple[PublicCards, ...],
    facts: tuple[Fact, ...],
    contract: str,
    declarer: int | None,
    partners: tuple[int, ...],
    called: str,
    legal: tuple[Move, ...],
    result: HandResult | None,
) -> View:
    """A View whose trick-game fields (hand, trick, tricks, sizes, turn ...) come from `state`;
    the caller gives what its rule set decides a seat may see of the rest."""
    return View(
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        dealer=state.dealer,
        hand=state.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        trick=state.trick,
        last_trick=state.tricks[-1].plays if state.tricks else (),
        tricks_won=state.tricks_won(),
        public=public,
        facts=facts,
        contract=contract,
        declarer=declarer,
        partners=partners,
        called=called,
        legal=legal,
        result=result,
        tricks=state.tricks,
    )
