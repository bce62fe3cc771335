"""What the cards a view shows reveal, for any reader of a view (bots, samplers): the completed
tricks, the voids they prove, the called cards and how the talon was split. Pure functions of
the view."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import FOOL, TAROK, Card, Deck
from .moves import MoveKind
from .state import Play
from .view import View


def completed_tricks(view: View) -> tuple[tuple[Play, ...], ...]:
    """The plays of every completed trick the view shows (only the last one in rule sets whose
    views do not list the tricks)."""
    if view.tricks:
        return tuple(tr.plays for tr in view.tricks)
    return (view.last_trick,) if view.last_trick else ()


def talon_split(view: View) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(the talon group the declarer took, the talon cards left) when the talon was exposed and
    the exchange is over (a `talon:<i>` fact and one `discard` fact per card taken); else
    ((), ())."""
    talon = next((g.cards for g in view.public if g.name == "talon"), ())
    pick = next(
        (f.value for f in view.facts if f.kind == MoveKind.TALON and f.value.isdigit()), None
    )
    size = sum(1 for f in view.facts if f.kind == MoveKind.DISCARD)
    if view.phase == "talon" or not talon or pick is None or size == 0 or len(talon) % size:
        return (), ()
    start = int(pick) * size
    return talon[start : start + size], talon[:start] + talon[start + size :]


def called_cards(view: View, deck: Deck) -> tuple[Card, ...]:
    """The cards named by the call (empty when nothing was called or the value is not a code)."""
    return tuple(deck.by_code[v] for v in view.called.split(",") if v in deck.by_code)


def infer_voids(plays_by_trick: Iterable[Sequence[Play]]) -> dict[int, set[str]]:
    """Suits each seat has shown to be out of: a seat that did not follow the led suit has none
    of it, and one that played neither that suit nor a tarok has no taroks either."""
    voids: dict[int, set[str]] = {}
    for plays in plays_by_trick:
        real = [(s, c) for s, c in plays if c.suit != FOOL]
        if not real:
            continue
        led = real[0][1].suit
        for seat, card in real[1:]:
            if card.suit != led:
                voids.setdefault(seat, set()).add(led)
                if card.suit != TAROK:
                    voids[seat].add(TAROK)
    return voids
