"""Tarok duel: the smallest complete rule set (docs/variants.md shows this file whole).

Two players, the 54-card pack, 12 cards each (the other 30 stay face down). Forehand names the
stake (1 or 2), then 12 tricks are played by the usual rules; the player with more card points
in his tricks (a tie: the dealer) wins 10 x stake from the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tarok_service.engine import moves as m
from tarok_service.engine.cards import Card, Deck, deal_packets, tarok54
from tarok_service.engine.counting import in_threes
from tarok_service.engine.moves import Move, MoveKind
from tarok_service.engine.options import Rules
from tarok_service.engine.outcome import HandResult, ScoreLine
from tarok_service.engine.phases import PhaseRule, PhaseTable
from tarok_service.engine.state import REDEAL, SCORED, TRICKS, HandState
from tarok_service.engine.trickplay import TrickPlay, start_tricks
from tarok_service.engine.variant import BonusInfo, ContractInfo, Variant
from tarok_service.engine.view import Fact, View, seat_view

DECK = tarok54()


class Phase(StrEnum):
    STAKE = "stake"
    TRICKS = TRICKS
    SCORED = SCORED
    REDEAL = REDEAL


class Kind(StrEnum):
    STAKE = "stake"  # stake:1 or stake:2
    PLAY = MoveKind.PLAY  # play:<card code>


@dataclass(frozen=True, slots=True)
class DuelState(HandState):
    stake: int = 0
    facts: tuple[Fact, ...] = ()


class Duel(TrickPlay[DuelState], Variant[DuelState]):
    """Forehand names the stake, then twelve tricks."""

    id = "example_duel"
    name = "Tarok duel (example)"
    player_counts = (2,)
    phases = Phase

    def phase_table(self) -> PhaseTable[DuelState]:
        return {
            Phase.STAKE: PhaseRule(self.legal_stake, self.apply_stake, self.explain_stake),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return DECK

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> DuelState:
        forehand = (dealer + 1) % 2
        hands, rest = deal_packets(order, 2, forehand, 30, 6)
        hands = tuple(DECK.sort(h) for h in hands)
        return DuelState(rules, dealer, Phase.STAKE, forehand, hands, rest, ((), ()))

    def legal_stake(self, s: DuelState) -> list[Move]:
        return [Move(Kind.STAKE, "1"), Move(Kind.STAKE, "2")]

    def explain_stake(self, s: DuelState, move: Move) -> str:
        return m.Reason.BID_NOT_ALLOWED if move.kind == Kind.STAKE else m.Reason.WRONG_PHASE

    def apply_stake(self, s: DuelState, move: Move) -> DuelState:
        assert s.turn is not None
        fact = Fact(s.turn, Kind.STAKE, move.value)
        return start_tricks(s, s.turn, stake=int(move.value), facts=(fact,))

    def result(self, s: DuelState) -> HandResult | None:
        if not s.finished:
            return None
        points = tuple(in_threes(pile, DECK.points) for pile in s.piles)
        winner = max((0, 1), key=lambda seat: (points[seat], seat == s.dealer))
        value = 10 * s.stake
        scores = tuple(value if seat == winner else -value for seat in range(2))
        lines = tuple(ScoreLine("duel", scores[seat], (seat,)) for seat in range(2))
        return HandResult("duel", None, (), None, scores, (0, 0), points, lines)

    def view(self, s: DuelState, seat: int | None) -> View:
        return seat_view(
            s,
            seat,
            public=(),
            facts=s.facts,
            contract="duel" if s.stake else "",
            declarer=None,
            partners=(),
            called="",
            legal=self.legal_for(s, seat),
            result=self.result(s),
        )

    def label(self, s: DuelState, move: Move) -> str:
        if move.kind == Kind.STAKE:
            return f"Play for {10 * int(move.value)}"
        return f"Play {DECK.labels[DECK.card(move.value)]}"

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        return (ContractInfo("duel", "Duel", 10, self.player_counts),)

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        return ()
