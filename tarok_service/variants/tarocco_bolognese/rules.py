"""Tarocco Bolognese (Ottocento as played by Cardavia): one deal, 4 players
in fixed partnerships, 62 cards, declarations and captured combinations.

Seats are numbered in the direction of play, which is anticlockwise: seat `dealer + 1` sits to
the dealer's right, so it is the player who leads. Partners sit opposite (0 & 2 against 1 & 3).

Phases: `discard` (the dealer, dealt 17, lays away 2), `declare` (from the leader round to the
dealer: `declare` all combinations in hand, or `pass`), `tricks`, then `matto` when the Matto's
team owes a card for it (the Matto's owner chooses which, `give:<card>`), and `scored`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ...engine import moves as m
from ...engine import tricks as t
from ...engine.cards import (
    ANGEL,
    BEGATO,
    FOOL,
    ITALIAN_SUITS,
    MATTO_CARD,
    RE,
    TAROK,
    WORLD,
    Card,
    Deck,
    deal_packets,
    tarocco62,
)
from ...engine.fastcopy import evolve
from ...engine.moves import Move, MoveKind
from ...engine.options import OptionSpec, Rules
from ...engine.outcome import HandResult
from ...engine.phases import PhaseRule, PhaseTable
from ...engine.state import SCORED, TRICKS, HandState, Trick, replace_at, without
from ...engine.trickplay import TrickPlay, start_tricks
from ...engine.trickwatch import TrickWatch
from ...engine.variant import BonusInfo, ContractInfo, Variant
from ...engine.view import Fact, PublicCards, View, seat_view
from . import scoring as scoring
from .combinations import SET_VALUES, Combinations, find, sequence_value
from .vocabulary import VOCABULARY


class Phase(StrEnum):
    """The phases of a deal (the values are the phase strings of logs and views)."""

    DISCARD = "discard"  # the dealer lays away two cards
    DECLARE = "declare"  # each seat declares its combinations or passes
    TRICKS = TRICKS
    MATTO = "matto"  # the Matto's owner gives a card for it
    SCORED = SCORED


DECK: Deck = tarocco62()
PLAYERS = 4
DEALER_EXTRA = 2  # the dealer gets 17 and lays away 2
KEPT_BACK = frozenset(  # never discarded: the kings, Angel, World, Bégato and Matto
    {Card(TAROK, ANGEL), Card(TAROK, WORLD), Card(TAROK, BEGATO), MATTO_CARD}
    | {Card(suit, RE) for suit in ITALIAN_SUITS}
)
TRICK_RULES = t.TrickRules(emperor=False, tie=t.TIE_LAST, excuse=MATTO_CARD)
_MATTO_WATCH = TrickWatch(cards=(MATTO_CARD,))

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "contatori_in_sets",
        False,
        "Bégato and Matto may complete a set of two or three real cards (not allowed)",
    ),
)


@dataclass(frozen=True, slots=True)
class BologneseState(HandState):
    """A Bolognese deal: discards, declarations and the Matto's debt."""

    discards: tuple[Card, ...] = ()
    spoken: int = 0  # players who have declared or passed
    declared: tuple[tuple[int, Combinations], ...] = ()  # (seat, what it declared)
    matto_due: int | None = None  # the Matto's owner, when his team lost the Matto's trick
    matto_taker: int | None = None  # the seat that won the trick the Matto was played to
    given: Card | None = None  # the card handed over for the Matto
    facts: tuple[Fact, ...] = ()


def move_card(
    piles: tuple[tuple[Card, ...], ...], card: Card, source: int, target: int
) -> tuple[tuple[Card, ...], ...]:
    """Piles with `card` moved from one seat's pile to another's."""
    piles = replace_at(piles, source, without(piles[source], card))
    return replace_at(piles, target, (*piles[target], card))


def team_took_trick(s: HandState, seat: int) -> bool:
    return any(tr.winner in scoring.team_of(seat) for tr in s.tricks)


