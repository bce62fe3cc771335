"""A toy rule set on the engine mechanism (two players, a 40-card pack, a one-round "bid" phase
then trick play), and broken versions of it, for the phase-table tests. Not registered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tarok_service.engine import moves as m
from tarok_service.engine.cards import Card, Deck, deal_packets, tarock40
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.outcome import HandResult
from tarok_service.engine.phases import PhaseRule, PhaseTable
from tarok_service.engine.state import SCORED, TRICKS, HandState
from tarok_service.engine.trickplay import TrickPlay, start_tricks
from tarok_service.engine.variant import BonusInfo, ContractInfo, Variant
from tarok_service.engine.view import View, seat_view

DECK = tarock40()


class Phase(StrEnum):
    BID = "bid"
    TRICKS = TRICKS
    SCORED = SCORED


class Kind(StrEnum):
    BID = "bid"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class ToyState(HandState):
    bidder: int | None = None
    spoken: int = 0


class Toy(TrickPlay[ToyState], Variant[ToyState]):
    """Each seat in turn bids or passes (the last bidder leads), then ten tricks are played."""

    id = "toy"
    name = "Toy"
    player_counts = (2,)
    phases = Phase

    def phase_table(self) -> PhaseTable[ToyState]:
        return {
            Phase.BID: PhaseRule(self.legal_bid, self.apply_bid, explain=self.explain_bid),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return DECK

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> ToyState:
        hands, _ = deal_packets(order[:20], 2, (dealer + 1) % 2, 0, 5)
        return ToyState(rules, dealer, Phase.BID, (dealer + 1) % 2, hands, (), ((), ()))

    def legal_bid(self, state: ToyState) -> list[Move]:
        return [Move(Kind.BID), Move(Kind.PASS)]

    def explain_bid(self, state: ToyState, move: Move) -> str:
        return m.Reason.BID_NOT_ALLOWED

    def apply_bid(self, state: ToyState, move: Move) -> ToyState:
        seat = state.turn
        assert seat is not None
        bidder = seat if move.kind == Kind.BID else state.bidder
        state = evolve(state, bidder=bidder, spoken=state.spoken + 1)
        if state.spoken == 2:
            return start_tricks(state, state.forehand if bidder is None else bidder)
        return evolve(state, turn=state.next_seat(seat))

    def view(self, state: ToyState, seat: int | None) -> View:
        return seat_view(
            state,
            seat,
            public=(),
            facts=(),
            contract="",
            declarer=state.bidder,
            partners=(),
            called="",
            legal=self.legal_for(state, seat),
            result=self.result(state),
        )

    def result(self, state: ToyState) -> HandResult | None:
        if not state.finished:
            return None
        won = state.tricks_won()
        return HandResult("toy", state.bidder, (), None, won, (0, 0), won)

    def label(self, state: ToyState, move: Move) -> str:
        return move.id

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        return ()

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        return ()


class NoApply(Toy):
    """Broken: the bid phase has no apply handler."""

    id = "toy_no_apply"

    def phase_table(self) -> PhaseTable[ToyState]:
        broken = PhaseRule(self.legal_bid, None)  # type: ignore[arg-type]
        return {Phase.BID: broken, Phase.TRICKS: self.trick_phase()}


class MissingPhase(Toy):
    """Broken: the tricks phase is declared but has no entry in the table."""

    id = "toy_missing_phase"

    def phase_table(self) -> PhaseTable[ToyState]:
        return {Phase.BID: PhaseRule(self.legal_bid, self.apply_bid)}


class Undeclared(Toy):
    """Broken: the table names a phase its Phase enum does not declare."""

    id = "toy_undeclared"

    def phase_table(self) -> PhaseTable[ToyState]:
        return {**super().phase_table(), "auction": PhaseRule(self.legal_bid, self.apply_bid)}


class RuleForScored(Toy):
    """Broken: the hand-ending phase has moves."""

    id = "toy_rule_for_scored"

    def phase_table(self) -> PhaseTable[ToyState]:
        return {**super().phase_table(), Phase.SCORED: PhaseRule(self.legal_bid, self.apply_bid)}
