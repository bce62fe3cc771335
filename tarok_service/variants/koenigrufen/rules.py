"""Königrufen (Austrian tarock, 54 cards, 4 players) as a member of the Slovenian family.

The family's code does the auction (forehand holds; Trischaken, Rufer and Sechserdreier are
forehand's own contracts), the king call, the exchange of one talon half (or of the whole
talon), the announcement round with kontra, and trick play. What Königrufen does otherwise is
here: every hand is played (no redeal), no emperor's trick and no mondfang, the called king
in the talon makes the declarer play alone, the birds Uhu, Kakadu and Quapil, colour games,
the early end of the negative contracts, and its own scoring (`scoring.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import ClassVar

from ...engine import moves as m
from ...engine import tricks as t
from ...engine.announce import RoundKey
from ...engine.auction import Auction
from ...engine.cards import Card
from ...engine.fastcopy import evolve
from ...engine.match import MatchState
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.outcome import HandResult
from ...engine.state import SCORED, Trick
from ...engine.trickplay import start_tricks
from ...engine.trickwatch import TrickWatch
from ...engine.variant import Variant
from ...engine.view import Fact
from ..slovenian.family import Family, Group
from ..slovenian.rules import SlovenianFamily
from ..slovenian.state import Phase, SlovenianState, is_suit_king, is_trula
from . import data as d
from . import scoring
from .vocabulary import VOCABULARY

_GIFTS = TrickWatch(gifts=True)  # Trischaken, option first_six: a talon card per trick
_QUIET = TrickWatch(cards=(), winners=(), together=((), ()))
_ROUND_LIMIT = 64


@cache
def trick_rules(kind: str, emperor: bool) -> t.TrickRules:
    """The trick rules of a positive tarock game (kind ""), a negative game or a colour game."""
    if kind == "negative":
        return t.TrickRules(must_overtake=True, pagat_last_tarok=True, emperor=False)
    if kind == "colour":
        return t.TrickRules(trumps_win=False, suits_before_trump_lead=True, emperor=False)
    return t.TrickRules(emperor=emperor)


class Koenigrufen(SlovenianFamily):
    """Königrufen under the Upper-Austrian tournament rules (docs/rules/koenigrufen.md)."""

    id = "koenigrufen"
    name = "Königrufen"
    rules_version = 2  # 2: Piccolo ouvert and Bettel ouvert, conceding
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    option_specs = d.OPTIONS
    vocabulary_table = VOCABULARY
    open_hand_contracts = d.OUVERTS
    family = Family(
        contracts=d.CONTRACTS,
        bonus_values=d.BONUS_VALUES,
        groups=d.GROUPS,
        packets={4: 6},
        forehand_only=lambda rules: d.FOREHAND_ONLY,
        redeal_without_tarok=False,  # every hand is played
    )

    # --- contracts and deal -------------------------------------------------------------

    def open_contracts(self, rules: Rules) -> list[int]:
        """Every contract; Zwiccolo only with its option."""
        zwiccolo = rules.flag("zwiccolo")
        return [i for i, c in enumerate(self.contract_table) if zwiccolo or c.id != d.ZWICCOLO]

    def _contract_chosen(
        self,
        s: SlovenianState,
        seat: int,
        index: int,
        auction: Auction,
        facts: tuple[Fact, ...],
    ) -> SlovenianState:
        """Trischaken has no declarer and starts at once, forehand leading."""
        if self.contract_table[index].id == d.TRISCHAKEN:
            return start_tricks(s, s.forehand, contract=index, auction=auction, facts=facts)
        return super()._contract_chosen(s, seat, index, auction, facts)

    # --- hand conditions of the bids ---------------------------------------------------------

    def legal_bidding(self, s: SlovenianState) -> list[Move]:
        """The family's bids less those the bidder's hand rules out."""
        moves = super().legal_bidding(s)
        assert s.turn is not None
        barred = self._barred_bids(s, s.turn)
        return [mv for mv in moves if mv.value not in barred] if barred else moves

    def _barred_bids(self, s: SlovenianState, seat: int) -> frozenset[str]:
        """No king call with all four kings; no Besserrufer without a bird."""
        hand = s.hands[seat]
        barred: set[str] = set()
        if sum(1 for c in hand if is_suit_king(c)) == 4:
            barred |= d.KING_CALLS
        if not any(c in hand for c in d.BIRD_CARDS.values()):
            barred.add(d.BESSERRUFER)
        return frozenset(barred)

    def explain_bidding(self, s: SlovenianState, move: Move) -> str:
        seat = s.turn
        if (
            move.kind == MoveKind.BID
            and seat is not None
            and move.value in self._barred_bids(s, seat)
        ):
            return m.Reason.BID_NOT_ALLOWED
        return super().explain_bidding(s, move)

    def playout_bidding(
        self, s: SlovenianState, pick: Callable[[list[Move]], Move]
    ) -> SlovenianState:
        """The auction played to its end by `pick`, bid by bid (the hand conditions are not in
        the family's quick auction)."""
        while s.phase == Phase.BIDDING:
            s = self.apply_bidding(s, pick(self.legal_bidding(s)))
        return s

    # --- king call and talon --------------------------------------------------------------

    def callable_cards(self, s: SlovenianState) -> list[Card]:
        """The kings the declarer does not hold (all four with option `own_king_call`, or when
        he holds them all: he then plays alone)."""
        assert s.declarer is not None
        kings = [c for c in self.deck(s.rules).cards if is_suit_king(c)]
        if s.rules.flag("own_king_call"):
            return kings
        hand = s.hands[s.declarer]
        return [c for c in kings if c not in hand] or kings

    def apply_calling(self, s: SlovenianState, move: Move) -> SlovenianState:
        """Solorufer takes no talon: after the call come the announcements."""
        called = super().apply_calling(s, move)
        if self.contract_table[s.contract].talon_group == 0:
            return evolve(called, phase=Phase.ANNOUNCE, exposed_talon=(), turn=s.declarer)
        return called

    def concedable(self, s: SlovenianState) -> bool:
        """A Rufer or Besserrufer whose called king lies in the talon, before a half is taken:
        the declarer may concede (a pass in the talon phase; option `concede`)."""
        return (
            s.phase == Phase.TALON
            and s.group is None
            and bool(s.talon_kings)
            and self.contract_table[s.contract].id in d.CONCEDABLE
            and s.rules.flag("concede")
        )

    def legal_talon(self, s: SlovenianState) -> list[Move]:
        moves = super().legal_talon(s)
        return [*moves, Move(MoveKind.PASS)] if self.concedable(s) else moves

    def explain_talon(self, s: SlovenianState, move: Move) -> str:
        if move.kind == MoveKind.PASS:
            return m.Reason.PASS_NOT_ALLOWED
        return super().explain_talon(s, move)

    def apply_talon(self, s: SlovenianState, move: Move) -> SlovenianState:
        """Conceding ends the hand at once: nothing is played, the declarer pays."""
        if move.kind == MoveKind.PASS:
            fact = Fact(s.declarer, MoveKind.PASS, "")
            return evolve(s, phase=SCORED, turn=None, facts=(*s.facts, fact))
        return super().apply_talon(s, move)

    def replay_talon(
        self, s: SlovenianState, moves: Sequence[Move], start: int
    ) -> tuple[SlovenianState, int]:
        """The family's fast path, but a concession is applied on its own."""
        if moves[start].kind == MoveKind.PASS:
            return self.apply_talon(s, moves[start]), start + 1
        return super().replay_talon(s, moves, start)

    def discardable(self, s: SlovenianState) -> list[Card]:
        """Never a king or a trull card; in a colour game tarocks go first, in a tarock game
        suit cards (option `discard_taroks_only_if_forced`)."""
        if self.contract_table[s.contract].id not in d.COLOUR_GAMES:
            return super().discardable(s)
        assert s.declarer is not None
        hand = s.hands[s.declarer]
        allowed = [c for c in hand if not is_suit_king(c) and not is_trula(c)] or [*hand]
        return [c for c in allowed if c.is_tarok] or allowed

    # --- announcements and kontra -------------------------------------------------------

    def _round_table(self, s: SlovenianState) -> dict[RoundKey, tuple[Move, ...]]:
        """The family's round table, kept per who holds each bird and the called king (what
        the announceable items depend on beside the sayings)."""
        memo = self._memo(s.rules, "round", _ROUND_LIMIT)
        key = (s.contract, s.declarer, s.partners, s.called, self._holders(s))
        found = memo.get(key)
        if found is None:
            found = memo[key] = ({},)
        table: dict[RoundKey, tuple[Move, ...]] = found[0]
        return table

    def _holders(self, s: SlovenianState) -> tuple[int | None, ...]:
        """The seat holding each bird, then the called king (None: nobody)."""
        cards = (*d.BIRD_CARDS.values(), *s.called[:1])
        return tuple(next((i for i, h in enumerate(s.hands) if c in h), None) for c in cards)

    def announceable(self, s: SlovenianState, seat: int) -> list[str]:
        """The family's rule (each item once, above nothing yet said) limited by the contract:
        none in negative games, only kings and valat in colour games."""
        c = self.contract_table[s.contract]
        if not c.bonuses:
            return []
        items = self._announceable(s, seat)
        if c.id in d.COLOUR_GAMES:
            return [i for i in items if i in d.COLOUR_ITEMS]
        return items

    def may_announce(self, s: SlovenianState, seat: int, group: Group) -> bool:
        """A bird only by its holder; king ultimo only by the holder of the called king."""
        item = group[0]
        if item in d.BIRD_CARDS:
            return d.BIRD_CARDS[item] in s.hands[seat]
        if item == d.KING_ULTIMO:
            return any(c in s.called for c in s.hands[seat])
        return True

    def _round_moves(self, s: SlovenianState, seat: int) -> list[Move]:
        """The family's round, except that the declarer of a Besserrufer who holds a bird
        must first announce one (the bird his bid was made on)."""
        if self._bird_due(s, seat):
            return [mv for mv in super()._round_moves(s, seat) if mv.value in d.BIRD_CARDS]
        return super()._round_moves(s, seat)

    def _bird_due(self, s: SlovenianState, seat: int) -> bool:
        if self.contract_table[s.contract].id != d.BESSERRUFER or seat != s.declarer:
            return False
        if any(item in d.BIRD_CARDS and who == seat for item, who in s.announced):
            return False
        return any(card in s.hands[seat] for card in d.BIRD_CARDS.values())

    def explain_round(self, s: SlovenianState, move: Move) -> str:
        if s.turn is not None and self._bird_due(s, s.turn):
            return (
                m.Reason.ANNOUNCEMENT_NOT_ALLOWED
                if move.kind == MoveKind.ANNOUNCE
                else (m.Reason.PASS_NOT_ALLOWED)
            )
        return super().explain_round(s, move)

    def kontrable(self, s: SlovenianState, seat: int) -> list[str]:
        if self.contract_table[s.contract].id == d.TRISCHAKEN:
            return []
        return super().kontrable(s, seat)

    # --- trick play ---------------------------------------------------------------------

    def trick_rules(self, s: SlovenianState) -> t.TrickRules:
        c = self.contract_table[s.contract]
        kind = "negative" if c.negative else "colour" if c.id in d.COLOUR_GAMES else ""
        return trick_rules(kind, s.rules.flag("emperor_trick"))

    def held_cards(self, s: SlovenianState, seat: int) -> tuple[Card, ...]:
        """An announced bird is kept for its trick, an announced called king for the last."""
        if not s.announced:
            return ()
        hand, trick_no = s.hands[seat], len(s.tricks) + 1
        held: list[Card] = []
        for item, who in s.announced:
            if who != seat:
                continue
            if item in d.BIRDS:
                card, due = d.BIRD_CARDS[item], d.BIRDS[item][1]
            elif item == d.KING_ULTIMO and s.called:
                card, due = s.called[0], 12
            else:
                continue
            if trick_no < due and card in hand:
                held.append(card)
        return tuple(held)

    def after_trick(self, s: SlovenianState, trick: Trick) -> SlovenianState:
        """Only Trischaken with option `trischaken_talon=first_six` acts: a talon card to
        each of the first six trick winners."""
        if s.talon and self._gifts(s):
            return self.give_talon(s, trick.winner)
        return s

    def _gifts(self, s: SlovenianState) -> bool:
        return (
            self.contract_table[s.contract].id == d.TRISCHAKEN
            and s.rules.opt("trischaken_talon") == "first_six"
        )

    def trick_watch(self, s: SlovenianState) -> TrickWatch:
        if s.talon and self._gifts(s):
            return _GIFTS
        if self._target(s) is not None and s.declarer is not None:
            return TrickWatch(winners=(s.declarer,))
        return _QUIET

    def _target(self, s: SlovenianState) -> int | None:
        """A negative contract that ends early: the most tricks its declarer may take."""
        if not s.rules.flag("early_end"):
            return None
        return d.TARGET_TRICKS.get(self.contract_table[s.contract].id)

    def hand_over(self, s: SlovenianState) -> bool:
        if not any(s.hands):
            return True
        target = self._target(s)
        if target is None or s.declarer is None:
            return False
        return s.tricks_won()[s.declarer] > target

    # --- results and match ----------------------------------------------------------------

    def result(self, s: SlovenianState) -> HandResult | None:
        if not s.finished:
            return None
        return scoring.score(self, s)

    def invariants(self, state: SlovenianState, result: HandResult) -> list[str]:
        errors = []
        if sum(result.scores) != 0:
            errors.append(f"scores {result.scores} do not add up to 0")
        if scoring.total_thirds(self, state) != d.ALL_THIRDS:
            errors.append("card points do not add up to 70")
        return errors

    def settle(self, match: MatchState, result: HandResult) -> MatchState:
        """Totals only: Königrufen has no radelci."""
        return Variant.settle(self, match, result)

    def close(self, match: MatchState) -> MatchState:
        return Variant.close(self, match)


KOENIGRUFEN = Koenigrufen()
