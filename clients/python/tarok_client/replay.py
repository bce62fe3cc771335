"""Replaying a finished table's complete log with the rules: every deal committed and
revealed, numbered without gaps, each move legal for the seat whose turn it is, and each hand's
recorded scores (and the final totals) the ones the rules give. A move swapped, dropped or
changed, a deal or a score removed, fails here (`verify.py` checks the commitments).

`problems(log, variant, rules, created)` lists what does not replay ([] when everything does).
"""

from __future__ import annotations

from typing import Any

from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.engine.match import MatchState
from tarok_service.engine.moves import Move
from tarok_service.engine.variant import Variant


class _Replay:
    def __init__(self, variant: Variant[Any], rules: Any, created: Any) -> None:
        self.variant = variant
        self.rules = rules
        self.deck = variant.deck(rules)
        self.match = MatchState.start(created.players, created.hands, created.first_dealer, rules)
        self.hand: Any = None
        self.deal = 0  # the deal number of the hand being played (0: none yet)
        self.scored = True  # the current hand has its HandScored

    def dealt(self, at: int, dealt: ev.HandDealt) -> str | None:
        if not self.scored:
            return f"event {at}: deal {dealt.deal_number} before deal {self.deal} was scored"
        if dealt.deal_number != self.deal + 1:
            return f"event {at}: deal {dealt.deal_number} follows deal {self.deal}"
        if not dealt.order:
            return f"deal {dealt.deal_number}: not revealed in the complete log"
        if dealt.dealer != self.match.dealer:
            return f"deal {dealt.deal_number}: dealt by seat {dealt.dealer}, not the dealer"
        try:
            order = [self.deck.by_code[c] for c in dealt.order]
        except KeyError:
            return f"deal {dealt.deal_number}: the order names a card not in the deck"
        self.hand = self.variant.deal(self.rules, order, dealt.dealer)
        self.deal, self.scored = dealt.deal_number, False
        return None

    def moved(self, at: int, made: ev.MoveMade) -> str | None:
        where = f"event {at} (deal {self.deal})"
        if self.hand is None or self.scored:
            return f"{where}: a move outside a hand"
        if made.hidden:
            return f"{where}: a hidden move in the complete log"
        if made.seat != self.hand.turn:
            return f"{where}: seat {made.seat} moved on seat {self.hand.turn}'s turn"
        try:
            self.hand = self.variant.apply(self.hand, Move.parse(made.move_id))
        except Exception as err:  # an illegal or malformed move: the rules say why
            return f"{where}: {made.move_id!r} is not legal ({err})"
        return None

    def scored_hand(self, at: int, scored: ev.HandScored) -> str | None:
        where = f"event {at} (deal {self.deal})"
        if self.hand is None or self.scored or scored.deal_number != self.deal:
            return f"{where}: a score for deal {scored.deal_number} out of place"
        result = self.variant.result(self.hand)
        if result is None:
            return f"{where}: the hand is not over where its score is recorded"
        self.match = self.variant.settle(self.match, result)
        self.scored = True
        return self._totals(where, scored.totals, scored.radelci, scored.pot)

    def closed(self, at: int, closed: ev.TableClosed) -> str | None:
        where = f"event {at} (the end)"
        if closed.closed_by:  # an operator ended it: the hands scored so far, nothing added
            if closed.hands_played != self.match.played:
                return f"{where}: {closed.hands_played} hands recorded, {self.match.played} played"
            return self._totals(where, closed.totals, closed.radelci, closed.pot)
        if not self.scored:
            return f"{where}: deal {self.deal} was not scored"
        if closed.hands_played != self.match.played:
            return f"{where}: {closed.hands_played} hands recorded, {self.match.played} played"
        self.match = self.variant.close(self.match)
        return self._totals(where, closed.totals, closed.radelci, closed.pot)

    def _totals(self, where: str, totals: Any, radelci: Any, pot: int) -> str | None:
        expected = (tuple(self.match.totals), tuple(self.match.radelci), self.match.pot)
        if (tuple(totals), tuple(radelci), pot) != expected:
            rules = list(expected[0])
            return f"{where}: recorded totals {list(totals)} differ from the rules' {rules}"
        return None


def problems(log: ev.TableLog, variant: Variant[Any], rules: Any, created: Any) -> list[str]:
    """What in a complete (finished) table log does not replay under its rules."""
    replay = _Replay(variant, rules, created)
    ended = False
    for at, event in enumerate(log.events, 1):
        kind = event.WhichOneof("body")
        problem = None
        if kind == "hand_dealt":
            problem = replay.dealt(at, event.hand_dealt)
        elif kind == "move_made":
            problem = replay.moved(at, event.move_made)
        elif kind == "hand_scored":
            problem = replay.scored_hand(at, event.hand_scored)
        elif kind == "table_closed":
            problem, ended = replay.closed(at, event.table_closed), True
        if problem is not None:
            return [f"{log.table_id} {problem}"]  # what follows cannot replay from a wrong state
    return [] if ended else [f"{log.table_id}: the complete log does not end with TableClosed"]
