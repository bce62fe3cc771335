"""A `Sampler` for Czech taroky: rebuild a `TarokyState` from one seat's view.

Only trick play is sampled. The state is rebuilt as it stood when play began (each seat's
hand = the cards it still holds plus those it played; the discards on their owners' piles;
the talon cards nobody took), then the tricks the view shows are replayed through the engine,
so that piles and the varšava gifts come out as the rules make them.

What the view shows about hidden cards:
- the talon: split 4+1+1 in the first two obligations (nothing left), looked at in threes in
  the third (a rejected three lies face up: the talon left, or, both rejected, the first
  three taken by the declarer), kept whole in the sixth, given to the first six tricks'
  winners in varšava (those given are face up);
- the discards: one fact per card, taroks face up; the others are suit cards but no king;
- the call: XVIII called means the declarer held XIX, XVII means XIX and XVIII; the called
  tarok is in a hand or among the face-up discards, the partner's once he is known, never of
  a seat that gave a flek;
- an announced pagat: the announcer holds it;
- the revealing declarations (every seat's, at the start of play): the number of taroks and
  the honours of each hand; these are met by swapping cards after the deal (`repair`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...engine.auction import PASSED, Auction
from ...engine.cards import KING, MOND, PAGAT, SKIS, TAROK, Card
from ...engine.inference import completed_tricks, infer_voids
from ...engine.moves import MoveKind
from ...engine.options import Rules
from ...engine.sampling import (
    TALON_SLOT,
    Allowed,
    Rng,
    deal_constrained,
    first_leader,
    played_by_seat,
    repair,
    replay,
)
from ...engine.state import TRICKS
from ...engine.view import View
from . import data as d
from .declarations import declarations
from .rules import TAROKY, Taroky
from .state import DECK, DECLARATION, TarokyState
from .talon import CALL_RANKS, REJECT

DISCARDS = -10  # the hidden discards of seat s are slot DISCARDS - s
TRUL = frozenset(Card(TAROK, r) for r in (PAGAT, MOND, SKIS))
Counts = tuple[int, int, int]  # taroks, suit kings, trul cards
Cost = Callable[[int, Sequence[Card]], int]


def discard_slot(seat: int) -> int:
    return DISCARDS - seat


@dataclass
class Known:
    """What the view pins down about where the cards are."""

    played: dict[int, list[Card]]
    discards: list[tuple[int, Card | None]] = field(default_factory=list)  # None: face down
    talon: tuple[Card, ...] = ()  # known cards of the talon as play began, in order
    hidden_talon: int = 0
    taken: tuple[Card, ...] = ()  # face-up cards the declarer took (both threes rejected)
    shown: tuple[tuple[Card, ...], ...] = ()  # the rejected threes
    received: tuple[Card, ...] = ()  # the talon cards this seat received
    pins: dict[Card, int] = field(default_factory=dict)
    declared: dict[int, tuple[str, ...]] = field(default_factory=dict)  # seat -> declarations

    def seen(self, view: View) -> set[Card]:
        cards = set(view.hand) | {c for cs in self.played.values() for c in cs}
        cards |= {c for _, c in self.discards if c is not None}
        return cards | set(self.talon) | set(self.received)


class TarokySampler:
    """Samples Czech taroky hands."""

    def __init__(self, variant: Taroky | None = None) -> None:
        chosen = TAROKY if variant is None else variant
        assert isinstance(chosen, Taroky)
        self.variant = chosen

    def team(self, state: TarokyState) -> tuple[int, ...]:
        return state.team()

    def sample(self, view: View, rules: Rules, rng: Rng) -> TarokyState | None:
        if view.phase != TRICKS or view.seat is None or not view.contract:
            return None
        if view.last_trick and not view.tricks:  # a view without the trick history
            return None
        known = self._known(view)
        dealt = self._deal(view, known, rng)
        if dealt is None:
            return None
        return replay(self.variant, view, self._start(view, rules, known, dealt))

    # --- what is known ------------------------------------------------------------------

    def _known(self, view: View) -> Known:
        assert view.seat is not None
        groups = {(g.name, g.seat): g.cards for g in view.public}
        known = Known(played_by_seat(view))
        known.received = groups.get(("talon received", view.seat), ())
        own = iter(groups.get(("discards", view.seat), ()))
        for f in view.facts:
            if f.kind == MoveKind.DISCARD and f.seat is not None:
                card = next(own, None) if f.seat == view.seat else DECK.by_code.get(f.value)
                known.discards.append((f.seat, card))
            elif f.kind == DECLARATION and f.seat is not None:
                known.declared[f.seat] = (*known.declared.get(f.seat, ()), f.value)
        if view.contract != d.VARSAVA:  # every hand was declared (nothing: no declaration)
            for s in range(len(view.hand_sizes)):
                known.declared.setdefault(s, ())
        known.shown = tuple(
            groups[(f"rejected talon {i}", view.declarer)]
            for i in (1, 2)
            if (f"rejected talon {i}", view.declarer) in groups
        )
        self._talon(view, known, groups.get(("talon cards given", None), ()))
        known.pins = self._pins(view, known)
        return known

    def _talon(self, view: View, known: Known, given: tuple[Card, ...]) -> None:
        """The talon as trick play began: which cards are known, how many hidden."""
        if view.contract == d.THIRD:
            if len(known.shown) == 2:  # both rejected: the first three taken back
                known.taken, known.talon = known.shown
            elif known.shown:
                known.talon = known.shown[0]
            else:
                known.hidden_talon = d.THREE
        elif view.contract == d.SIXTH:
            known.hidden_talon = self.variant.talon_size
        elif view.contract == d.VARSAVA:
            known.talon, known.hidden_talon = given, self.variant.talon_size - len(given)

    def _pins(self, view: View, known: Known) -> dict[Card, int]:
        """Cards whose holder the facts show: the taroks above the called one (the declarer
        held them to call it), the called tarok of a known partner, an announced pagat."""
        pins: dict[Card, int] = {}
        called = DECK.by_code.get(view.called)
        if called is not None and view.declarer is not None:
            for rank in CALL_RANKS:
                if rank > called.rank:
                    pins[Card(TAROK, rank)] = view.declarer
            partners = [p for p in view.partners if p != view.declarer]
            if partners:
                pins[called] = partners[0]
        for f in view.facts:
            if f.kind == MoveKind.ANNOUNCE and f.value == d.PAGAT and f.seat is not None:
                pins[Card(TAROK, PAGAT)] = f.seat
        seen = known.seen(view)
        return {c: s for c, s in pins.items() if c not in seen and s != view.seat}

    # --- the deal -----------------------------------------------------------------------

    def _deal(self, view: View, known: Known, rng: Rng) -> dict[int, list[Card]] | None:
        assert view.seat is not None
        seen = known.seen(view)
        unknown = [c for c in DECK.cards if c not in seen]
        capacity = {s: n for s, n in enumerate(view.hand_sizes) if s != view.seat}
        if known.hidden_talon:
            capacity[TALON_SLOT] = known.hidden_talon
        for seat, card in known.discards:
            if card is None:
                slot = discard_slot(seat)
                capacity[slot] = capacity.get(slot, 0) + 1
        voids = infer_voids((*completed_tricks(view), view.trick))
        for allowed in (self._allowed(view, known, voids), self._allowed(view, known, {})):
            dealt = deal_constrained(unknown, capacity, allowed, rng)
            if dealt is not None:
                if known.declared:
                    repair(dealt, allowed, self._cost(view, known), rng)
                return dealt
        return None

    def _allowed(self, view: View, known: Known, voids: dict[int, set[str]]) -> Allowed:
        declarer = view.declarer
        called = DECK.by_code.get(view.called)
        taken = set(known.taken)
        # a flek is the opponents', a reflek the declaring side's (it shows the partner)
        against = {f.seat for f in view.facts if f.kind == MoveKind.KONTRA} - {
            declarer,
            *view.partners,
        }

        def allowed(card: Card, slot: int) -> bool:
            if card in taken and slot not in (declarer, discard_slot(declarer or 0)):
                return False
            if slot <= DISCARDS:  # face down: a suit card, no king
                return not card.is_tarok and card.rank != KING and card not in known.pins
            if slot == TALON_SLOT:
                return card not in known.pins and card != called
            pin = known.pins.get(card)
            if pin is not None:
                return slot == pin
            if card == called and slot in against:
                return False
            return card.suit not in voids.get(slot, ())

        return allowed

    def _cost(self, view: View, known: Known) -> Cost:
        """How far each seat's hand as play began is from the declarations it made."""

        def cost(slot: int, cards: Sequence[Card]) -> int:
            declared = known.declared.get(slot)
            if declared is None or slot < 0:
                return 0
            return distance(declared, counts((*known.played[slot], *cards)))

        return cost

    # --- the state when play began ------------------------------------------------------

    def _start(
        self, view: View, rules: Rules, known: Known, dealt: dict[int, list[Card]]
    ) -> TarokyState:
        n = len(view.hand_sizes)
        hands = tuple(
            DECK.sort((*(view.hand if s == view.seat else dealt[s]), *known.played[s]))
            for s in range(n)
        )
        hidden = {s: iter(dealt.get(discard_slot(s), ())) for s in range(n)}
        discards = tuple((s, c if c is not None else next(hidden[s])) for s, c in known.discards)
        piles = tuple(tuple(c for who, c in discards if who == s) for s in range(n))
        declarer, called = view.declarer, DECK.by_code.get(view.called)
        holder = next((s for s, h in enumerate(hands) if called in h), None)
        if holder is None:  # laid away (face up) by its holder
            holder = next((s for s, c in discards if c == called), None)
        received = [(view.seat, c) for c in known.received]
        if declarer != view.seat:
            received += [(declarer, c) for c in known.taken]
        choices = [f.value for f in view.facts if f.kind == MoveKind.TALON]
        step = 1 if REJECT in choices else 0
        if view.contract == d.THIRD:
            multiplier = d.THIRD_MULTIPLIERS[step + (choices[-1:] == [REJECT])]
        else:
            multiplier = 1 if view.contract == d.VARSAVA else d.BY_ID[view.contract].multiplier
        return TarokyState(
            rules=rules, dealer=view.dealer, phase=TRICKS, turn=first_leader(view),
            hands=hands, talon=(*known.talon, *dealt.get(TALON_SLOT, ())), piles=piles,
            auction=_auction(view), contract=view.contract, declarer=declarer,
            called=called, partner=holder if holder != declarer else None,
            multiplier=multiplier, third_step=step, shown=known.shown, discards=discards,
            received=tuple((s, c) for s, c in received if s is not None),
            declarations=tuple((f.seat, f.value) for f in view.facts
                               if f.kind == DECLARATION and f.seat is not None),
            announced=tuple((f.value, f.seat) for f in view.facts
                            if f.kind == MoveKind.ANNOUNCE and f.seat is not None),
            levels=_levels(view),
            facts=view.facts,
        )  # fmt: skip


