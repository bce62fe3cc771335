"""A `Sampler` for Zwanzigerrufen: rebuild a `ZwanzigerState` from one seat's view.

Only trick play is sampled. The dealt hands are rebuilt (there is no talon: each seat's cards
still held plus those it played), the auction is replayed from the public facts (a pass leaves
no fact, so every seat between two facts passed), and the tricks the view shows are replayed
through the engine, so that the called tarok's holder, the additions, the kontra levels and a
mondfang come out exactly as the rules make them.

What the auction shows about hidden cards:
- a call of XIX..XVI: the caller holds every callable tarok above it, and not the called one;
- the partner, once known, holds the called tarok; a seat that spoke against the caller's
  side does not;
- an announced pagat (for either side): the announcer holds the pagat;
- a colour-solo bid: the bidder held that many suit cards;
- a call game nobody kontra'd (and no valat announced): no opponent holds the whole trull,
  since he would have had to kontra;
- nobody threw the hand in: every hand has two taroks or more and not all four Glatzen.
The last three are checked on the whole deal (drawn again when they fail). Trick play shows
voids; in a colour solo a tarok may not be led while holding a suit card, so a seat that led
one held no suit card any more; an announced pagat
played before the last trick was its holder's last tarok.
"""

from __future__ import annotations

from ...engine.cards import TAROK, Card, Deck
from ...engine.inference import called_cards, completed_tricks, infer_voids
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.sampling import (
    Allowed,
    Rng,
    deal_checked,
    deal_constrained,
    played_by_seat,
    replay,
)
from ...engine.view import View
from . import data as d
from .auction import suit_cards
from .rules import ZWANZIGERRUFEN, Zwanzigerrufen, needs_redeal
from .state import CALLED, Phase, ZwanzigerState
from .view import shows_playing_side

PAGAT_CARD = d.TRULL_CARDS[0]


