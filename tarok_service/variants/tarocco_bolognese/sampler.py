"""A `Sampler` for Tarocco Bolognese: rebuild a `BologneseState` from one seat's view.

Only trick play is sampled. The hands are rebuilt as they stood after the dealer's discard
(each seat's cards still held plus those it played), the dealer's two discards are dealt from
the cards nobody else has seen (never a king, the Angel, the World, the Bégato or the Matto),
the declarations are made again through the engine and the tricks the view shows replayed, so
that the Matto's return to its team comes out as the rules make it.

What the declarations show: a seat that declared holds the cards it showed, and exactly the
combinations it declared, so that no card that would add to them (a fourth king, the next
trump of a Grande) is dealt to it; a deal in which several hidden cards together would add a
combination (three queens) is drawn again. A pass shows nothing (it is always offered). Trick
play shows voids: a seat that did not follow the suit led has none of it, and none of the
trumps either if it played no trump; the Matto may always be played, so it shows nothing, and
when it is led the next card sets the suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.cards import Card
from ...engine.inference import completed_tricks, infer_voids
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.sampling import (
    DISCARD_SLOT,
    Allowed,
    Rng,
    deal_checked,
    deal_constrained,
    played_by_seat,
    repair,
    replay,
)
from ...engine.view import View
from .combinations import find
from .rules import (
    DEALER_EXTRA,
    DECK,
    KEPT_BACK,
    TAROCCO_BOLOGNESE,
    BologneseState,
    Phase,
    TaroccoBolognese,
)
from .scoring import TEAMS

DECLARED, DISCARDS = "declared", "discards"  # the public groups of the view
Hands = tuple[tuple[Card, ...], ...]


class BologneseSampler:
    """Samples Bolognese hands (and the dealer's hidden discards) from a seat's view."""

    def __init__(self, variant: TaroccoBolognese = TAROCCO_BOLOGNESE) -> None:
        self.variant = variant
        self._barred: dict[tuple[frozenset[Card], bool], frozenset[Card]] = {}

    def team(self, state: BologneseState) -> tuple[int, ...]:
        return TEAMS[0]  # fixed partnerships: seats 0 and 2 against 1 and 3

    def sample(self, view: View, rules: Rules, rng: Rng) -> BologneseState | None:
        if view.phase != Phase.TRICKS or view.seat is None:
            return None
        if view.last_trick and not view.tricks:  # a view without the trick history
            return None
        seat = view.seat
        played = played_by_seat(view)
        declared = {
            g.seat: g.cards for g in view.public if g.name == DECLARED and g.seat is not None
        }
        discards = next((g.cards for g in view.public if g.name == DISCARDS), ())
        seen = set(view.hand) | set(discards) | {c for cards in played.values() for c in cards}
        unknown = [c for c in DECK.cards if c not in seen]
        capacity = {s: n for s, n in enumerate(view.hand_sizes) if s != seat}
        if seat != view.dealer:
            capacity[DISCARD_SLOT] = DEALER_EXTRA
        flag = rules.flag("contatori_in_sets")
        pins = {c: s for s, cards in declared.items() for c in cards}
        barred = {s: self._extensions(cards, flag) for s, cards in declared.items()}
        voids = infer_voids((*completed_tricks(view), view.trick))
        strict = _allowed(pins, barred, voids)
        loose = _allowed(pins, barred, {})

        def hands_of(dealt: dict[int, list[Card]]) -> Hands:
            return tuple(
                DECK.sort((*(view.hand if s == seat else dealt[s]), *played[s]))
                for s in range(len(view.hand_sizes))
            )

        def declares_alike(dealt: dict[int, list[Card]]) -> bool:
            return self._declarations(view, rules, hands_of(dealt), ()) is not None

        dealt = deal_checked(unknown, capacity, strict, declares_alike, rng, attempts=6)
        for allowed in (strict, strict, loose):
            if dealt is None:
                dealt = self._repaired(unknown, capacity, allowed, played, declared, flag, rng)
        if dealt is None or not declares_alike(dealt):
            return None
        hidden = tuple(dealt.get(DISCARD_SLOT, ()))
        start = self._declarations(view, rules, hands_of(dealt), discards or hidden)
        return None if start is None else replay(self.variant, view, start)

    def _extensions(self, cards: tuple[Card, ...], flag: bool) -> frozenset[Card]:
        """The cards that, added to a declared group, would change its combinations (the seat
        that declared it cannot hold them)."""
        key = (frozenset(cards), flag)
        barred = self._barred.get(key)
        if barred is None:
            base = find(cards, flag)
            barred = frozenset(
                c for c in DECK.cards if c not in key[0] and find((*cards, c), flag) != base
            )
            if len(self._barred) > 256:
                self._barred.clear()
            self._barred[key] = barred
        return barred

    @staticmethod
    def _repaired(
        unknown: list[Card],
        capacity: dict[int, int],
        allowed: Allowed,
        played: dict[int, list[Card]],
        declared: dict[int, tuple[Card, ...]],
        flag: bool,
        rng: Rng,
    ) -> dict[int, list[Card]] | None:
        """A deal whose hidden cards were swapped about until every seat that declared holds
        just the combinations it declared (when drawing again keeps failing, e.g. a declared
        contatore makes any king and figure of a suit a sequence); None if that fails."""
        dealt = deal_constrained(unknown, capacity, allowed, rng)
        if dealt is None:
            return None
        goals = {s: find(cards, flag) for s, cards in declared.items()}

        def cost(slot: int, cards: Sequence[Card]) -> int:
            goal = goals.get(slot)
            if goal is None:
                return 0
            got = find((*cards, *played[slot]), flag)
            return 0 if got == goal else 1 + len(got.cards() - goal.cards())

        return dealt if repair(dealt, allowed, cost, rng) == 0 else None

    def _declarations(
        self, view: View, rules: Rules, hands: Hands, discards: tuple[Card, ...]
    ) -> BologneseState | None:
        """The state as trick play began: the declarations made again from `hands` (after the
        discard); None when they do not give the view's facts."""
        n = len(hands)
        piles = tuple(discards if s == view.dealer else () for s in range(n))
        state = BologneseState(
            rules=rules, dealer=view.dealer, phase=Phase.DECLARE, turn=(view.dealer + 1) % n,
            hands=hands, talon=(), piles=piles, discards=discards,
        )  # fmt: skip
        for f in view.facts:
            if state.phase != Phase.DECLARE:
                break
            if f.kind not in (MoveKind.DECLARE, MoveKind.PASS) or f.seat != state.turn:
                return None
            state = self.variant.apply(state, Move(f.kind), check=False)
        if state.phase != Phase.TRICKS or state.facts != view.facts[: len(state.facts)]:
            return None
        return state


def _allowed(
    pins: dict[Card, int], barred: dict[int, frozenset[Card]], voids: dict[int, set[str]]
) -> Allowed:
    def allowed(card: Card, slot: int) -> bool:
        pin = pins.get(card)
        if pin is not None:
            return slot == pin
        if slot == DISCARD_SLOT:
            return card not in KEPT_BACK
        if card in barred.get(slot, ()):
            return False
        return card.suit not in voids.get(slot, ())

    return allowed
