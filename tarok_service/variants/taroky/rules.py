"""Czech taroky with povinnosti, varšava and the žid, 4 players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...engine import kontra as k
from ...engine import moves as m
from ...engine import tricks as t
from ...engine.announce import AnnouncementRound
from ...engine.auction import PASSED, Auction
from ...engine.cards import PAGAT, TAROK, Card, Deck, deal_packets
from ...engine.fastcopy import evolve
from ...engine.match import HAND_SCORE, ZID_PAYMENT, ZID_TAKEN, MatchState, Settlement
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.outcome import HandResult
from ...engine.phases import PhaseRule, PhaseTable
from ...engine.state import Trick
from ...engine.trickplay import TrickPlay, start_tricks
from ...engine.trickwatch import QUIET, TrickWatch
from ...engine.variant import BonusInfo, ContractInfo, Variant
from ...engine.view import Fact, View
from . import data as d
from . import scoring as scoring
from . import talon as talon
from .declarations import declarations
from .state import DECK, DECLARATION, Phase, TarokyState
from .view import build_view
from .vocabulary import VOCABULARY

_GIFTS = TrickWatch(gifts=True)  # varšava: a talon card to each trick's winner while it lasts

PAGAT_CARD = Card(TAROK, PAGAT)
PLAIN_RULES = t.TrickRules(emperor=False)
VARSAVA_RULES = t.TrickRules(
    must_overtake=True, emperor=False, pagat_last_tarok=True, mond_not_under_skis=True
)


class Taroky(AnnouncementRound[TarokyState], TrickPlay[TarokyState], Variant[TarokyState]):
    """Czech taroky "se starou": povinnosti, the call of XIX, varšava and the žid."""

    vocabulary_table = VOCABULARY

    id = "taroky"
    # 2: the rule fixes of the second fidelity round (see docs/rules/decisions.md); tables
    # created under 1 replay with their recorded results (docs/event-log.md).
    rules_version = 2
    name = "Czech taroky"
    player_counts = (4,)
    option_specs = d.OPTIONS
    phases = Phase
    talon_size = 6
    packet = 6

    def phase_table(self) -> PhaseTable[TarokyState]:
        return {
            Phase.BIDDING: PhaseRule(self.legal_bidding, self.apply_bidding, self.explain_bidding),
            Phase.VARSAVA_CHOICE: PhaseRule(
                self.legal_varsava_choice, self.apply_varsava_choice, self.explain_varsava_choice
            ),
            Phase.CALLING: PhaseRule(self.legal_calling, self.apply_calling, self.explain_calling),
            Phase.THIRD_TALON: PhaseRule(self.legal_third_talon, self.apply_third_talon),
            Phase.EXCHANGE: PhaseRule(
                self.legal_exchange, self.apply_exchange, self.explain_exchange
            ),
            Phase.DECLARING: self.round_phase(),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return DECK

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        rows = (*d.OBLIGATIONS, d.VARSAVA_GAME)
        return tuple(ContractInfo(o.id, o.name, o.multiplier, self.player_counts) for o in rows)

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """Revealing declarations (silent values) and the binding pagat and valat, at the
        default option values."""
        value = {s.name: s.default for s in d.OPTIONS if type(s.default) is int}
        rows = [
            BonusInfo(i, n, value["big_declaration" if big else "small_declaration"], 0)
            for i, (n, big) in d.DECLARATIONS.items()
        ]
        for item, name in d.BINDING_NAMES.items():
            rows.append(BonusInfo(item, name, value[f"{item}_silent"], value[f"{item}_announced"]))
        return tuple(rows)

    # --- deal ---------------------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> TarokyState:
        """The talon is the first six cards; then packets of six from forehand."""
        n = rules.players
        forehand = (dealer + 1) % n
        hands, tal = deal_packets(order, n, forehand, self.talon_size, self.packet)
        return TarokyState(
            rules=rules,
            dealer=dealer,
            phase=Phase.BIDDING,
            turn=forehand,
            hands=tuple(DECK.sort(h) for h in hands),
            talon=tal,
            piles=((),) * n,
            auction=Auction(forehand, (None,) * n),
        )

    def misdeal(self, s: TarokyState) -> TarokyState:
        """Throw the hand in as misdealt: the dealer pays into the zid (seed)."""
        return evolve(s, phase=Phase.REDEAL, turn=None, misdealt=True)

    # --- auction of obligations ----------------------------------------------------------

    def legal_bidding(self, s: TarokyState) -> list[Move]:
        """Forehand must name an obligation first; the others accept (pass) or go higher."""
        assert s.auction is not None and s.turn is not None
        if s.turn == s.forehand and s.auction.bids[s.turn] is None:
            return [Move(MoveKind.BID, o.id) for o in d.OBLIGATIONS]
        best, _ = s.auction.high()
        higher = [Move(MoveKind.BID, o.id) for i, o in enumerate(d.OBLIGATIONS) if i > best]
        return [Move(MoveKind.PASS), *higher]

    def explain_bidding(self, s: TarokyState, move: Move) -> str:
        if move.kind == MoveKind.PASS:
            return m.Reason.PASS_NOT_ALLOWED
        if move.kind != MoveKind.BID:
            return m.Reason.WRONG_PHASE
        return (
            m.Reason.BID_TOO_LOW if move.value in d.OBLIGATION_INDEX else m.Reason.BID_NOT_ALLOWED
        )

    def apply_bidding(self, s: TarokyState, move: Move) -> TarokyState:
        seat = s.turn
        assert s.auction is not None and seat is not None
        bid = PASSED if move.kind == MoveKind.PASS else d.OBLIGATION_INDEX[move.value]
        auction = s.auction.bid(seat, bid)
        s = evolve(s, auction=auction, facts=(*s.facts, Fact(seat, move.kind, move.value)))
        best, high = auction.high()
        if high is None or not auction.others_passed(high):
            return evolve(s, turn=auction.next_bidder(seat))
        if d.OBLIGATIONS[best].id == d.BASIC:
            return evolve(s, phase=Phase.VARSAVA_CHOICE, turn=high)
        return self._chosen(s, high, d.OBLIGATIONS[best].id)

    def legal_varsava_choice(self, s: TarokyState) -> list[Move]:
        """Everybody accepted the basic obligation: forehand may turn it into varšava."""
        return [Move(MoveKind.BID, d.VARSAVA), Move(MoveKind.PASS)]

    def explain_varsava_choice(self, s: TarokyState, move: Move) -> str:
        return m.Reason.BID_NOT_ALLOWED if move.kind == MoveKind.BID else m.Reason.WRONG_PHASE

    def apply_varsava_choice(self, s: TarokyState, move: Move) -> TarokyState:
        assert s.turn is not None
        if move.kind == MoveKind.PASS:
            return self._chosen(s, s.turn, d.BASIC)
        fact = Fact(s.turn, MoveKind.BID, d.VARSAVA)
        s = evolve(s, contract=d.VARSAVA, declarer=s.turn, facts=(*s.facts, fact))
        return start_tricks(s, s.forehand)

    def _chosen(self, s: TarokyState, seat: int, contract: str) -> TarokyState:
        o = d.BY_ID[contract]
        s = evolve(s, contract=contract, declarer=seat, turn=seat, multiplier=o.multiplier)
        if o.calls:
            return evolve(s, phase=Phase.CALLING)
        if o.talon == "third":
            return evolve(s, phase=Phase.THIRD_TALON)
        return self._declaring(s)

    # --- the call, the talon and the discards --------------------------------------------

    def legal_calling(self, s: TarokyState) -> list[Move]:
        return [Move(MoveKind.CALL, DECK.codes[c]) for c in talon.callable_cards(s)]

    def explain_calling(self, s: TarokyState, move: Move) -> str:
        return m.Reason.CALL_NOT_ALLOWED if move.kind == MoveKind.CALL else m.Reason.WRONG_PHASE

    def apply_calling(self, s: TarokyState, move: Move) -> TarokyState:
        return talon.call(s, DECK.card(move.value))

    def legal_third_talon(self, s: TarokyState) -> list[Move]:
        return [Move(MoveKind.TALON, talon.KEEP), Move(MoveKind.TALON, talon.REJECT)]

    def apply_third_talon(self, s: TarokyState, move: Move) -> TarokyState:
        return talon.third_choice(s, move.value)

    def legal_exchange(self, s: TarokyState) -> list[Move]:
        seat = s.queue[0][0]
        return [Move(MoveKind.DISCARD, DECK.codes[c]) for c in talon.discardable(s, seat)]

    def explain_exchange(self, s: TarokyState, move: Move) -> str:
        return (
            m.Reason.DISCARD_NOT_ALLOWED if move.kind == MoveKind.DISCARD else m.Reason.WRONG_PHASE
        )

    def apply_exchange(self, s: TarokyState, move: Move) -> TarokyState:
        s = talon.discard(s, DECK.card(move.value))
        return s if s.queue else self._declaring(s)

    # --- declarations and flek -----------------------------------------------------------

    def _declaring(self, s: TarokyState) -> TarokyState:
        """Revealing declarations are made from every hand at once, from the declarer on."""
        assert s.declarer is not None
        made, facts = [], [*s.facts]
        for i in range(s.players):
            seat = (s.declarer + i) % s.players
            for item in declarations(s.hands[seat]):
                made.append((seat, item))
                facts.append(Fact(seat, DECLARATION, item))
        return evolve(
            s,
            declarations=tuple(made),
            facts=tuple(facts),
            phase=Phase.DECLARING,
            turn=s.declarer,
            passes=0,
        )

    def announceable(self, s: TarokyState, seat: int) -> list[str]:
        """Binding declarations `seat` may still make: the pagat if he holds it, the valat."""
        items = [d.PAGAT] if PAGAT_CARD in s.hands[seat] else []
        return [i for i in (*items, d.VALAT) if s.announcer(i) is None]

    def can_flek(self, s: TarokyState, seat: int) -> bool:
        """Flek by an opponent, reflek by the declaring side, and so on to the table's limit."""
        return k.can_raise(s.flek, seat in s.team(), s.rules.num("max_flek"))

    def kontrable(self, s: TarokyState, seat: int) -> list[str]:
        """Flek is raised on the game part alone."""
        return [d.GAME] if self.can_flek(s, seat) else []

    def first_leader(self, s: TarokyState) -> int:
        return s.forehand

    # --- trick play hooks ----------------------------------------------------------------

    def trick_rules(self, s: TarokyState) -> t.TrickRules:
        """No emperor's trick; varšava must overtake, no XXI under the škýz, pagat last."""
        return VARSAVA_RULES if s.contract == d.VARSAVA else PLAIN_RULES

    def after_trick(self, s: TarokyState, trick: Trick) -> TarokyState:
        """Varšava: a talon card goes with each of the first six tricks to its winner."""
        if s.contract != d.VARSAVA or not s.talon:
            return s
        return self.give_talon(s, trick.winner)

    def gift_changes(self, s: TarokyState, given: tuple[tuple[int, Card], ...]) -> dict[str, Any]:
        """Varšava's talon cards given to trick winners, kept in `gifts` with the winners."""
        return {"gifts": (*s.gifts, *given)}

    def trick_watch(self, s: TarokyState) -> TrickWatch:
        """`after_trick` gives a talon card to the winner of every trick of varšava while the
        talon lasts, and acts on no other trick."""
        return _GIFTS if s.contract == d.VARSAVA and s.talon else QUIET

    # --- results, views, labels ----------------------------------------------------------

    def result(self, s: TarokyState) -> HandResult | None:
        return scoring.score(s) if s.finished else None

    def invariants(self, state: TarokyState, result: HandResult) -> list[str]:
        """Card points: 70 for two sides, 69-71 per player in varšava; payments and the pot
        add up to zero; every trick was played."""
        errors = []
        if sum(result.totals) + result.pot != 0:
            errors.append(f"payments {sum(result.totals)} and pot {result.pot} do not balance")
        if result.redeal:
            return errors
        total = sum(result.side_points)
        if result.contract == d.VARSAVA:
            if len(result.side_points) != 4 or not 69 <= total <= 71:
                errors.append(f"varsava card points add up to {total}")
        elif len(result.side_points) != 2 or total != 70:
            errors.append(f"card points add up to {total}")
        if len(state.tricks) != 12 or (state.talon and result.contract == d.VARSAVA):
            errors.append("hand ended early or talon not given out")
        return errors

    def view(self, s: TarokyState, seat: int | None) -> View:
        legal = self.legal_for(s, seat)
        return build_view(s, seat, legal, self.result(s) if s.finished else None)

    def label(self, s: TarokyState, move: Move) -> str:
        if move.kind in (MoveKind.PLAY, MoveKind.DISCARD, MoveKind.CALL):
            return f"{move.kind.capitalize()} {DECK.labels[DECK.card(move.value)]}"
        if move.kind == MoveKind.BID:
            return f"Bid {d.BY_ID[move.value].name}"
        if move.kind == MoveKind.PASS:
            passes: dict[str, str] = {
                Phase.BIDDING: "Dobrá (accept)",
                Phase.VARSAVA_CHOICE: "Play the basic obligation",
            }
            return passes.get(s.phase, "Pass")
        if move.kind == MoveKind.TALON:  # the label is public: it names no hidden card
            return f"{move.value.capitalize()} the three talon cards looked at"
        if move.kind == MoveKind.ANNOUNCE:
            return f"Announce {d.BINDING_NAMES[move.value]}"
        return k.name(s.flek + 1, k.FLEK_NAMES).capitalize()

    # --- match: the zid -------------------------------------------------------------------

    def zid_result(self, match: MatchState, result: HandResult) -> HandResult:
        """The hand's result with the zid settled against the table's pot (second obligation:
        a win takes the pot, a loss doubles it)."""
        payer = str(match.rules.opt("zid_lost_payer")) if match.rules else "split"
        return scoring.with_zid(result, match.pot, payer)

    def settle(self, match: MatchState, result: HandResult) -> MatchState:
        """Totals, dealer rotation, and the zid: varšava and misdeals fill it."""
        resolved = self.zid_result(match, result)
        zid = [r - t for r, t in zip(resolved.totals, result.totals, strict=True)]
        settled = Settlement.of(
            match.players,
            [(HAND_SCORE, result.totals), (ZID_TAKEN if result.won else ZID_PAYMENT, zid)],
            resolved.pot,
        )
        after = match.record(resolved.totals, redeal=resolved.redeal, settled=settled)
        return replace(after, pot=match.pot + resolved.pot)


TAROKY = Taroky()
