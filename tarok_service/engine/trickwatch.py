"""What a rule set's trick hooks act on (`TrickPlay.trick_watch`): the fast replay skips
`after_trick` and `hand_over` on the tricks its watch leaves quiet, and gives the talon
gifts a watch names itself."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import Card, Deck


class TrickWatch:
    """What a rule set's trick hooks may act on, from some state between two tricks on: a
    trick is *quiet* when play does not end with it (a card is left in some hand), `every`
    is False, none of its cards is one of `cards`, it does not hold both one of `together[0]`
    and one of `together[1]`, and its winner is not one of `winners`.
    After a quiet trick `after_trick` must give back the very state it was given and
    `hand_over` must be False: the fast paths skip both hooks there (and build no state for
    the trick). The watch is asked again after every trick that is not quiet.

    `gifts`: while the talon lasts, `after_trick` gives its first card to the winner of every
    trick (`TrickPlay.give_talon`, the rule set's only other effect on a quiet trick); a
    trick is quiet as above, and the fast paths give those cards themselves. The watch's
    `cards`, `together` and `winners` must also hold for the tricks after the talon is gone."""

    __slots__ = ("_compiled", "cards", "every", "gifts", "together", "winners")

    def __init__(
        self,
        every: bool = False,
        cards: Iterable[Card] = (),
        winners: Iterable[int] = (),
        gifts: bool = False,
        together: tuple[Iterable[Card], Iterable[Card]] = ((), ()),
    ) -> None:
        self.every = every
        self.cards = tuple(cards)
        self.together = (tuple(together[0]), tuple(together[1]))
        self.winners = frozenset(winners)
        self.gifts = gifts
        self._compiled: Compiled | None = None  # compiled_watch


EVERY_TRICK = TrickWatch(every=True)
QUIET = TrickWatch()

_WATCH_OWNERS: dict[type, bool] = {}

Pair = tuple[frozenset[str], frozenset[str]]  # the codes of a watch's `together` cards
# a watch for one deck: the deck, the codes of `cards`, of `together` (or None), of them all
Compiled = tuple[Deck, frozenset[str], Pair | None, frozenset[str]]


def compiled_watch(
    variant: Any, state: Any, deck: Deck
) -> tuple[bool, frozenset[str], Pair | None, frozenset[str], frozenset[int], bool]:
    """The rule set's watch from `state` as (every, the codes of the watched cards, the codes
    of the `together` cards (None when either side is empty), every code of those two (a
    trick holding none of them is not watched for its cards), winners, gifts). Every trick
    is watched when a subclass overrides `after_trick` or `hand_over` below the class that
    defines `trick_watch` (its watch may not know them)."""
    own = type(variant)
    trusted = _WATCH_OWNERS.get(own)
    if trusted is None:
        trusted = _WATCH_OWNERS[own] = watch_knows_hooks(own)
    watch = variant.trick_watch(state) if trusted else EVERY_TRICK
    compiled = watch._compiled
    if compiled is None or compiled[0] is not deck:
        codes = deck.codes
        first, second = ({codes[c] for c in side} for side in watch.together)
        pair = (frozenset(first), frozenset(second)) if first and second else None
        cards = frozenset(codes[c] for c in watch.cards)
        compiled = watch._compiled = (deck, cards, pair, cards.union(*pair or ()))
    return watch.every, compiled[1], compiled[2], compiled[3], watch.winners, watch.gifts


def watch_knows_hooks(own: type) -> bool:
    """Whether the class defining `trick_watch` in `own` is (a subclass of) the classes
    defining `after_trick` and `hand_over` - whether its watch can know them."""

    def owner(name: str) -> type:
        return next(k for k in own.__mro__ if name in k.__dict__)

    watcher = owner("trick_watch")
    return issubclass(watcher, owner("after_trick")) and issubclass(watcher, owner("hand_over"))
