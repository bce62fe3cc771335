"""A `Sampler` for the Slovenian family: rebuild a `SlovenianState` from one seat's view.

Only the trick-play phase is sampled. The state is rebuilt as it stood when play began (each
seat's hand = the cards it still holds plus those it played), then the tricks the view shows
are replayed through the engine, so that piles, talon cards won back, klop gifts and a caught
mond come out exactly as the rules make them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.auction import PASSED, Auction
from ...engine.cards import KING, PAGAT, TAROK, Card, Deck
from ...engine.inference import called_cards, completed_tricks, infer_voids, talon_split
from ...engine.moves import MoveKind
from ...engine.options import Rules
from ...engine.sampling import DISCARD_SLOT, TALON_SLOT, Allowed, Rng, deal_constrained, replay
from ...engine.state import TRICKS
from ...engine.view import View
from .exchange import FREE_PICK
from .rules import SLOVENIAN, SlovenianFamily, SlovenianState


@dataclass(frozen=True)
class Known:
    """What the view pins down about where the cards are."""

    hands: dict[int, tuple[Card, ...]]  # seats whose whole hand is seen (own; open beggar)
    played: dict[int, list[Card]]  # cards each seat has played this hand, in order
    exposed: tuple[Card, ...]  # the face-up talon (contracts with an exchange)
    picked: tuple[Card, ...]  # the talon group the declarer took
    rest: tuple[Card, ...]  # the talon cards left lying
    gifts: tuple[Card, ...]  # klop: talon cards given to trick winners so far
    discards: tuple[Card, ...]  # the declarer's discards this seat saw
    hidden_discards: int
    hidden_talon: int
    pins: dict[Card, int]  # card -> the seat known to hold it


class SlovenianSampler:
    """Samples Slovenian hands (and rule sets sharing its state, given their variant)."""

    def __init__(self, variant: SlovenianFamily = SLOVENIAN) -> None:
        self.variant = variant

    def team(self, state: SlovenianState) -> tuple[int, ...]:
        return state.team()

    def sample(self, view: View, rules: Rules, rng: Rng) -> SlovenianState | None:
        if view.phase != TRICKS or view.seat is None or not view.contract:
            return None
        if view.last_trick and not view.tricks:  # a view without the trick history
            return None
        deck = self.variant.deck(rules)
        known = self._known(view, deck)
        dealt = self._deal(view, deck, known, rng)
        if dealt is None:
            return None
        start = self._start(view, rules, deck, known, dealt)
        return replay(self.variant, view, start)

    # --- what is known ------------------------------------------------------------------

    def _known(self, view: View, deck: Deck) -> Known:
        assert view.seat is not None
        groups = {g.name: g for g in view.public}
        hands = {view.seat: view.hand}
        shown = groups.get("declarer's hand")
        if shown is not None and shown.seat is not None and shown.seat != view.seat:
            hands[shown.seat] = shown.cards
        played: dict[int, list[Card]] = {s: [] for s in range(len(view.hand_sizes))}
        for plays in (*completed_tricks(view), view.trick):
            for seat, card in plays:
                played[seat].append(card)
        exposed = groups["talon"].cards if "talon" in groups else ()
        picked, rest = talon_split(view)
        gifts = groups["talon cards given"].cards if "talon cards given" in groups else ()
        discards = groups["discards"].cards if "discards" in groups else ()
        n_discards = sum(1 for f in view.facts if f.kind == MoveKind.DISCARD)
        talon = 0 if exposed else self.variant.talon_size - len(gifts)
        return Known(
            hands, played, exposed, picked, rest, gifts, discards,
            n_discards - len(discards), talon, self._pins(view, deck),
        )  # fmt: skip

    def _pins(self, view: View, deck: Deck) -> dict[Card, int]:
        """Cards whose holder the facts show: an announced pagat or king ultimo, a partner
        who has shown himself."""
        pins: dict[Card, int] = {}
        called = called_cards(view, deck)
        for f in view.facts:
            if f.kind == MoveKind.ANNOUNCE and f.seat is not None:
                if f.value == "pagat_ultimo":
                    pins[Card(TAROK, PAGAT)] = f.seat
                elif f.value == "king_ultimo" and called:
                    pins[called[0]] = f.seat
        partners = [p for p in view.partners if p != view.declarer]
        if called and len(partners) == 1:
            pins.setdefault(called[0], partners[0])
        return pins

    # --- the deal -----------------------------------------------------------------------

    def _deal(self, view: View, deck: Deck, known: Known, rng: Rng) -> dict[int, list[Card]] | None:
        seen = {c for h in known.hands.values() for c in h}
        seen |= {c for cards in known.played.values() for c in cards}
        seen |= set(known.discards) | set(known.gifts) | set(known.rest)
        unknown = [c for c in deck.cards if c not in seen]
        capacity = {
            s: n - len(known.hands[s]) if s in known.hands else n
            for s, n in enumerate(view.hand_sizes)
        }
        capacity[TALON_SLOT] = known.hidden_talon
        capacity[DISCARD_SLOT] = known.hidden_discards
        capacity = {s: n for s, n in capacity.items() if n or s >= 0}
        voids = infer_voids((*completed_tricks(view), view.trick))
        strict = self._allowed(view, deck, known, voids)
        loose = self._allowed(view, deck, known, {})
        return deal_constrained(unknown, capacity, strict, rng) or deal_constrained(
            unknown, capacity, loose, rng
        )

    def _allowed(self, view: View, deck: Deck, known: Known, voids: dict[int, set[str]]) -> Allowed:
        called = set(called_cards(view, deck))
        picked = set(known.picked)
        # an opponent's kontra on the game, or any re/mort by a seat not shown as a partner
        # (a partner's re/mort would have shown him): such a seat holds no called card
        against = {
            f.seat
            for f in view.facts
            if f.kind == MoveKind.KONTRA
            and ((f.value == "game" and f.level % 2) or f.level % 2 == 0)
        } - {view.declarer, *view.partners}

        def allowed(card: Card, slot: int) -> bool:
            if slot == DISCARD_SLOT:
                return not card.is_tarok and card.rank != KING
            if card in picked:
                return slot == view.declarer
            if slot == TALON_SLOT:
                return card not in known.pins
            pin = known.pins.get(card)
            if pin is not None:
                return slot == pin
            if card in called and slot in against:
                return False
            return card.suit not in voids.get(slot, ())

        return allowed

    # --- the state when play began ------------------------------------------------------

    def _start(
        self, view: View, rules: Rules, deck: Deck, known: Known, dealt: dict[int, list[Card]]
    ) -> SlovenianState:
        v = self.variant
        n = len(view.hand_sizes)
        hands = tuple(
            deck.sort((*known.hands.get(s, ()), *dealt.get(s, ()), *known.played[s]))
            for s in range(n)
        )
        hidden_talon = tuple(dealt.get(TALON_SLOT, ()))
        talon = known.rest if known.exposed else (*known.gifts, *hidden_talon)
        discards = (*known.discards, *dealt.get(DISCARD_SLOT, ()))
        declarer = view.declarer
        piles = tuple(discards if s == declarer else () for s in range(n))
        contract = v.contract_index[view.contract]
        called = called_cards(view, deck)
        exposed = set(known.exposed)
        pick = next((f.value for f in view.facts if f.kind == MoveKind.TALON), None)
        group = None if pick is None else FREE_PICK if pick in deck.by_code else int(pick)
        return SlovenianState(
            rules=rules, dealer=view.dealer, phase=TRICKS, turn=self._leader(view),
            hands=hands, talon=tuple(talon), piles=piles,
            auction=_auction(view, v), contract=contract, declarer=declarer,
            called=called, partners=self._partners(declarer, called, exposed, hands),
            talon_kings=tuple(c for c in called if c in exposed),
            exposed_talon=known.exposed,
            group=group,
            discards=discards,
            announced=tuple((f.value, f.seat) for f in view.facts
                            if f.kind == MoveKind.ANNOUNCE and f.seat is not None),
            levels=_levels(view),
            facts=view.facts,
        )  # fmt: skip

    @staticmethod
    def _partners(
        declarer: int | None,
        called: tuple[Card, ...],
        exposed: set[Card],
        hands: tuple[tuple[Card, ...], ...],
    ) -> tuple[int, ...]:
        """The holders of the called cards when they were called, other than the declarer (a
        called card in the talon has no holder)."""
        holders = {s for s, h in enumerate(hands) for c in called if c in h and c not in exposed}
        return tuple(sorted(holders - {declarer}))

    @staticmethod
    def _leader(view: View) -> int | None:
        if view.tricks:
            return view.tricks[0].leader
        return view.trick[0][0] if view.trick else view.turn


def _auction(view: View, v: SlovenianFamily) -> Auction:
    n = len(view.hand_sizes)
    bids: list[int | None] = [None] * n
    for f in view.facts:
        if f.kind in (MoveKind.BID, MoveKind.PASS) and f.seat is not None:
            bids[f.seat] = PASSED if f.value == "pass" else v.contract_index.get(f.value, PASSED)
    return Auction((view.dealer + 1) % n, tuple(bids))


def _levels(view: View) -> tuple[tuple[str, int], ...]:
    levels: dict[str, int] = {}
    for f in view.facts:
        if f.kind == MoveKind.KONTRA:
            levels.pop(f.value, None)
            levels[f.value] = f.level
    return tuple(levels.items())
