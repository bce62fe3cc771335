"""Zwanzigerrufen: the 40-card Austrian tarock of the StarGames rules.

Four players, 10 cards each, no talon. One combined auction (zwanzigerrufen_auction) fixes
the game (call XX, colour solo or solo), the additions and the kontras; forehand leads the
first trick; the score is in units of the game value (zwanzigerrufen_scoring).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import moves as m
from ...engine import tricks as t
from ...engine.cards import GLATZE, MOND, SKIS, TAROK, Card, Deck, deal_packets, tarock40
from ...engine.fastcopy import evolve
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.outcome import HandResult
from ...engine.phases import PhaseRule, PhaseTable
from ...engine.state import Trick
from ...engine.trickplay import TrickPlay
from ...engine.trickwatch import QUIET, TrickWatch
from ...engine.variant import BonusInfo, ContractInfo, Variant
from ...engine.view import View
from . import auction as auction
from . import data as d
from . import scoring as scoring
from .state import Phase, ZwanzigerState
from .view import build_view
from .vocabulary import VOCABULARY

_DECK = tarock40()
MOND_CARD, SKIS_CARD = Card(TAROK, MOND), Card(TAROK, SKIS)
_MOND_WATCH = TrickWatch(cards=(MOND_CARD,))
PLAIN_RULES = t.TrickRules()
COLOUR_SOLO_RULES = t.TrickRules(trumps_win=False, emperor=False, suits_before_trump_lead=True)


def needs_redeal(hand: Sequence[Card]) -> bool:
    """A hand with no tarok or one, or with all four Glatzen, is thrown in."""
    taroks = sum(1 for c in hand if c.is_tarok)
    glatzen = sum(1 for c in hand if not c.is_tarok and c.rank == GLATZE)
    return taroks <= 1 or glatzen == 4


class Zwanzigerrufen(TrickPlay[ZwanzigerState], Variant[ZwanzigerState]):
    """Austrian XX-calling tarock, as StarGames plays it (seats numbered clockwise)."""

    vocabulary_table = VOCABULARY

    id = "zwanzigerrufen"
    # 2: the rule fixes of the second fidelity round (see docs/rules/decisions.md); tables
    # created under 1 replay with their recorded results (docs/event-log.md).
    rules_version = 2
    name = "Zwanzigerrufen (StarGames tarock)"
    player_counts = (4,)
    option_specs = d.OPTIONS
    phases = Phase

    def phase_table(self) -> PhaseTable[ZwanzigerState]:
        return {
            Phase.AUCTION: PhaseRule(auction.legal, auction.apply, explain=self.explain_auction),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return _DECK

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        return tuple(
            ContractInfo(g, d.GAME_NAMES[g], d.VALUES[g].game, self.player_counts) for g in d.GAMES
        )

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """Call-game values in units; a solo or colour solo doubles them (none in colour solo
        for pagat, trull and mondfang)."""
        v = d.VALUES[d.CALL]
        return (
            BonusInfo(d.ABSOLUT, "Absolut", *v.absolut),
            BonusInfo(d.PAGAT_ITEM, "Pagat", *v.pagat),
            BonusInfo(d.VALAT, "Valat", *v.valat),
            BonusInfo(d.TRULL, "Trull", v.trull, 0),
            BonusInfo(d.KING_TRULL, "King trull", v.king_trull, 0),
            BonusInfo(d.MONDFANG, "Mondfang", v.mondfang, 0),
        )

    # --- deal ---------------------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> ZwanzigerState:
        n = rules.players
        forehand = (dealer + 1) % n
        hands, _ = deal_packets(order, n, forehand, 0, 5)
        hands = tuple(_DECK.sort(h) for h in hands)
        state = ZwanzigerState(
            rules=rules,
            dealer=dealer,
            phase=Phase.AUCTION,
            turn=forehand,
            hands=hands,
            talon=(),
            piles=((),) * n,
            dealt=hands,
        )
        if any(needs_redeal(h) for h in hands):
            return evolve(state, phase=Phase.REDEAL, turn=None)
        return state

    # --- auction ------------------------------------------------------------------------

    def explain_auction(self, s: ZwanzigerState, move: Move) -> str:
        assert s.turn is not None
        return auction.check(s, s.turn, move) or m.Reason.ILLEGAL_MOVE

    # --- trick play hooks ---------------------------------------------------------------

    def trick_rules(self, s: ZwanzigerState) -> t.TrickRules:
        return COLOUR_SOLO_RULES if s.game == d.COLOUR_SOLO else PLAIN_RULES

    def held_cards(self, s: ZwanzigerState, seat: int) -> tuple[Card, ...]:
        """An announced pagat is kept for the last trick while another card is legal."""
        if not s.announced:
            return ()
        item = d.item_id(d.PAGAT_ITEM, s.playing_side(seat))
        return (d.TRULL_CARDS[0],) if s.announcer(item) == seat else ()

    def after_trick(self, s: ZwanzigerState, trick: Trick) -> ZwanzigerState:
        """Mondfang: the skis wins a trick holding the mond (a trull trick too, if chosen)."""
        if s.game == d.COLOUR_SOLO or MOND_CARD not in trick.cards:
            return s
        won_with = dict(trick.plays)[trick.winner]
        trull_trick = s.rules.flag("trull_trick_mondfang") and SKIS_CARD in trick.cards
        if won_with == SKIS_CARD or trull_trick:
            owner = next(seat for seat, card in trick.plays if card == MOND_CARD)
            return evolve(s, mond_caught=owner)
        return s

    def trick_watch(self, s: ZwanzigerState) -> TrickWatch:
        """`after_trick` acts on a trick holding the mond (never in a colour solo)."""
        return QUIET if s.game == d.COLOUR_SOLO else _MOND_WATCH

    # --- results, checks, views, labels -------------------------------------------------

    def result(self, state: ZwanzigerState) -> HandResult | None:
        if state.phase == Phase.REDEAL:
            n = state.players
            return HandResult("redeal", None, (), None, (0,) * n, (0,) * n, (), redeal=True)
        if not state.finished:
            return None
        return scoring.score(state, _DECK)

    def invariants(self, state: ZwanzigerState, result: HandResult) -> list[str]:
        """Card points add up to 88, payments are zero-sum, a valat is scored alone."""
        if result.redeal:
            return []
        errors = []
        if sum(result.side_points) != d.TOTAL_POINTS:
            errors.append(f"card points add up to {sum(result.side_points)}")
        if sum(result.scores) != 0:
            errors.append(f"payments add up to {sum(result.scores)}")
        valat = [line for line in result.lines if line.item.startswith("valat")]
        if valat and len(valat) != len(result.lines):
            errors.append("a valat was scored with other items")
        return errors

    def view(self, state: ZwanzigerState, seat: int | None) -> View:
        return build_view(self, state, seat, self.legal_for(state, seat))

    def label(self, state: ZwanzigerState, move: Move) -> str:
        if move.kind == MoveKind.PLAY:
            return f"Play {_DECK.labels[_DECK.card(move.value)]}"
        if move.kind == MoveKind.BID:
            return f"Announce {d.GAME_NAMES[move.value].lower()}"
        if move.kind == MoveKind.ANNOUNCE:
            return f"Announce {move.value}"
        if move.kind == MoveKind.KONTRA:
            name = d.KONTRA_NAMES[state.level(move.value) + 1].capitalize()
            return f"{name} on {move.value.replace('_', ' ')}"
        if move.kind == MoveKind.END:
            return "End the turn"
        return "Pass (Naprej)" if move.kind == MoveKind.PASS else move.kind.capitalize()


ZWANZIGERRUFEN = Zwanzigerrufen()