class TaroccoBolognese(TrickPlay[BologneseState], Variant[BologneseState]):
    """Tarocco Bolognese: the one-deal partnership game with combinations."""

    vocabulary_table = VOCABULARY

    id = "tarocco_bolognese"
    name = "Tarocco Bolognese"
    player_counts = (PLAYERS,)
    option_specs = OPTIONS
    phases = Phase

    def phase_table(self) -> PhaseTable[BologneseState]:
        return {
            Phase.DISCARD: PhaseRule(self.legal_discard, self.apply_discard, self.explain_discard),
            Phase.DECLARE: PhaseRule(self.legal_declare, self.apply_declare, self.explain_declare),
            Phase.TRICKS: self.trick_phase(),
            Phase.MATTO: PhaseRule(self.legal_matto, self.apply_matto, self.explain_matto),
        }

    def deck(self, rules: Rules) -> Deck:
        return DECK

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        return (ContractInfo(scoring.CONTRACT, "Partnership game (one deal)", 0, (PLAYERS,)),)

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """Combination values (declared or captured, never announced): `silent` is the value
        of three cards, `announced` of four; a sequence adds 5 per further card; the last
        trick is worth 6."""
        rows = [
            BonusInfo(n, f"{n.capitalize()} (set)", v3, v4) for n, (v3, v4) in SET_VALUES.items()
        ]
        rows.append(BonusInfo("sequence", "Sequence", sequence_value(3), sequence_value(4)))
        return (*rows, BonusInfo("last_trick", "Last trick", scoring.LAST_TRICK, 0))

    def combinations(self, s: BologneseState, cards: Sequence[Card]) -> Combinations:
        return find(cards, s.rules.flag("contatori_in_sets"))

    # --- deal and discard -----------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> BologneseState:
        """Packets of 5 from the dealer's right, three rounds; the last 2 cards to the dealer."""
        if len(order) != len(DECK) or set(order) != set(DECK.cards):
            raise ValueError("a Bolognese deal needs the 62 cards of the pack")
        forehand = (dealer + 1) % PLAYERS
        hands, last = deal_packets(order, PLAYERS, forehand, DEALER_EXTRA, 5, talon_first=False)
        hands = replace_at(hands, dealer, hands[dealer] + last)
        return BologneseState(
            rules=rules,
            dealer=dealer,
            phase=Phase.DISCARD,
            turn=dealer,
            hands=tuple(DECK.sort(h) for h in hands),
            talon=(),
            piles=((),) * PLAYERS,
        )

    def discardable(self, s: BologneseState) -> list[Card]:
        """Never a king, the Angel, the World, the Bégato or the Matto."""
        return [c for c in s.hands[s.dealer] if c not in KEPT_BACK]

    def legal_discard(self, s: BologneseState) -> list[Move]:
        return [Move(MoveKind.DISCARD, DECK.codes[c]) for c in self.discardable(s)]

    def explain_discard(self, s: BologneseState, move: Move) -> str:
        return (
            m.Reason.DISCARD_NOT_ALLOWED if move.kind == MoveKind.DISCARD else m.Reason.WRONG_PHASE
        )

    def apply_discard(self, s: BologneseState, move: Move) -> BologneseState:
        card = DECK.card(move.value)
        s = evolve(
            s,
            hands=replace_at(s.hands, s.dealer, without(s.hands[s.dealer], card)),
            piles=replace_at(s.piles, s.dealer, (*s.piles[s.dealer], card)),
            discards=(*s.discards, card),
        )
        if len(s.discards) == DEALER_EXTRA:
            return evolve(s, phase=Phase.DECLARE, turn=s.forehand)
        return s

    # --- declarations ---------------------------------------------------------------------

    def legal_declare(self, s: BologneseState) -> list[Move]:
        """Declare everything, or pass (a pass is offered even with nothing to declare, so that
        passing reveals nothing)."""
        assert s.turn is not None
        has = bool(self.combinations(s, s.hands[s.turn]))
        return [Move(MoveKind.DECLARE), Move(MoveKind.PASS)] if has else [Move(MoveKind.PASS)]

    def explain_declare(self, s: BologneseState, move: Move) -> str:
        return (
            m.Reason.ANNOUNCEMENT_NOT_ALLOWED
            if move.kind == MoveKind.DECLARE
            else m.Reason.WRONG_PHASE
        )

    def apply_declare(self, s: BologneseState, move: Move) -> BologneseState:
        assert s.turn is not None
        seat = s.turn
        if move.kind == MoveKind.DECLARE:
            combos = self.combinations(s, s.hands[seat])
            text = ",".join(c.describe() for c in combos.all)
            fact = Fact(seat, MoveKind.DECLARE, text, combos.total)
            s = evolve(s, declared=(*s.declared, (seat, combos)), facts=(*s.facts, fact))
        else:
            s = evolve(s, facts=(*s.facts, Fact(seat, MoveKind.PASS, "")))
        s = evolve(s, spoken=s.spoken + 1)
        if s.spoken == PLAYERS:
            return start_tricks(s, s.forehand)
        return evolve(s, turn=s.next_seat(seat))

    # --- trick play -----------------------------------------------------------------------

    def trick_rules(self, state: BologneseState) -> t.TrickRules:
        return TRICK_RULES

    def after_trick(self, s: BologneseState, trick: Trick) -> BologneseState:
        """The Matto stays with its team: taken back from a trick the other team won."""
        owner = next((seat for seat, c in trick.plays if c.suit == FOOL and c == MATTO_CARD), None)
        if owner is None or trick.winner in scoring.team_of(owner):
            return s
        piles = move_card(s.piles, MATTO_CARD, trick.winner, owner)
        return evolve(s, piles=piles, matto_due=owner, matto_taker=trick.winner)

    def trick_watch(self, s: BologneseState) -> TrickWatch:
        """`after_trick` acts on a trick holding the Matto."""
        return _MATTO_WATCH

    def finish_play(self, state: BologneseState) -> BologneseState:
        return self.end_of_play(super().finish_play(state))

    def end_of_play(self, s: BologneseState) -> BologneseState:
        """After the last trick: a team without a trick loses the Matto to the other team, and
        the dealer's discards too if it is the dealer's; otherwise a Matto lost in a trick is
        paid for with a card its owner chooses (phase `matto`)."""
        last = s.tricks[-1].winner
        owner, taker = s.matto_due, s.matto_taker
        if owner is not None and taker is not None and not team_took_trick(s, owner):
            piles = move_card(s.piles, MATTO_CARD, owner, taker)
            s = evolve(s, piles=piles, matto_due=None)
        if not team_took_trick(s, s.dealer):
            piles = s.piles
            for card in s.discards:
                piles = move_card(piles, card, s.dealer, last)
            s = evolve(s, piles=piles)
        if s.matto_due is not None:
            return evolve(s, phase=Phase.MATTO, turn=s.matto_due)
        return s

    # --- the Matto exchange ---------------------------------------------------------------

    def exchange_cards(self, s: BologneseState) -> list[Card]:
        """The captured cards the Matto's team may give for it, the default first: its 1-point
        cards (else its lowest-valued cards), suit pips before trumps, lowest rank first."""
        assert s.matto_due is not None
        pile = [c for c in scoring.team_pile(s, scoring.team_of(s.matto_due)) if c != MATTO_CARD]
        low = min(DECK.points[c] for c in pile)
        cards = [c for c in pile if DECK.points[c] == low]
        return sorted(cards, key=lambda c: (c.suit in (TAROK, FOOL), c.rank, DECK.index[c]))

    def legal_matto(self, s: BologneseState) -> list[Move]:
        """The cards to give, the default move (the base `default_move`, the first legal
        move) first: the lowest suit pip, else the lowest other 1-point card."""
        return [Move(MoveKind.GIVE, DECK.codes[c]) for c in self.exchange_cards(s)]

    def explain_matto(self, s: BologneseState, move: Move) -> str:
        return m.Reason.ILLEGAL_MOVE if move.kind == MoveKind.GIVE else m.Reason.WRONG_PHASE

    def apply_matto(self, s: BologneseState, move: Move) -> BologneseState:
        assert s.matto_due is not None and s.matto_taker is not None
        card = DECK.card(move.value)
        holder = next(seat for seat in scoring.team_of(s.matto_due) if card in s.piles[seat])
        return evolve(
            s,
            piles=move_card(s.piles, card, holder, s.matto_taker),
            given=card,
            phase=Phase.SCORED,
            turn=None,
            facts=(*s.facts, Fact(s.matto_due, MoveKind.GIVE, move.value)),
        )

    # --- result, invariants, view ---------------------------------------------------------

    def result(self, state: BologneseState) -> HandResult | None:
        return scoring.score(self, state) if state.finished else None

    def invariants(self, s: BologneseState, result: HandResult) -> list[str]:
        """87 card points between the teams, 6 for one last trick, even piles, and scores
        that are the difference of the team totals."""
        errors = []
        if sum(result.side_points) != scoring.PACK_POINTS:
            errors.append(f"card points add up to {sum(result.side_points)}")
        last = [x.points for x in result.lines if x.item == scoring.LAST]
        if last != [scoring.LAST_TRICK]:
            errors.append(f"last trick lines {last}")
        sizes = [len(scoring.team_pile(s, team)) for team in scoring.TEAMS]
        if sum(sizes) != len(DECK) or any(n % 2 for n in sizes):
            errors.append(f"team piles of {sizes} cards")
        a, b = scoring.team_totals(result)
        if result.scores != (a - b, b - a, a - b, b - a):
            errors.append(f"scores {result.scores} for team totals {a}, {b}")
        return errors

    def public_cards(self, s: BologneseState, seat: int | None) -> tuple[PublicCards, ...]:
        """Declared cards, to everyone; the discards to the dealer, and to all once play is
        over (the piles are counted face up, and the Matto exchange may offer them)."""
        groups = [PublicCards("declared", DECK.sort(c.cards()), who) for who, c in s.declared]
        if s.discards and (seat == s.dealer or s.phase in (Phase.MATTO, Phase.SCORED)):
            groups.append(PublicCards("discards", s.discards, s.dealer))
        return tuple(groups)

    def view(self, s: BologneseState, seat: int | None) -> View:
        return seat_view(
            s,
            seat,
            public=self.public_cards(s, seat),
            facts=s.facts,
            contract=scoring.CONTRACT,
            declarer=None,
            partners=((seat + 2) % PLAYERS,) if seat is not None else (),
            called="",
            legal=self.legal_for(s, seat),
            result=self.result(s),
        )

    def label(self, s: BologneseState, move: Move) -> str:
        if move.kind in (MoveKind.PLAY, MoveKind.DISCARD):
            return f"{move.kind.capitalize()} {DECK.labels[DECK.card(move.value)]}"
        if move.kind == MoveKind.GIVE:
            return f"Give {DECK.labels[DECK.card(move.value)]} for the Matto"
        if move.kind == MoveKind.DECLARE:
            assert s.turn is not None
            combos = self.combinations(s, s.hands[s.turn])
            names = ", ".join(c.describe() for c in combos.all)
            return f"Declare {names} ({combos.total} points)"
        return "Pass (declare nothing)"


TAROCCO_BOLOGNESE = TaroccoBolognese()
