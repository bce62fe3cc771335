"""Playouts: a hand played to its end by a policy - the same moves as the pure loop

    while not s.finished: s = v.apply(s, pick(v.legal_moves(s)))

(`tests/engine/test_playout.py` holds them equal over every rule set for random moves),
faster: moves picked from the legal ones are applied unchecked through the phase hooks, and
trick play runs on bitmask hands in place, one state built per trick for the rule set's hooks
(`TrickPlay.complete_in_place`), the policy asked only for the card."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from . import tricks as t
from .bitcards import BitDeck, bit_deck
from .cards import Card
from .fastcopy import copier
from .moves import Move
from .state import TRICKS, HandState, Play
from .trickplay import TrickPlay
from .variant import Variant

T = TypeVar("T")


class Chooser(Protocol):
    """The source of the random choices (a seeded `random.Random`: the engine itself draws no
    randomness)."""

    def choice(self, seq: Sequence[T]) -> T: ...


def fast_choice(rng: Chooser) -> Callable[[Sequence[T]], T]:
    """`rng.choice`, drawing the same numbers. For the standard library's `random.Random`
    drawing its bounded integers the standard way (`getrandbits` of the bound's bit length
    until one is below it), in one Python frame instead of two: the playouts' most frequent
    call."""
    kind = type(rng)
    standard = _STANDARD.get(kind)
    if standard is None:
        standard = _STANDARD[kind] = _standard_choice(kind)
    if not standard:
        return rng.choice
    getrandbits: Callable[[int], int] = rng.getrandbits  # type: ignore[attr-defined]
    bit_length = _BIT_LENGTH

    def choice(seq: Sequence[T]) -> T:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        try:
            k = bit_length[n]
        except IndexError:
            k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    return choice


_BIT_LENGTH = tuple(n.bit_length() for n in range(256))  # a read is cheaper than the call
_STANDARD: dict[type, bool] = {}  # `_standard_choice` by the class of the random source


def _standard_choice(kind: type) -> bool:
    """Whether `choice` of the class of a random source is `random.Random.choice` over
    `_randbelow_with_getrandbits` (told by the functions' module and names: the engine does
    not import `random`)."""
    found = [getattr(kind, name, None) for name in ("choice", "_randbelow")]
    names = [(getattr(f, "__module__", None), getattr(f, "__qualname__", None)) for f in found]
    return names == [("random", "Random.choice"), ("random", "Random._randbelow_with_getrandbits")]


PickMove = Callable[[list[Move]], Move]
# (the state before the trick in play - the hand of the seat to play is current there -, the
# seat to play, its legal cards in the order of `legal_moves`, the plays of the trick so far)
PickCard = Callable[[HandState, int, list[Card], list[Play]], Card]
ChooseCard = Callable[[list[Card]], Card]  # a card policy that looks at the legal cards only


def random_playout(variant: Variant[Any], state: HandState, rng: Chooser) -> HandState:
    """The finished hand after uniformly random legal moves from `state`."""
    choice = fast_choice(rng)

    def pick_card(_: HandState, __: int, legal: list[Card], ___: list[Play]) -> Card:
        return choice(legal)

    return _playout(variant, state, choice, pick_card, choice)


def playout(
    variant: Variant[Any], state: HandState, pick_move: PickMove, pick_card: PickCard
) -> HandState:
    """The finished hand from `state`: card plays chosen by `pick_card`, other moves by
    `pick_move` (from the legal ones, in the order of `legal_moves`)."""
    return _playout(variant, state, pick_move, pick_card, None)


def _playout(
    variant: Variant[Any],
    state: HandState,
    pick_move: PickMove,
    pick_card: PickCard,
    choose: ChooseCard | None,
) -> HandState:
    """`playout`; `choose`: `pick_card` as a function of the legal cards alone, if it is one
    (the bitmask loop calls it without the other arguments)."""
    trick_play = variant if isinstance(variant, TrickPlay) else None
    fast = _PLAIN_PLAY.get(type(variant))
    if fast is None:
        fast = _PLAIN_PLAY[type(variant)] = trick_play is not None and plain_trick_play(trick_play)
    table = variant.checked_table()  # each phase's hooks (the kept table: no call a phase)
    while not state.finished:
        phase = state.phase
        hooks = table.get(phase) or variant.phase_rule(phase)  # (that raises EngineBug)
        if phase == TRICKS and trick_play is not None and state.turn is not None:
            played = _play_tricks(trick_play, state, pick_card, choose) if fast else None
            if played is None:  # one card through the hooks
                legal = hooks.legal(state)
                cards = [trick_play.deck(state.rules).by_code[mv.value] for mv in legal]
                card = pick_card(state, state.turn, cards, list(state.trick))
                played = hooks.apply(state, legal[cards.index(card)])
            state = played
            continue
        if hooks.playout is not None:  # the phase's own fast loop
            state = hooks.playout(state, pick_move)
            continue
        state = hooks.apply(state, pick_move(hooks.legal(state)))
    return state


_PLAIN_PLAY: dict[type, bool] = {}  # `plain_trick_play` by the rule set's class
_PLAIN_RULES: dict[int, tuple[t.TrickRules, bool]] = {}  # `tricks.plain` by the rules' identity


def plain_trick_play(variant: TrickPlay[Any]) -> bool:
    """Whether the rule set plays tricks through `TrickPlay` itself (what the bitmask loop
    reproduces), not through overrides of its own."""
    own = type(variant)
    return (
        own.legal_tricks is TrickPlay.legal_tricks
        and own.playable is TrickPlay.playable
        and own.apply_tricks is TrickPlay.apply_tricks
    )


def _play_tricks(
    variant: TrickPlay[Any], state: HandState, pick_card: PickCard, choose: ChooseCard | None
) -> HandState | None:
    """The policy's card plays from `state` as long as trick play goes on; None when the hands
    are not in deck order (the masks could not give the legal cards in hand order)."""
    bits = bit_deck(variant.deck(state.rules))
    masks = bits.ordered_masks(state.hands)
    if masks is None:
        return None
    rules = variant.trick_rules(state)
    known = _PLAIN_RULES.get(id(rules))
    if known is None or known[0] is not rules:
        if len(_PLAIN_RULES) >= 64:
            _PLAIN_RULES.clear()
        known = _PLAIN_RULES[id(rules)] = (rules, t.plain(rules))
    plain, trump = known[1], rules.trump
    players = state.rules.players
    hands = [*map(list, state.hands)]
    plays = list(state.trick)
    seat = state.turn
    assert seat is not None
    bit, held_cards = bits.bit, variant.held_cards
    # `current` has every seat's hand as it was before the trick in play: right for the seat
    # to play, which has not played to it yet (what `held_cards` reads).
    current, work = state, None
    while True:
        hand, m = hands[seat], masks[seat]
        held = held_cards(current, seat)
        if plain:
            legal = (
                _plain_legal(bits, hand, m, plays[0][1] if plays else None, trump, held)
                if plays or held
                else hand  # the leader: any card
            )
        else:
            legal = t.legal_plays(hand, [c for _, c in plays], rules, held)
        card = pick_card(current, seat, legal, plays) if choose is None else choose(legal)
        b = bit[id(card)]
        del hand[(m & (b - 1)).bit_count()]
        masks[seat] = m ^ b
        plays.append((seat, card))
        if len(plays) < players:
            seat = (seat + 1) % players
            continue
        after = tuple(map(tuple, hands))
        if work is None:
            work = copier(type(state))(state)
        state = work = current = variant.complete_in_place(work, after, tuple(plays), rules)
        if state.phase != TRICKS or state.turn is None:
            return state
        if state.hands is not after:  # a hook changed the hands
            changed = bits.ordered_masks(state.hands)
            if changed is None:
                return state
            hands, masks = [list(h) for h in state.hands], changed
        plays, seat = [], state.turn


def _plain_legal(
    bits: BitDeck,
    hand: list[Card],
    mask: int,
    led: Card | None,
    trump: str,
    held: tuple[Card, ...],
) -> list[Card]:
    """`tricks.legal_plays` under plain rules, on the hand's mask, in hand (deck) order."""
    legal = mask if led is None else bits.follow_mask(mask, led, trump)
    if held and len(hand) > 1:
        kept = legal & ~bits.mask(held)
        legal = kept or legal
    if legal == mask:
        return hand
    low = legal & -legal
    if mask & ((1 << legal.bit_length()) - low) == legal:  # a run of the hand: a slice of it
        start = (mask & (low - 1)).bit_count()
        return hand[start : start + legal.bit_count()]
    return bits.cards_of(legal)
