"""The trick-playing phase shared by every rule set, parameterised by a few hooks."""

from __future__ import annotations

from typing import Any

from . import tricks as t
from .cards import Card, Deck
from .moves import Move
from .state import SCORED, TRICKS, HandState, Trick, evolve, replace_at, without

PLAY = "play"


class TrickPlay:
    """Mixin giving a Variant `legal_tricks` / `apply_tricks`.

    Hooks a variant may override: `trick_rules`, `held_cards`, `lead_filter`, `after_trick`,
    `hand_over`. The variant must provide `deck(rules)`.
    """

    def deck(self, rules: Any) -> Deck:
        raise NotImplementedError

    def trick_rules(self, state: HandState) -> t.TrickRules:
        return t.TrickRules()

    def held_cards(self, state: HandState, seat: int) -> tuple[Card, ...]:
        """Cards the seat must keep for the last trick while it has another legal card."""
        return ()

    def playable(self, state: HandState, seat: int) -> list[Card]:
        """Cards `seat` may play into the current trick."""
        hand = state.hands[seat]
        trick = [c for _, c in state.trick]
        return t.legal_plays(hand, trick, self.trick_rules(state), self.held_cards(state, seat))

    def legal_tricks(self, state: HandState) -> list[Move]:
        assert state.turn is not None
        codes = self.deck(state.rules).codes
        return [Move(PLAY, codes[c]) for c in self.playable(state, state.turn)]

    def explain_tricks(self, state: HandState, move: Move) -> str:
        assert state.turn is not None
        deck = self.deck(state.rules)
        card = deck.by_code.get(move.value)
        if move.kind != PLAY or card is None:
            return "WRONG_PHASE"
        trick = [c for _, c in state.trick]
        return t.explain(state.hands[state.turn], trick, card, self.trick_rules(state))

    def apply_tricks(self, state: HandState, move: Move) -> HandState:
        assert state.turn is not None
        seat = state.turn
        card = self.deck(state.rules).card(move.value)
        hands = replace_at(state.hands, seat, without(state.hands[seat], card))
        plays = (*state.trick, (seat, card))
        if len(plays) < state.players:
            return evolve(state, hands=hands, trick=plays, turn=state.next_seat(seat))
        won = t.winner(plays, self.trick_rules(state))
        trick = Trick(plays, won)
        piles = replace_at(state.piles, won, state.piles[won] + trick.cards)
        after = evolve(state, hands=hands, trick=(), tricks=(*state.tricks, trick), piles=piles)
        after = self.after_trick(after, trick)
        if self.hand_over(after):
            return evolve(after, phase=SCORED, turn=None)
        return evolve(after, turn=won)

    def after_trick(self, state: HandState, trick: Trick) -> HandState:
        """Side effects of a completed trick (talon cards to the winner, captures ...)."""
        return state

    def hand_over(self, state: HandState) -> bool:
        """Whether play ends now (all cards played, or an early end)."""
        return not any(state.hands)


def start_tricks(state: HandState, leader: int) -> HandState:
    return evolve(state, phase=TRICKS, turn=leader)