class ZwanzigerSampler:
    """Samples Zwanzigerrufen hands from a seat's view."""

    def __init__(self, variant: Zwanzigerrufen = ZWANZIGERRUFEN) -> None:
        self.variant = variant

    def team(self, state: ZwanzigerState) -> tuple[int, ...]:
        return state.team()

    def sample(self, view: View, rules: Rules, rng: Rng) -> ZwanzigerState | None:
        if view.phase != Phase.TRICKS or view.seat is None or view.declarer is None:
            return None
        if view.last_trick and not view.tricks:  # a view without the trick history
            return None
        seat = view.seat
        deck = self.variant.deck(rules)
        played = played_by_seat(view)
        seen = set(view.hand) | {c for cards in played.values() for c in cards}
        unknown = [c for c in deck.cards if c not in seen]
        capacity = {s: n for s, n in enumerate(view.hand_sizes) if s != seat}
        pins, barred = self._pins(view, deck)
        strict = _allowed(pins, barred, self._voids(view, deck))
        loose = _allowed(pins, barred, {})

        def dealt_hands(dealt: dict[int, list[Card]]) -> tuple[tuple[Card, ...], ...]:
            return tuple(
                deck.sort((*(view.hand if s == seat else dealt[s]), *played[s]))
                for s in range(len(view.hand_sizes))
            )

        def plausible(dealt: dict[int, list[Card]]) -> bool:
            return self._plausible(view, rules, dealt_hands(dealt))

        dealt = (
            deal_checked(unknown, capacity, strict, plausible, rng, attempts=40)
            or deal_constrained(unknown, capacity, strict, rng)
            or deal_constrained(unknown, capacity, loose, rng)
        )
        if dealt is None:
            return None
        start = self._auction(view, rules, dealt_hands(dealt))
        return None if start is None else replay(self.variant, view, start)

    # --- what the facts pin down --------------------------------------------------------

    @staticmethod
    def _pins(view: View, deck: Deck) -> tuple[dict[Card, int], dict[Card, set[int]]]:
        """(card -> the seat known to hold it, card -> seats known not to hold it). While a
        call game stands, a seat (not the caller) speaking for the caller's side holds the
        called tarok and one speaking against it does not."""
        pins: dict[Card, int] = {}
        barred: dict[Card, set[int]] = {}
        call: tuple[Card, int] | None = None  # the called tarok and the caller, while it stands
        for f in view.facts:
            if f.seat is None:
                continue
            side = shows_playing_side(f)
            if f.kind == MoveKind.BID:
                call = None
            elif f.kind == CALLED and f.value in deck.by_code:
                call = deck.by_code[f.value], f.seat
                barred.setdefault(call[0], set()).add(f.seat)
                for rank in d.CALLABLE_RANKS:
                    if rank == call[0].rank:
                        break
                    pins[Card(TAROK, rank)] = f.seat
            elif call is not None and side is False:
                barred.setdefault(call[0], set()).add(f.seat)
            elif call is not None and side and f.seat != call[1]:
                pins[call[0]] = f.seat
            if f.kind == MoveKind.ANNOUNCE and d.base_addition(f.value) == d.PAGAT_ITEM:
                pins[PAGAT_CARD] = f.seat
        called = called_cards(view, deck)
        partners = [p for p in view.partners if p != view.declarer]
        if called and partners:
            pins[called[0]] = partners[0]
        return pins, barred

    @staticmethod
    def _voids(view: View, deck: Deck) -> dict[int, set[str]]:
        """Suits each seat is out of: shown by not following; in a colour solo by leading a
        tarok; and by playing an announced pagat before the last trick (it must be kept
        while another card is legal, so it was the seat's last tarok)."""
        plays = (*completed_tricks(view), view.trick)
        voids = infer_voids(plays)
        if view.contract == d.COLOUR_SOLO:
            suits = {c.suit for c in deck.cards if not c.is_tarok}
            for trick in plays:
                if trick and trick[0][1].is_tarok:
                    voids.setdefault(trick[0][0], set()).update(suits)
        last_bid = max((i for i, f in enumerate(view.facts) if f.kind == MoveKind.BID), default=0)
        keepers = {
            f.seat
            for f in view.facts[last_bid:]
            if f.kind == MoveKind.ANNOUNCE and d.base_addition(f.value) == d.PAGAT_ITEM
        }
        for trick in plays[: d.TRICKS - 1]:
            for seat, card in trick:
                if card == PAGAT_CARD and seat in keepers:
                    voids.setdefault(seat, set()).add(TAROK)
        return voids

    @staticmethod
    def _plausible(view: View, rules: Rules, hands: tuple[tuple[Card, ...], ...]) -> bool:
        """The conditions on whole dealt hands that the auction shows (see the module doc)."""
        if any(needs_redeal(h) for h in hands):
            return False
        need = rules.num("colour_solo_min_suits")
        solo = [f.seat for f in view.facts if f.kind == MoveKind.BID and f.value == d.COLOUR_SOLO]
        if any(s is not None and suit_cards(hands[s]) < need for s in solo):
            return False
        if view.contract != d.CALL or rules.num("max_kontra") == 0:
            return True
        kontra = any(f.kind == MoveKind.KONTRA and f.value == d.GAME for f in view.facts)
        valat = any(
            f.kind == MoveKind.ANNOUNCE and d.base_addition(f.value) == d.VALAT for f in view.facts
        )
        if kontra or valat:
            return True
        by_code = ZWANZIGERRUFEN.deck(rules).by_code
        called = next((by_code.get(f.value) for f in view.facts if f.kind == CALLED), None)
        side = {view.declarer, *(s for s, h in enumerate(hands) if called in h)}
        return not any(
            all(c in h for c in d.TRULL_CARDS) for s, h in enumerate(hands) if s not in side
        )

    # --- the state when play began ------------------------------------------------------

    def _auction(
        self, view: View, rules: Rules, hands: tuple[tuple[Card, ...], ...]
    ) -> ZwanzigerState | None:
        """The auction replayed from the facts over the dealt hands; None when it does not
        give the view's facts."""
        n = len(hands)
        forehand = (view.dealer + 1) % n
        state = ZwanzigerState(
            rules=rules, dealer=view.dealer, phase=Phase.AUCTION, turn=forehand, hands=hands,
            talon=(), piles=((),) * n, dealt=hands,
        )  # fmt: skip
        moves = [(f.seat, _move(f.kind, f.value)) for f in view.facts if f.kind != CALLED]
        i = 0
        while state.phase == Phase.AUCTION:
            if i < len(moves) and moves[i][0] == state.turn:
                move, i = moves[i][1], i + 1
            else:  # no more statements this turn: end it, or it was a pass
                move = Move(MoveKind.END) if state.speaking else Move(MoveKind.PASS)
            state = self.variant.apply(state, move, check=False)
        if i != len(moves) or state.facts != view.facts or state.phase != Phase.TRICKS:
            return None
        return state


def _move(kind: str, value: str) -> Move:
    """The auction move that made a fact (an announcement's fact names the side's item)."""
    return Move(kind, d.base_addition(value) if kind == MoveKind.ANNOUNCE else value)


def _allowed(
    pins: dict[Card, int], barred: dict[Card, set[int]], voids: dict[int, set[str]]
) -> Allowed:
    def allowed(card: Card, slot: int) -> bool:
        pin = pins.get(card)
        if pin is not None:
            return slot == pin
        if slot in barred.get(card, ()):
            return False
        return card.suit not in voids.get(slot, ())

    return allowed
