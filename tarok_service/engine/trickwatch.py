"""What a rule set's trick hooks act on (`TrickPlay.trick_watch`): the fast replay skips
`after_trick` and `hand_over` on the tricks its watch leaves quiet."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import Card, Deck


class TrickWatch:
    """What a rule set's trick hooks may act on, from some state between two tricks on: a
    trick is *quiet* when play does not end with it (a card is left in some hand), `every`
    is False, none of its cards is one of `cards` and its winner is not one of `winners`.
    After a quiet trick `after_trick` must give back the very state it was given and
    `hand_over` must be False: the fast paths skip both hooks there (and build no state for
    the trick). The watch is asked again after every trick that is not quiet."""

    __slots__ = ("_compiled", "cards", "every", "winners")

    def __init__(
        self, every: bool = False, cards: Iterable[Card] = (), winners: Iterable[int] = ()
    ) -> None:
        self.every = every
        self.cards = tuple(cards)
        self.winners = frozenset(winners)
        self._compiled: tuple[Deck, dict[int, Card]] | None = None  # see `compiled_watch`


EVERY_TRICK = TrickWatch(every=True)
QUIET = TrickWatch()

_WATCH_OWNERS: dict[type, bool] = {}


def compiled_watch(
    variant: Any, state: Any, deck: Deck
) -> tuple[bool, dict[int, Card], frozenset[int]]:
    """The rule set's watch from `state` as (every, the watched cards by identity - the deck's
    own objects -, winners). Every trick is watched when a subclass overrides `after_trick`
    or `hand_over` below the class that defines `trick_watch` (its watch may not know them)."""
    own = type(variant)
    trusted = _WATCH_OWNERS.get(own)
    if trusted is None:
        trusted = _WATCH_OWNERS[own] = watch_knows_hooks(own)
    watch = variant.trick_watch(state) if trusted else EVERY_TRICK
    compiled = watch._compiled
    if compiled is None or compiled[0] is not deck:
        cards = [deck.cards[deck.index[c]] for c in watch.cards]  # the deck's own objects
        compiled = watch._compiled = (deck, {id(c): c for c in cards})
    return watch.every, compiled[1], watch.winners


def watch_knows_hooks(own: type) -> bool:
    """Whether the class defining `trick_watch` in `own` is (a subclass of) the classes
    defining `after_trick` and `hand_over` - whether its watch can know them."""

    def owner(name: str) -> type:
        return next(k for k in own.__mro__ if name in k.__dict__)

    watcher = owner("trick_watch")
    return issubclass(watcher, owner("after_trick")) and issubclass(watcher, owner("hand_over"))
