"""French Tarot (the federation's rules) for 3, 4 and 5 players.

78 cards: 21 trumps, the excuse and four suits of 14 (K Q N J 10 .. 1). One round of bids
(prise, garde, garde sans, garde contre); with 5 the taker calls a king; in prise and garde
the taker takes the chien and lays an écart; the taker may announce a chelem; each player may
show a poignée (and, with the option, declare a misère); then the tricks (see `play`) and the
score (see `scoring`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import moves as m
from ...engine import tricks as t
from ...engine.cards import TAROK, Card, Deck, deal_packets
from ...engine.fastcopy import evolve
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.outcome import HandResult
from ...engine.phases import PhaseRule, PhaseTable
from ...engine.state import Trick, replace_at, without
from ...engine.trickplay import TrickPlay, start_tricks
from ...engine.variant import BonusInfo, ContractInfo, Variant
from ...engine.view import Fact, PublicCards, View, seat_view
from . import data as d
from . import play as p
from . import scoring as scoring
from .state import Phase, TarotState
from .vocabulary import VOCABULARY

DECK = d.DECK
TRICK_RULES = t.TrickRules(emperor=False, excuse=d.EXCUSE)
CALL_RANKS = (d.KING, d.QUEEN, d.CAVALIER, d.JACK)


def trumps_of(hand: Sequence[Card]) -> list[Card]:
    return [c for c in hand if c.suit == TAROK]


def petit_sec(hand: Sequence[Card]) -> bool:
    """The petit is the hand's only trump and the excuse is not in it."""
    return trumps_of(hand) == [d.PETIT] and d.EXCUSE not in hand


def poignee_cards(hand: Sequence[Card], size: int) -> tuple[Card, ...] | None:
    """The cards a poignée of `size` shows (the lowest trumps; the excuse only in place of a
    missing trump, which says the hand holds no other), or None when the hand has too few."""
    trumps = trumps_of(hand)
    if len(trumps) >= size:
        return tuple(trumps[:size])
    if len(trumps) == size - 1 and d.EXCUSE in hand:
        return (*trumps, d.EXCUSE)
    return None


def callable_rank(hand: Sequence[Card]) -> int:
    """Kings; a taker holding all four calls a queen, and so on down to the jacks."""
    return next(
        r for r in CALL_RANKS if sum(1 for c in hand if c.rank == r and c.suit != TAROK) < 4
    )


