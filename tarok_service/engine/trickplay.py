"""The trick-playing phase shared by every rule set, parameterised by a few hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import Any, Generic, TypeVar

from . import tricks as t
from .cards import Card, Deck
from .fastcopy import copier, evolve
from .moves import Move, MoveKind, Reason
from .phases import PhaseRule
from .state import SCORED, TRICKS, HandState, Trick, replace_at, without
from .trickwatch import EVERY_TRICK, QUIET, Pair, TrickWatch, compiled_watch

# The kind as a plain str: exact-str comparisons and hashing are the interpreter's fast path
# (a StrEnum member takes the slower generic one), and every card played is compared.
_PLAY = MoveKind.PLAY.value

S = TypeVar("S", bound=HandState)


_PLAY_MOVES: dict[int, tuple[Deck, dict[Card, Move]]] = {}


def play_moves(deck: Deck) -> dict[Card, Move]:
    """The `play:<code>` move of every card of the deck (moves are immutable: shared)."""
    found = _PLAY_MOVES.get(id(deck))
    if found is None or found[0] is not deck:
        found = _PLAY_MOVES[id(deck)] = (
            deck,
            {c: Move(_PLAY, deck.codes[c]) for c in deck.cards},
        )
    return found[1]


class TrickPlay(Generic[S]):
    """Mixin giving a Variant the `tricks` phase: `trick_phase()` is its PhaseRule
    (`legal_tricks`, `apply_tricks`, `explain_tricks` and the fast `is_legal_tricks` and
    `replay_tricks`).

    Hooks a variant may override: `trick_rules`, `held_cards`, `after_trick`, `hand_over`,
    `finish_play`, `trick_watch`. The variant must provide `deck(rules)`. `trick_rules` must
    depend only on what is fixed during play (the contract), not on the cards in play.
    """

    def deck(self, rules: Any) -> Deck:
        raise NotImplementedError

    def trick_phase(self) -> PhaseRule[S]:
        """The `tricks` entry of the variant's phase table."""
        return PhaseRule(
            self.legal_tricks,
            self.apply_tricks,
            self.explain_tricks,
            self.is_legal_tricks,
            self.replay_tricks,
        )

    def trick_rules(self, state: S) -> t.TrickRules:
        return _DEFAULT_RULES

    def held_cards(self, state: S, seat: int) -> tuple[Card, ...]:
        """Cards the seat must keep for the last trick while it has another legal card."""
        return ()

    def playable(self, state: S, seat: int) -> list[Card]:
        """Cards `seat` may play into the current trick."""
        hand = state.hands[seat]
        trick = [c for _, c in state.trick]
        return t.legal_plays(hand, trick, self.trick_rules(state), self.held_cards(state, seat))

    def legal_tricks(self, state: S) -> list[Move]:
        assert state.turn is not None
        moves = play_moves(self.deck(state.rules))
        return [moves[c] for c in self.playable(state, state.turn)]

    def is_legal_tricks(self, state: S, move: Move) -> bool:
        """`move in legal_tricks(state)`, without building the moves."""
        assert state.turn is not None
        if move.__class__ is not Move or move.kind != _PLAY:
            return False
        card = self.deck(state.rules).by_code.get(move.value)
        if card is None:
            return False
        seat = state.turn
        if type(self).playable is not TrickPlay.playable:  # a rule set of its own
            return t.member(card, self.playable(state, seat))
        trick = [c for _, c in state.trick]
        rules, held = self.trick_rules(state), self.held_cards(state, seat)
        return t.is_legal_play(state.hands[seat], trick, card, rules, held)

    def explain_tricks(self, state: S, move: Move) -> str:
        assert state.turn is not None
        deck = self.deck(state.rules)
        card = deck.by_code.get(move.value)
        if move.kind != _PLAY or card is None:
            return Reason.WRONG_PHASE
        trick = [c for _, c in state.trick]
        return t.explain(state.hands[state.turn], trick, card, self.trick_rules(state))

    def apply_tricks(self, state: S, move: Move) -> S:
        seat = state.turn
        assert seat is not None
        card = self.deck(state.rules).by_code[move.value]
        hands = replace_at(state.hands, seat, without(state.hands[seat], card))
        plays = (*state.trick, (seat, card))
        players = state.rules.players
        if len(plays) < players:
            return evolve(state, hands=hands, trick=plays, turn=(seat + 1) % players)
        return self.complete_trick(state, hands, plays, self.trick_rules(state))

    def complete_trick(
        self,
        state: S,
        hands: tuple[tuple[Card, ...], ...],
        plays: tuple[tuple[int, Card], ...],
        rules: t.TrickRules,
    ) -> S:
        """The state after the last card of a trick, from a state of that trick (only its piles
        and tricks are read) and the `hands` and `plays` after its last card. `after_trick` and
        `hand_over` meet the hand with the trick added and the turn at its winner."""
        cards = [c for _, c in plays]
        won = plays[t.winning_index(cards, rules)][0]
        trick = Trick(plays, won)
        piles = replace_at(state.piles, won, (*state.piles[won], *cards))
        tricks = (*state.tricks, trick)
        after = evolve(state, hands=hands, trick=(), tricks=tricks, piles=piles, turn=won)
        after = self.after_trick(after, trick)
        if self.hand_over(after):
            return self.finish_play(after)
        return after if after.turn == won else evolve(after, turn=won)

    def replay_tricks(self, state: S, moves: Sequence[Move], start: int) -> tuple[S, int]:
        """Apply validated card plays from `moves[start]` on, as long as play goes on: the state
        equals folding `apply_tricks` over them, and the index of the first move not applied.

        The cards are looked up at once and taken a trick at a time. A run of tricks the rule
        set's `trick_watch` leaves quiet (its hooks would change nothing but a talon gift the
        watch names) is only judged and added to working lists (piles, the trick winners'
        seats, gifts), its tricks made in one go; no hand is changed card by card: the hands
        are the last ones built less the cards played since. Before any other trick the state
        is brought up to date - one private copy changed in place - and `complete_in_place`
        runs the hooks on it. One state is built at the end."""
        if type(self).apply_tricks is not TrickPlay.apply_tricks:  # a rule set of its own
            return self.apply_tricks(state, moves[start]), start + 1
        deck = self.deck(state.rules)
        players = state.rules.players
        rules = self.trick_rules(state)
        winning_index, orders = t.winning_index, _orders(players)
        # the cards (and their codes) of the trick in play, then of the moves: a trick starts
        # at every multiple of `players`
        codes = [m.value for m in (moves[start:] if start else moves)]
        played = _looked_up(deck.by_code, codes)
        off = len(state.trick)
        if off:
            played[:0] = [c for _, c in state.trick]
            codes[:0] = [deck.codes[c] for c in played[:off]]
        total = len(played)
        lead = state.trick[0][0] if off else state.turn
        assert lead is not None
        every, watched, pair, look, winners, gifts = compiled_watch(self, state, deck)
        base, since = state.hands, off  # the hands before the cards played[since:]
        end = off + sum(map(len, base))  # where the cards in the hands run out
        talon = state.talon
        given: list[tuple[int, Card]] = []  # the gifts of quiet tricks
        work: S | None = None  # the private copy, once a trick is not quiet
        piles: list[list[Card]] | None = None  # quiet tricks not yet in `work`, if any
        tricks: list[Trick] = []
        a = 0  # where the trick in play starts
        while True:
            stop = min(total, end - 1) - players + 1  # quiet tricks end before the last one
            if stop > a and not every:
                if piles is None:
                    piles, tricks = [list(p) for p in state.piles], list(state.tricks)
                first = a
                seats: list[int] = []  # the run's seats in playing order
                for a in range(first, stop, players):
                    j = a + players
                    if (
                        look
                        and not look.isdisjoint(codes[a:j])
                        and _holds(codes[a:j], watched, pair)
                    ):
                        break
                    cards = played[a:j]
                    order = orders[lead]
                    won = order[winning_index(cards, rules)]
                    if won in winners:
                        break
                    pile = piles[won]
                    pile += cards
                    if gifts and len(given) < len(talon):
                        gift = talon[len(given)]
                        pile.append(gift)
                        given.append((won, gift))
                    seats += order
                    lead = won
                a = first + len(seats)
                if seats:
                    tricks += _tricks_of(seats, played[first:a], lead, players)
            j = a + players
            if j > total:  # the moves stop inside the trick
                break
            cards = played[a:j]
            order = orders[lead]
            won = order[winning_index(cards, rules)]
            if work is None:
                work = evolve(state)
            if piles is not None:
                self._bring_up(work, piles, tricks, talon, given)
                piles, given = None, []
            after = _less(base, played[since:j]) if j < end else ((),) * players
            plays = tuple(zip(order, cards))  # noqa: B905 (a full trick)
            state = work = self.complete_in_place(work, after, plays, rules, won, cards)
            if state.phase != TRICKS or state.turn is None or j == total:
                return state, start + j - off
            a = since = j
            base = state.hands
            if base is not after:  # a hook changed the hands
                end = j + sum(map(len, base))
            talon, lead = state.talon, state.turn
            every, watched, pair, look, winners, gifts = compiled_watch(self, state, deck)
        if work is None:
            work = evolve(state)
        if piles is not None:
            self._bring_up(work, piles, tricks, talon, given)
        if total > since:
            _set_hands(work, _less(base, played[since:]))
        _set_trick(work, tuple(zip(orders[lead], played[a:], strict=False)))
        _set_turn(work, orders[lead][total - a] if total > a else lead)
        return work, start + total - off

    def _bring_up(
        self,
        work: S,
        piles: list[list[Card]],
        tricks: list[Trick],
        talon: tuple[Card, ...],
        given: list[tuple[int, Card]],
    ) -> None:
        """Puts the quiet tricks' piles, tricks and talon gifts into replay's private copy."""
        _set_piles(work, tuple([tuple(p) for p in piles]))
        _set_tricks(work, tuple(tricks))
        if given:
            for name, value in self.gift_changes(work, tuple(given)).items():
                _set(work, name, value)
            _set(work, "talon", talon[len(given) :])

    def complete_in_place(
        self,
        work: S,
        hands: tuple[tuple[Card, ...], ...],
        plays: tuple[tuple[int, Card], ...],
        rules: t.TrickRules,
        won: int | None = None,
        cards: Sequence[Card] | None = None,
    ) -> S:
        """`complete_trick` on a private copy of the state (one no one else holds), changed in
        place; for the fast paths (replay, playouts). `won`: the trick's winner, `cards`: the
        trick's cards in playing order, if known."""
        if cards is None:
            cards = [c for _, c in plays]
        if won is None:
            won = plays[t.winning_index(cards, rules)][0]
        trick = _trick(None, plays, won)
        piles = work.piles
        _set_piles(work, (*piles[:won], (*piles[won], *cards), *piles[won + 1 :]))
        _set_tricks(work, (*work.tricks, trick))
        _set_hands(work, hands)
        _set_trick(work, ())
        _set_turn(work, won)
        after = self.after_trick(work, trick)
        if self.hand_over(after):
            if after is work and type(self).finish_play is TrickPlay.finish_play:
                _set(work, "phase", SCORED)  # `finish_play` on the private copy itself
                _set_turn(work, None)
                return work
            return self.finish_play(after)
        if after.turn != won:
            if after is not work:
                return evolve(after, turn=won)
            _set_turn(work, won)
        return after

    def after_trick(self, state: S, trick: Trick) -> S:
        """Side effects of a completed trick (talon cards to the winner, captures ...)."""
        return state

    def give_talon(self, state: S, winner: int) -> S:
        """The talon's first card given to `winner` (put on its pile) and recorded by
        `gift_changes`: what `after_trick` does after a trick a `TrickWatch(gifts=True)`
        covers while the talon lasts (the fast paths do the same themselves)."""
        gift = state.talon[0]
        piles = replace_at(state.piles, winner, (*state.piles[winner], gift))
        changes = self.gift_changes(state, ((winner, gift),))
        return evolve(state, talon=state.talon[1:], piles=piles, **changes)

    def gift_changes(self, state: S, given: tuple[tuple[int, Card], ...]) -> dict[str, Any]:
        """The rule set's own fields recording the talon gifts `given` ((winner, card) in
        order; the cards are already off the talon and on the piles). Default: none."""
        return {}

    def hand_over(self, state: S) -> bool:
        """Whether play ends now (all cards played, or an early end)."""
        return not any(state.hands)

    def finish_play(self, state: S) -> S:
        """The state once play has ended (after the last trick's `after_trick`): scored."""
        return evolve(state, phase=SCORED, turn=None)

    def trick_watch(self, state: S) -> TrickWatch:
        """Which of the tricks still to play `after_trick` and `hand_over` may act on, from
        the state between two tricks (see `TrickWatch`). The default: every trick, unless
        neither hook is overridden (then none: only the last trick ends play)."""
        own = type(self)
        if own.after_trick is TrickPlay.after_trick and own.hand_over is TrickPlay.hand_over:
            return QUIET
        return EVERY_TRICK