def _levels(view: View) -> tuple[tuple[str, int], ...]:
    """The flek level of the game part, from the kontra facts."""
    flek = sum(1 for f in view.facts if f.kind == MoveKind.KONTRA)
    return ((d.GAME, flek),) if flek else ()


def _auction(view: View) -> Auction:
    """The auction of obligations replayed from the bid and pass facts."""
    n = len(view.hand_sizes)
    auction = Auction((view.dealer + 1) % n, (None,) * n)
    for f in view.facts:
        if f.seat is None or f.value == d.VARSAVA:
            continue
        if f.kind == MoveKind.PASS:
            auction = auction.bid(f.seat, PASSED)
        elif f.kind == MoveKind.BID and f.value in d.OBLIGATION_INDEX:
            auction = auction.bid(f.seat, d.OBLIGATION_INDEX[f.value])
    return auction


def counts(hand: Sequence[Card]) -> Counts:
    """(taroks, suit kings, trul cards) of a hand."""
    taroks = sum(1 for c in hand if c.is_tarok)
    kings = sum(1 for c in hand if c.rank == KING and not c.is_tarok)
    return taroks, kings, sum(1 for c in hand if c in TRUL)


_FEASIBLE: dict[tuple[str, ...], list[Counts]] = {}
_DISTANCE: dict[tuple[tuple[str, ...], Counts], int] = {}


def feasible(declared: tuple[str, ...]) -> list[Counts]:
    """Every (taroks, kings, trul cards) of a 12-card hand that makes exactly `declared`."""
    if declared not in _FEASIBLE:
        trul = sorted(TRUL)
        out = []
        for taroks in range(13):
            for kings in range(min(4, 12 - taroks) + 1):
                for t in range(min(3, taroks) + 1):
                    hand = [*trul[:t], *(Card(TAROK, r) for r in range(2, 2 + taroks - t))]
                    hand += [Card(s, KING) for s in "HDCS"[:kings]]
                    if tuple(declarations(hand)) == declared:
                        out.append((taroks, kings, t))
        _FEASIBLE[declared] = out
    return _FEASIBLE[declared]


def distance(declared: tuple[str, ...], have: Counts) -> int:
    """How many cards a hand with these counts is from one that makes `declared` (0: it does)."""
    key = (declared, have)
    if key not in _DISTANCE:
        options = feasible(declared)
        _DISTANCE[key] = min(
            (sum(abs(a - b) for a, b in zip(have, c, strict=True)) for c in options), default=0
        )
    return _DISTANCE[key]