class FrenchTarot(TrickPlay[TarotState], Variant[TarotState]):
    """French Tarot for 3, 4 and 5 players."""

    vocabulary_table = VOCABULARY

    id = "french_tarot"
    name = "French Tarot"
    player_counts = (3, 4, 5)
    option_specs = d.OPTIONS
    phases = Phase

    def phase_table(self) -> PhaseTable[TarotState]:
        return {
            Phase.BIDDING: PhaseRule(self.legal_bid, self.apply_bid, self.explain_bid),
            Phase.CALL: PhaseRule(self.legal_call, self.apply_call, self.explain_call),
            Phase.ECART: PhaseRule(self.legal_ecart, self.apply_ecart, self.explain_ecart),
            Phase.CHELEM: PhaseRule(self.legal_chelem, self.apply_chelem, self.explain_declare),
            Phase.DECLARE: PhaseRule(self.legal_declare, self.apply_declare, self.explain_declare),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return DECK

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        return tuple(
            ContractInfo(c, d.CONTRACT_NAMES[c], 25 * d.MULTIPLIERS[c], self.player_counts)
            for c in d.CONTRACTS
        )

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        """`silent`: won without announcement (or shown), `announced`: announced and won."""
        return (
            BonusInfo("petit_au_bout", "Petit au bout (x multiplier)", 10, 0),
            BonusInfo(d.POIGNEES[0], "Simple poignée", 20, 20),
            BonusInfo(d.POIGNEES[1], "Double poignée", 30, 30),
            BonusInfo(d.POIGNEES[2], "Triple poignée", 40, 40),
            BonusInfo(d.CHELEM, "Chelem", 200, 400),
        )

    # --- deal and bidding ---------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> TarotState:
        n = rules.players
        table = d.TABLES[n]
        if len(order) != len(DECK) or set(order) != set(DECK.cards):
            raise ValueError("a French Tarot deal needs the 78 cards of the pack")
        packet = rules.num("deal_packet") if n == 3 else 3
        forehand = (dealer + 1) % n
        hands, chien = deal_packets(order, n, forehand, table.chien, packet)
        hands = tuple(DECK.sort(h) for h in hands)
        state = TarotState(
            rules=rules, dealer=dealer, phase=Phase.BIDDING, turn=forehand, hands=hands,
            talon=DECK.sort(chien), piles=((),) * n, dealt=hands,
        )  # fmt: skip
        if rules.flag("petit_sec_redeal") and any(petit_sec(h) for h in hands):
            return evolve(state, phase=Phase.REDEAL, turn=None)
        return state

    def open_contracts(self, s: TarotState) -> list[str]:
        low = d.CONTRACTS.index(s.contract) + 1 if s.contract else 0
        allowed = [c for c in d.CONTRACTS[low:]]
        if not s.rules.flag("prise_allowed"):
            allowed = [c for c in allowed if c != d.PRISE]
        return allowed

    def legal_bid(self, s: TarotState) -> list[Move]:
        return [Move(MoveKind.PASS)] + [Move(MoveKind.BID, c) for c in self.open_contracts(s)]

    def explain_bid(self, s: TarotState, move: Move) -> str:
        if move.kind != MoveKind.BID:
            return m.Reason.WRONG_PHASE
        return m.Reason.BID_TOO_LOW if move.value in d.CONTRACTS else m.Reason.BID_NOT_ALLOWED

    def apply_bid(self, s: TarotState, move: Move) -> TarotState:
        seat = s.turn
        assert seat is not None
        if move.kind == MoveKind.BID:
            fact = Fact(seat, MoveKind.BID, move.value)
            s = evolve(s, contract=move.value, taker=seat, facts=(*s.facts, fact))
        else:
            s = evolve(s, facts=(*s.facts, Fact(seat, MoveKind.PASS, "")))
        s = evolve(s, spoken=s.spoken + 1, turn=s.next_seat(seat))
        if s.spoken < s.players:
            return s
        if s.taker is None:
            return evolve(s, phase=Phase.SCORED, turn=None, contract=d.PASSED)
        if s.players == 5:
            return evolve(s, phase=Phase.CALL, turn=s.taker)
        return self.after_call(s)

    # --- the call (5 players) -------------------------------------------------------------

    def legal_call(self, s: TarotState) -> list[Move]:
        assert s.taker is not None
        rank = callable_rank(s.hands[s.taker])
        return [Move(MoveKind.CALL, DECK.codes[Card(suit, rank)]) for suit in d.SUITS]

    def explain_call(self, s: TarotState, move: Move) -> str:
        return m.Reason.CALL_NOT_ALLOWED if move.kind == MoveKind.CALL else m.Reason.WRONG_PHASE

    def apply_call(self, s: TarotState, move: Move) -> TarotState:
        assert s.taker is not None
        card = DECK.card(move.value)
        holder = next((seat for seat, h in enumerate(s.hands) if card in h), None)
        partner = None if holder == s.taker else holder
        fact = Fact(s.taker, MoveKind.CALL, move.value)
        return self.after_call(evolve(s, called=card, partner=partner, facts=(*s.facts, fact)))

    def after_call(self, s: TarotState) -> TarotState:
        """Prise, garde: the chien, shown, goes into the taker's hand for the écart; otherwise
        it stays face down and the taker may announce a chelem."""
        assert s.taker is not None
        if s.contract in d.WITH_CHIEN:
            hand = DECK.sort((*s.hands[s.taker], *s.talon))
            hands = replace_at(s.hands, s.taker, hand)
            return evolve(s, hands=hands, talon=(), chien=s.talon, phase=Phase.ECART, turn=s.taker)
        return evolve(s, phase=Phase.CHELEM, turn=s.taker)

    # --- the écart ------------------------------------------------------------------------

    def ecart_cards(self, s: TarotState) -> list[Card]:
        """Never a king or a bout; a trump only when the suit cards left cannot fill it."""
        assert s.taker is not None
        hand = s.hands[s.taker]
        suits = [c for c in hand if c.suit in d.SUITS and c.rank != d.KING]
        left = d.TABLES[s.players].chien - len(s.ecart)
        trumps = [c for c in hand if c.suit == TAROK and c not in d.BOUTS]
        if len(suits) >= left and s.rules.opt("ecart_trumps") == "if_forced":
            return suits
        return suits + trumps

    def legal_ecart(self, s: TarotState) -> list[Move]:
        return [Move(MoveKind.DISCARD, DECK.codes[c]) for c in DECK.sort(self.ecart_cards(s))]

    def explain_ecart(self, s: TarotState, move: Move) -> str:
        if move.kind != MoveKind.DISCARD:
            return m.Reason.WRONG_PHASE
        assert s.taker is not None
        card = DECK.by_code.get(move.value)
        if card is None or card not in s.hands[s.taker]:
            return m.Reason.CARD_NOT_IN_HAND
        return m.Reason.DISCARD_NOT_ALLOWED

    def apply_ecart(self, s: TarotState, move: Move) -> TarotState:
        assert s.taker is not None
        card = DECK.card(move.value)
        hands = replace_at(s.hands, s.taker, without(s.hands[s.taker], card))
        facts = s.facts
        if card.suit == TAROK:  # a trump laid away is shown
            facts = (*facts, Fact(s.taker, MoveKind.DISCARD, move.value))
        piles = replace_at(s.piles, s.taker, (*s.piles[s.taker], card))
        s = evolve(s, hands=hands, piles=piles, ecart=(*s.ecart, card), facts=facts)
        if len(s.ecart) < d.TABLES[s.players].chien:
            return s
        return evolve(s, phase=Phase.CHELEM, turn=s.taker)

    # --- chelem, poignées, misères ----------------------------------------------------------

    def legal_chelem(self, s: TarotState) -> list[Move]:
        return [Move(MoveKind.PASS), Move(MoveKind.ANNOUNCE, d.CHELEM)]

    def apply_chelem(self, s: TarotState, move: Move) -> TarotState:
        assert s.taker is not None
        if move.kind == MoveKind.ANNOUNCE:
            fact = Fact(s.taker, MoveKind.ANNOUNCE, d.CHELEM)
            s = evolve(s, chelem_announced=True, facts=(*s.facts, fact))
        return evolve(s, phase=Phase.DECLARE, turn=s.first_leader())

    def declarations(self, s: TarotState, seat: int) -> list[str]:
        """The poignée steps the seat's hand allows (one poignée each) and, with the option,
        the misères its dealt hand allows (each once)."""
        out: list[str] = []
        if not any(who == seat for who, _, _ in s.poignees):
            sizes = d.poignee_sizes(s.rules, s.players)
            out += [
                step
                for step, n in zip(d.POIGNEES, sizes, strict=True)
                if poignee_cards(s.hands[seat], n)
            ]
        if s.rules.flag("misere"):
            dealt = s.dealt[seat]
            made = {kind for who, kind in s.miseres if who == seat}
            if not trumps_of(dealt) and d.EXCUSE not in dealt and d.MISERE_TRUMPS not in made:
                out.append(d.MISERE_TRUMPS)
            heads = any(c.suit in d.SUITS and c.rank >= d.JACK for c in dealt)
            if not heads and d.MISERE_HEADS not in made:
                out.append(d.MISERE_HEADS)
        return out

    def legal_declare(self, s: TarotState) -> list[Move]:
        assert s.turn is not None
        items = self.declarations(s, s.turn)
        return [Move(MoveKind.PASS)] + [Move(MoveKind.ANNOUNCE, i) for i in items]

    def explain_declare(self, s: TarotState, move: Move) -> str:
        if move.kind != MoveKind.ANNOUNCE:
            return m.Reason.WRONG_PHASE
        return m.Reason.ANNOUNCEMENT_NOT_ALLOWED

    def apply_declare(self, s: TarotState, move: Move) -> TarotState:
        seat = s.turn
        assert seat is not None
        if move.kind == MoveKind.PASS:
            s = evolve(s, declared=s.declared + 1, turn=s.next_seat(seat))
            if s.declared < s.players:
                return s
            return start_tricks(s, s.first_leader())
        fact = Fact(seat, MoveKind.ANNOUNCE, move.value)
        if move.value in d.MISERES:
            return evolve(s, miseres=(*s.miseres, (seat, move.value)), facts=(*s.facts, fact))
        size = d.poignee_sizes(s.rules, s.players)[d.POIGNEES.index(move.value)]
        cards = poignee_cards(s.hands[seat], size)
        assert cards is not None
        return evolve(s, poignees=(*s.poignees, (seat, move.value, cards)), facts=(*s.facts, fact))

    # --- trick play ---------------------------------------------------------------------

    def trick_rules(self, s: TarotState) -> t.TrickRules:
        return TRICK_RULES

    def lead_ban(self, s: TarotState) -> Card | None:
        """The called card, while it limits the first lead (5 players, option on)."""
        if s.tricks or s.trick or s.called is None or not s.rules.flag("called_suit_first_lead"):
            return None
        return s.called

    def playable(self, s: TarotState, seat: int) -> list[Card]:
        return p.playable(s.hands[seat], [c for _, c in s.trick], self.lead_ban(s))

    def explain_tricks(self, s: TarotState, move: Move) -> str:
        assert s.turn is not None
        card = DECK.by_code.get(move.value)
        if move.kind != MoveKind.PLAY or card is None:
            return m.Reason.WRONG_PHASE
        return p.refusal(s.hands[s.turn], [c for _, c in s.trick], card, self.lead_ban(s))

    def finish_play(self, s: TarotState) -> TarotState:
        """The excuse led to the last trick by a side that won all the others wins it."""
        if scoring.excuse_won_last(s):
            last = s.tricks[-1]
            piles = replace_at(s.piles, last.winner, s.piles[last.winner][: -len(last.plays)])
            piles = replace_at(piles, last.leader, (*piles[last.leader], *last.cards))
            s = evolve(s, tricks=(*s.tricks[:-1], Trick(last.plays, last.leader)), piles=piles)
        return super().finish_play(s)

    # --- result, invariants, view, labels -------------------------------------------------

    def result(self, s: TarotState) -> HandResult | None:
        n = s.players
        if s.phase == Phase.REDEAL:
            return HandResult("redeal", None, (), None, (0,) * n, (0,) * n, (), redeal=True)
        if not s.finished:
            return None
        if s.taker is None:
            return HandResult(d.PASSED, None, (), None, (0,) * n, (0,) * n, ())
        return scoring.score(s)

    def invariants(self, s: TarotState, result: HandResult) -> list[str]:
        """Scores sum to zero; the sides' half points add up to the pack's 182."""
        errors = []
        if sum(result.totals) != 0:
            errors.append(f"scores add up to {sum(result.totals)}")
        if result.side_points and sum(result.side_points) != d.PACK_HALF_POINTS:
            errors.append(f"card points add up to {sum(result.side_points)} half points")
        return errors

    def partner_known(self, s: TarotState, seat: int | None) -> bool:
        if s.partner is None:
            return False
        if seat == s.partner or s.finished:
            return True
        return any(c == s.called for tr in s.tricks for c in tr.cards) or any(
            c == s.called for _, c in s.trick
        )

    def public_cards(self, s: TarotState, seat: int | None) -> tuple[PublicCards, ...]:
        """The chien once turned up (prise, garde), the trumps laid away, the écart to the
        taker, the poignées shown."""
        groups: list[PublicCards] = []
        if s.chien:
            groups.append(PublicCards("chien", s.chien))
        shown = tuple(c for c in s.ecart if c.suit == TAROK)
        if seat is not None and seat == s.taker and s.ecart:
            groups.append(PublicCards("ecart", DECK.sort(s.ecart), s.taker))
        elif shown:
            groups.append(PublicCards("ecart", DECK.sort(shown), s.taker))
        groups += [PublicCards("poignee", cards, who) for who, _, cards in s.poignees]
        return tuple(groups)

    def view(self, s: TarotState, seat: int | None) -> View:
        partners = (s.partner,) if s.partner is not None and self.partner_known(s, seat) else ()
        return seat_view(
            s,
            seat,
            public=self.public_cards(s, seat),
            facts=s.facts,
            contract=s.contract,
            declarer=s.taker,
            partners=partners,
            called=DECK.codes[s.called] if s.called is not None else "",
            legal=self.legal_for(s, seat),
            result=self.result(s),
        )

    def label(self, s: TarotState, move: Move) -> str:
        if move.kind in (MoveKind.PLAY, MoveKind.DISCARD):
            verb = "Play" if move.kind == MoveKind.PLAY else "Lay away"
            return f"{verb} {DECK.labels[DECK.card(move.value)]}"
        if move.kind == MoveKind.BID:
            return f"Bid {d.CONTRACT_NAMES[move.value].lower()}"
        if move.kind == MoveKind.CALL:
            return f"Call {DECK.labels[DECK.card(move.value)]}"
        if move.kind == MoveKind.ANNOUNCE:
            return f"Announce {move.value.replace('_', ' ')}"
        return "Pass"


FRENCH_TAROT = FrenchTarot()