_DEFAULT_RULES = t.TrickRules()


@cache
def _orders(players: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the seats of a trick in playing order."""
    return tuple(tuple((lead + k) % players for k in range(players)) for lead in range(players))


_set = object.__setattr__  # changes a field of replay's private state copy in place
# the same for the fields of every state, through their slots' own setters (cheaper; no rule
# set's state redefines them: tests/engine/test_fast_paths.py)
_set_piles, _set_tricks, _set_hands, _set_trick, _set_turn = (
    HandState.__dict__[name].__set__ for name in ("piles", "tricks", "hands", "trick", "turn")
)


def _less(
    hands: tuple[tuple[Card, ...], ...], spent: Sequence[Card]
) -> tuple[tuple[Card, ...], ...]:
    """The `hands` less the `spent` cards (played from them), found by identity - or by
    equality when a hand holds equal cards that are not the deck's own."""
    gone = {*map(id, spent)}
    left = tuple([tuple([c for c in h if id(c) not in gone]) for h in hands])
    if sum(map(len, left)) + len(spent) != sum(map(len, hands)):
        equal = set(spent)
        left = tuple([tuple([c for c in h if c not in equal]) for h in hands])
    return left


_trick = copier(Trick, "plays", "winner")  # `Trick(plays, winner)` as a plain copy (hot path)


def _looked_up(table: Mapping[str, Card], keys: list[str]) -> list[Card]:
    """`[table.get(k) for k in keys]` (a move of a later phase may be no card: None), in one
    C call when there are several and all are cards."""
    if len(keys) > 1:
        try:
            return [*itemgetter(*keys)(table)]
        except KeyError:
            pass
    return [table.get(k) for k in keys]  # type: ignore[misc]


def _holds(codes: list[str], watched: frozenset[str], pair: Pair | None) -> bool:
    """Whether a trick of the cards `codes` holds a watched card, or one card of each side of
    the watched pair."""
    if not watched.isdisjoint(codes):
        return True
    return pair is not None and not (pair[0].isdisjoint(codes) or pair[1].isdisjoint(codes))


def _tricks_of(seats: list[int], cards: list[Card], last: int, players: int) -> list[Trick]:
    """The tricks of a run of whole tricks from their seats and cards in playing order and
    the winner of the `last` one (every other trick's winner leads the next)."""
    plays = tuple(zip(seats, cards, strict=True))
    made, k = [], 0
    for won in [*seats[players::players], last]:
        made.append(_trick(None, plays[k : k + players], won))
        k += players
    return made


def start_tricks(state: S, leader: int, **changes: Any) -> S:
    """The hand with trick play starting at `leader` (and `changes` made, in the same copy)."""
    return evolve(state, **changes, phase=TRICKS, turn=leader)
