"""A `Sampler` for French Tarot: rebuild a `TarotState` from one seat's view in trick play.

The hands as play began are dealt at random: the cards the seat has not seen played or laid
away go to the other hands and to the hidden chien or écart, then the tricks the view shows
are replayed through the rules.

What the view shows about hidden cards:
- the chien turned up in prise and garde: each of its cards not played is in the taker's hand
  or in his écart;
- a poignée: its cards are its owner's; one that includes the excuse says its owner held no
  other trump;
- a misère (option): of trumps, its declarer was dealt no trump; of heads, no figure;
- the écart (hidden from the others in prise and garde) holds no king, no bout and no trump
  that was not shown; the chien of a garde sans or contre may hold anything;
- trick play: a seat that did not follow the suit led has none; one that did not trump has no
  trump; one that played a trump no higher than the best trump in the trick, or none at all,
  has no trump above it.
When no deal meeting the trick-play facts is found in a number of tries, they are dropped (the
other facts stay).
"""

from __future__ import annotations

from ...engine.cards import TAROK, Card
from ...engine.fastcopy import evolve
from ...engine.inference import completed_tricks, infer_voids
from ...engine.moves import MoveKind
from ...engine.options import Rules
from ...engine.sampling import (
    DISCARD_SLOT,
    TALON_SLOT,
    Allowed,
    Rng,
    deal_constrained,
    played_by_seat,
    replay,
)
from ...engine.state import Play
from ...engine.view import View
from . import data as d
from .rules import FRENCH_TAROT, FrenchTarot
from .state import Phase, TarotState

DECK = d.DECK


class TarotSampler:
    """Samples French Tarot hands from a seat's view."""

    def __init__(self, variant: FrenchTarot = FRENCH_TAROT) -> None:
        self.variant = variant

    def team(self, state: TarotState) -> tuple[int, ...]:
        return state.attack()

    def sample(self, view: View, rules: Rules, rng: Rng) -> TarotState | None:
        if view.phase != Phase.TRICKS or view.seat is None or view.declarer is None:
            return None
        if view.last_trick and not view.tricks:  # a view without the trick history
            return None
        seat, taker, n = view.seat, view.declarer, len(view.hand_sizes)
        groups = {(g.name, g.seat): g.cards for g in view.public}
        chien_size = d.TABLES[n].chien
        played = played_by_seat(view)
        seen = set(view.hand) | {c for cards in played.values() for c in cards}
        seen |= set(groups.get(("ecart", taker), ()))  # the écart is out of play
        capacity = {s: k for s, k in enumerate(view.hand_sizes) if s != seat}
        with_chien = view.contract in d.WITH_CHIEN
        shown_ecart = groups.get(("ecart", taker), ())
        if with_chien and seat != taker:
            capacity[DISCARD_SLOT] = chien_size - len(shown_ecart)
        elif not with_chien:
            capacity[TALON_SLOT] = chien_size
        unknown = [c for c in DECK.cards if c not in seen]
        dealt = deal_constrained(
            unknown, capacity, _allowed(view, groups, taker), rng, tries=60
        ) or deal_constrained(unknown, capacity, _allowed(view, groups, taker, loose=True), rng)
        if dealt is None:
            return None
        hands = tuple(
            DECK.sort((*(view.hand if s == seat else dealt[s]), *played[s])) for s in range(n)
        )
        if with_chien:
            chien = groups.get(("chien", None), ())
            ecart = shown_ecart if seat == taker else (*shown_ecart, *dealt[DISCARD_SLOT])
        else:
            chien, ecart = DECK.sort(dealt[TALON_SLOT]), ()
        called = DECK.by_code.get(view.called) if view.called else None
        holder = next((s for s, h in enumerate(hands) if called is not None and called in h), None)
        state = TarotState(
            rules=rules, dealer=view.dealer, phase=Phase.TRICKS, turn=None, hands=hands,
            talon=() if with_chien else DECK.sort(chien),
            chien=DECK.sort(chien) if with_chien else (),
            piles=tuple(DECK.sort(ecart) if s == taker else () for s in range(n)),
            dealt=hands, spoken=n,
            contract=view.contract, taker=taker, called=called,
            partner=None if holder == taker else holder, ecart=DECK.sort(ecart),
            chelem_announced=any(f.value == d.CHELEM for f in view.facts), declared=n,
            poignees=_poignees(view, groups), miseres=_miseres(view), facts=view.facts,
        )  # fmt: skip
        return replay(self.variant, view, _started(state))


def _started(s: TarotState) -> TarotState:
    return evolve(s, turn=s.first_leader())


def _poignees(
    view: View, groups: dict[tuple[str, int | None], tuple[Card, ...]]
) -> tuple[tuple[int, str, tuple[Card, ...]], ...]:
    return tuple(
        (f.seat, f.value, groups.get(("poignee", f.seat), ()))
        for f in view.facts
        if f.kind == MoveKind.ANNOUNCE and f.value in d.POIGNEES and f.seat is not None
    )


def _miseres(view: View) -> tuple[tuple[int, str], ...]:
    return tuple(
        (f.seat, f.value)
        for f in view.facts
        if f.kind == MoveKind.ANNOUNCE and f.value in d.MISERES and f.seat is not None
    )


def _trump_caps(plays: tuple[Play, ...]) -> dict[int, int]:
    """The highest trump each seat may still hold: one that played a trump below the best
    trump already in the trick had none above it (the duty to overtrump)."""
    cap: dict[int, int] = {}
    best = 0
    for seat, card in plays:
        if card.suit != TAROK:
            continue
        if card.rank < best:
            cap[seat] = best
        best = max(best, card.rank)
    return cap


def _allowed(
    view: View,
    groups: dict[tuple[str, int | None], tuple[Card, ...]],
    taker: int,
    loose: bool = False,
) -> Allowed:
    """Where each hidden card may lie; `loose` drops what trick play showed (for the rare
    deal the random placement cannot complete)."""
    tricks = () if loose else (*completed_tricks(view), view.trick)
    voids = infer_voids(tricks)  # not following suit, then not trumping
    caps: dict[int, int] = {}
    for plays in tricks:
        for seat, rank in _trump_caps(plays).items():
            caps[seat] = min(caps.get(seat, 21), rank)
    for (name, owner), cards in groups.items():
        if name == "poignee" and owner is not None and d.EXCUSE in cards:
            voids.setdefault(owner, set()).add(TAROK)
    pins = {c: owner for (name, owner), cards in groups.items() if name == "poignee" for c in cards}
    chien = set(groups.get(("chien", None), ()))
    heads: set[int] = set()
    for seat, kind in _miseres(view):
        if kind == d.MISERE_TRUMPS:
            voids.setdefault(seat, set()).add(TAROK)
        else:
            heads.add(seat)

    def allowed(card: Card, slot: int) -> bool:
        if card in pins:
            return slot == pins[card]
        if card in chien and slot not in (taker, DISCARD_SLOT):
            return False
        if slot == DISCARD_SLOT:
            return card.suit != TAROK and card not in d.BOUTS and card.rank != d.KING
        if slot == TALON_SLOT:
            return True
        if card == d.EXCUSE:
            return True
        if card.suit in voids.get(slot, ()):
            return False
        if card.suit == TAROK and card.rank > caps.get(slot, 21):
            return False
        return not (slot in heads and card.suit != TAROK and card.rank >= d.JACK)

    return allowed
