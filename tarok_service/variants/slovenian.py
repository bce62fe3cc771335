"""Slovenian tarok for 4 and 3 players (RULES.md section 2), built from engine parts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine import kontra as k
from ..engine import moves as m
from ..engine import tricks as t
from ..engine.auction import PASSED, Auction
from ..engine.cards import KING, MOND, PAGAT, QUEEN, SKIS, TAROK, Card, Deck, deal_packets, tarok54
from ..engine.match import MatchState
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.outcome import HandResult
from ..engine.radelci import close as radelci_close
from ..engine.radelci import settle as radelci_settle
from ..engine.state import REDEAL, HandState, Trick, replace_at, without
from ..engine.trickplay import TrickPlay, start_tricks
from ..engine.variant import BonusInfo, ContractInfo, Variant, register
from ..engine.view import Fact, View
from . import slovenian_data as d
from . import slovenian_scoring as scoring
from .slovenian_view import build_view

BIDDING, CALLING, TALON, ANNOUNCE = "bidding", "calling", "talon", "announce"
BID, PASS, CALL, PICK, DISCARD, ANNOUNCE_MOVE, KONTRA = (
    "bid",
    "pass",
    "call",
    "talon",
    "discard",
    "announce",
    "kontra",
)
TRULA_RANKS = (PAGAT, MOND, SKIS)


@dataclass(frozen=True, slots=True)
class SlovenianState(HandState):
    """A Slovenian hand: the auction, the contract and what has been said about it."""

    auction: Auction | None = None
    contract: int = -1
    declarer: int | None = None
    called: Card | None = None
    partner: int | None = None
    king_in_talon: bool = False
    exposed_talon: tuple[Card, ...] = ()
    group: int | None = None
    to_discard: int = 0
    discards: tuple[Card, ...] = ()
    announced: tuple[tuple[str, int], ...] = ()  # (item, seat)
    levels: tuple[tuple[str, int], ...] = ()  # (item, kontra level)
    passes: int = 0
    mond_left: bool = False
    mond_captured: int | None = None
    talon_won: bool = False
    gifts: tuple[Card, ...] = ()  # klop: talon cards given to trick winners
    facts: tuple[Fact, ...] = ()

    def team(self) -> tuple[int, ...]:
        if self.declarer is None:
            return ()
        if self.partner is None or self.partner == self.declarer:
            return (self.declarer,)
        return (self.declarer, self.partner)

    def level(self, item: str) -> int:
        return dict(self.levels).get(item, 0)

    def announcer(self, item: str) -> int | None:
        return dict(self.announced).get(item)


def is_trula(card: Card) -> bool:
    return card.suit == TAROK and card.rank in TRULA_RANKS


def st(state: HandState) -> SlovenianState:
    assert isinstance(state, SlovenianState)
    return state


class Slovenian(TrickPlay, Variant):
    """Slovenian tarok: the base rule set of the family."""

    id = "slovenian"
    name = "Slovenian tarok"
    player_counts = (4, 3)
    option_specs = d.OPTIONS
    contract_table = d.CONTRACTS
    talon_size = 6
    packets = {4: 6, 3: 4}  # cards per packet: 12 = 2 x 6 with 4 players, 16 = 4 x 4 with 3
    half = 35  # the declarer side needs more than this many card points

    def deck(self, rules: Rules) -> Deck:
        return _DECK

    def tricks_per_hand(self, state: HandState) -> int:
        return (len(self.deck(state.rules)) - self.talon_size) // state.players

    # --- data ---------------------------------------------------------------------------

    def open_contracts(self, rules: Rules) -> list[int]:
        """Contracts biddable at this table, as indices into the contract table."""
        out = []
        for i, c in enumerate(self.contract_table):
            if rules.players == 3 and c.solo_only_4p:
                continue
            if rules.players == 3 and c.id == "colour_valat" and not rules.flag("colour_valat_3p"):
                continue
            out.append(i)
        return out

    def contracts(self, players: int) -> tuple[ContractInfo, ...]:
        rows = []
        for c in self.contract_table:
            counts = (4,) if c.solo_only_4p else self.player_counts
            rows.append(ContractInfo(c.id, c.name, c.value, counts))
        return tuple(rows)

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        rows = [BonusInfo(i, n, s, a) for i, (n, s, a) in d.BONUS_VALUES.items()]
        return tuple(r for r in rows if players == 4 or r.id != d.KING_ULTIMO)

    # --- deal ---------------------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> HandState:
        n = rules.players
        hands, talon = deal_packets(order, n, (dealer + 1) % n, self.talon_size, self.packets[n])
        hands = tuple(_DECK.sort(h) for h in hands)
        first = (dealer + 2) % n
        state = SlovenianState(
            rules=rules,
            dealer=dealer,
            phase=BIDDING,
            turn=first,
            hands=hands,
            talon=talon,
            piles=((),) * n,
            auction=Auction((dealer + 1) % n, (None,) * n),
        )
        if any(not any(c.is_tarok for c in h) for h in hands):
            return replace(state, phase=REDEAL, turn=None)
        return state

    # --- bidding ------------------------------------------------------------------------

    def legal_bidding(self, state: HandState) -> list[Move]:
        s = st(state)
        assert s.auction is not None and s.turn is not None
        bids = s.auction.legal(s.turn, self.open_contracts(s.rules), d.FOREHAND_ONLY)
        return [Move(PASS) if b == PASSED else Move(BID, self.contract_table[b].id) for b in bids]

    def explain_bidding(self, state: HandState, move: Move) -> str:
        if move.kind == PASS:
            return m.PASS_NOT_ALLOWED
        if move.kind != BID or move.value not in d.CONTRACT_INDEX:
            return m.WRONG_PHASE
        index = d.CONTRACT_INDEX[move.value]
        if index in d.FOREHAND_ONLY or index not in self.open_contracts(state.rules):
            return m.BID_NOT_ALLOWED
        return m.BID_TOO_LOW

    def apply_bidding(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        assert s.auction is not None and s.turn is not None
        seat = s.turn
        bid = PASSED if move.kind == PASS else d.CONTRACT_INDEX[move.value]
        auction = s.auction.bid(seat, bid)
        facts = (*s.facts, Fact(seat, BID, move.value or PASS))
        s = replace(s, auction=auction, facts=facts)
        if bid != PASSED and auction.others_passed(seat):
            return self._contract_chosen(s, seat, bid)
        return replace(s, turn=auction.next_bidder(seat))

    def _contract_chosen(self, s: SlovenianState, seat: int, index: int) -> HandState:
        c = self.contract_table[index]
        if c.id == "klop":
            return start_tricks(replace(s, contract=index), s.forehand)
        s = replace(s, contract=index, declarer=seat, turn=seat)
        if c.king_call and s.players == 4:
            return replace(s, phase=CALLING)
        if c.talon_group:
            return replace(s, phase=TALON, exposed_talon=s.talon)
        return replace(s, phase=ANNOUNCE)

    # --- king call ----------------------------------------------------------------------

    def callable_cards(self, s: SlovenianState) -> list[Card]:
        assert s.declarer is not None
        kings = [c for c in _DECK.cards if c.rank == KING and not c.is_tarok]
        if all(k in s.hands[s.declarer] for k in kings):
            return kings + [c for c in _DECK.cards if c.rank == QUEEN and not c.is_tarok]
        return kings

    def legal_calling(self, state: HandState) -> list[Move]:
        return [Move(CALL, _DECK.codes[c]) for c in self.callable_cards(st(state))]

    def explain_calling(self, state: HandState, move: Move) -> str:
        return m.CALL_NOT_ALLOWED if move.kind == CALL else m.WRONG_PHASE

    def apply_calling(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        card = _DECK.card(move.value)
        holder = next((i for i, h in enumerate(s.hands) if card in h), None)
        partner = holder if holder != s.declarer else None
        facts = (*s.facts, Fact(s.declarer, CALL, move.value))
        return replace(
            s,
            called=card,
            partner=partner,
            king_in_talon=card in s.talon,
            phase=TALON,
            exposed_talon=s.talon,
            facts=facts,
        )

    # --- talon exchange -----------------------------------------------------------------

    def groups(self, s: SlovenianState) -> list[tuple[Card, ...]]:
        size = self.contract_table[s.contract].talon_group
        return [s.talon[i : i + size] for i in range(0, len(s.talon), size)]

    def discardable(self, s: SlovenianState) -> list[Card]:
        assert s.declarer is not None
        hand = s.hands[s.declarer]
        allowed = [c for c in hand if not (c.rank == KING and not c.is_tarok) and not is_trula(c)]
        if s.rules.flag("discard_taroks_only_if_forced"):
            suits = [c for c in allowed if not c.is_tarok]
            return suits or allowed
        return allowed

    def legal_talon(self, state: HandState) -> list[Move]:
        s = st(state)
        if s.group is None:
            return [Move(PICK, str(i)) for i in range(len(self.groups(s)))]
        return [Move(DISCARD, _DECK.codes[c]) for c in self.discardable(s)]

    def explain_talon(self, state: HandState, move: Move) -> str:
        s = st(state)
        if move.kind == DISCARD and s.group is not None:
            return m.DISCARD_NOT_ALLOWED
        return m.WRONG_PHASE

    def apply_talon(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        assert s.declarer is not None
        if move.kind == PICK:
            return self._pick(s, int(move.value))
        card = _DECK.card(move.value)
        hands = replace_at(s.hands, s.declarer, without(s.hands[s.declarer], card))
        piles = replace_at(s.piles, s.declarer, (*s.piles[s.declarer], card))
        shown = _DECK.codes[card] if card.is_tarok else ""
        s = replace(
            s,
            hands=hands,
            piles=piles,
            discards=(*s.discards, card),
            to_discard=s.to_discard - 1,
            facts=(*s.facts, Fact(s.declarer, DISCARD, shown)),
        )
        if s.to_discard == 0:
            return replace(s, phase=ANNOUNCE, turn=s.declarer)
        return s

    def _pick(self, s: SlovenianState, index: int) -> SlovenianState:
        assert s.declarer is not None
        groups = self.groups(s)
        chosen = groups[index]
        rest = tuple(c for i, g in enumerate(groups) if i != index for c in g)
        hand = _DECK.sort(s.hands[s.declarer] + chosen)
        mond = Card(TAROK, MOND)
        return replace(
            s,
            group=index,
            talon=rest,
            to_discard=len(chosen),
            hands=replace_at(s.hands, s.declarer, hand),
            mond_left=mond in rest,
            facts=(*s.facts, Fact(s.declarer, PICK, str(index))),
        )

    # --- announcements and kontra -------------------------------------------------------

    def side_of(self, s: SlovenianState, seat: int) -> bool:
        """True for the declarer side."""
        return seat in s.team()

    def announceable(self, s: SlovenianState, seat: int) -> list[str]:
        c = self.contract_table[s.contract]
        if not c.bonuses:
            return []
        items = [d.TRULA, d.KINGS, d.VALAT_BONUS]
        hand = s.hands[seat]
        if Card(TAROK, PAGAT) in hand:
            items.append(d.PAGAT_ULTIMO)
        if s.called is not None and s.players == 4 and s.called in hand:
            items.append(d.KING_ULTIMO)
        taken = {item for item, _ in s.announced}
        return [i for i in items if i not in taken]

    def kontrable(self, s: SlovenianState, seat: int) -> list[str]:
        c = self.contract_table[s.contract]
        if c.id == "klop":
            return []
        mine = self.side_of(s, seat)
        items = [d.GAME] + [item for item, _ in s.announced]
        out = []
        for item in items:
            if item in (d.TRULA, d.KINGS) and not s.rules.flag("kontra_trula_kings"):
                continue
            owner = True if item == d.GAME else self.side_of(s, s.announcer(item) or 0)
            if k.can_raise(s.level(item), mine == owner, s.rules.num("max_kontra")):
                out.append(item)
        return out

    def legal_announce(self, state: HandState) -> list[Move]:
        s = st(state)
        assert s.turn is not None
        moves = [Move(PASS)]
        moves += [Move(ANNOUNCE_MOVE, i) for i in self.announceable(s, s.turn)]
        moves += [Move(KONTRA, i) for i in self.kontrable(s, s.turn)]
        return moves

    def explain_announce(self, state: HandState, move: Move) -> str:
        if move.kind == ANNOUNCE_MOVE:
            return m.ANNOUNCEMENT_NOT_ALLOWED
        return m.KONTRA_NOT_ALLOWED if move.kind == KONTRA else m.WRONG_PHASE

    def apply_announce(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        assert s.turn is not None
        seat = s.turn
        if move.kind == PASS:
            if s.passes + 1 == s.players:
                c = self.contract_table[s.contract]
                leader = s.declarer if c.declarer_leads and s.declarer is not None else s.forehand
                return start_tricks(replace(s, passes=0), leader)
            return replace(s, passes=s.passes + 1, turn=s.next_seat(seat))
        if move.kind == ANNOUNCE_MOVE:
            return replace(
                s,
                announced=(*s.announced, (move.value, seat)),
                passes=0,
                facts=(*s.facts, Fact(seat, ANNOUNCE_MOVE, move.value)),
            )
        level = s.level(move.value) + 1
        levels = (*tuple((i, v) for i, v in s.levels if i != move.value), (move.value, level))
        fact = Fact(seat, KONTRA, move.value, level)
        return replace(s, levels=levels, passes=0, facts=(*s.facts, fact))

    # --- trick play hooks ---------------------------------------------------------------

    def trick_rules(self, state: HandState) -> t.TrickRules:
        s = st(state)
        c = self.contract_table[s.contract]
        order = str(s.rules.opt("emperor_order"))
        if c.id == "colour_valat":
            return t.TrickRules(
                trumps_win=False, emperor_needs_tarok_lead=True, emperor_order=order
            )
        if c.negative:
            return t.TrickRules(must_overtake=True, pagat_last=True, emperor_order=order)
        return t.TrickRules(emperor_order=order)

    def held_cards(self, state: HandState, seat: int) -> tuple[Card, ...]:
        s = st(state)
        held: list[Card] = []
        if s.announcer(d.PAGAT_ULTIMO) == seat:
            held.append(Card(TAROK, PAGAT))
        if s.announcer(d.KING_ULTIMO) == seat and s.called is not None:
            held.append(s.called)
        return tuple(held)

    def after_trick(self, state: HandState, trick: Trick) -> HandState:
        s = st(state)
        c = self.contract_table[s.contract]
        if c.id == "klop" and s.talon:
            gift = s.talon[0]
            piles = replace_at(s.piles, trick.winner, (*s.piles[trick.winner], gift))
            return replace(s, talon=s.talon[1:], piles=piles, gifts=(*s.gifts, gift))
        win_card = trick.plays[t.winning_index(trick.cards, self.trick_rules(s))][1]
        if s.king_in_talon and win_card == s.called and s.talon and not s.talon_won:
            piles = replace_at(s.piles, trick.winner, s.piles[trick.winner] + s.talon)
            mond_back = Card(TAROK, MOND) in s.talon
            return replace(
                s, piles=piles, talon=(), talon_won=True, mond_left=s.mond_left and not mond_back
            )
        return self._mondfang(s, trick, win_card)

    def _mondfang(self, s: SlovenianState, trick: Trick, win_card: Card) -> SlovenianState:
        c = self.contract_table[s.contract]
        counts = c.bonuses or (c.id == "solo_without" and s.rules.flag("mondfang_solo_without"))
        if not counts or not win_card.is_tarok or win_card.rank not in (SKIS, PAGAT):
            return s
        owner = next((seat for seat, card in trick.plays if card == Card(TAROK, MOND)), None)
        return s if owner is None else replace(s, mond_captured=owner)

    def hand_over(self, state: HandState) -> bool:
        s = st(state)
        if not any(s.hands):
            return True
        cid = self.contract_table[s.contract].id
        last = s.tricks[-1].winner if s.tricks else None
        if cid in ("beggar", "open_beggar"):
            return last == s.declarer
        if cid in ("colour_valat", "valat"):
            return last is not None and last != s.declarer
        return False

    def invariants(self, state: HandState, result: HandResult) -> list[str]:
        """Two sides' card points add up to 70; klop counts each pile alone (69-71)."""
        if result.redeal:
            return []
        total = sum(result.side_points)
        slack = 1 if result.contract == "klop" else 0
        if abs(total - 2 * self.half) > slack:
            return [f"card points add up to {total}"]
        return []

    # --- results, views, labels ---------------------------------------------------------

    def result(self, state: HandState) -> HandResult | None:
        if state.phase == REDEAL:
            n = state.players
            return HandResult("redeal", None, (), None, (0,) * n, (0,) * n, (), redeal=True)
        if not state.finished:
            return None
        return scoring.score(self, st(state))

    def view(self, state: HandState, seat: int | None) -> View:
        s = st(state)
        legal = tuple(self.legal_moves(s)) if seat is not None and seat == s.turn else ()
        return build_view(self, s, seat, legal)

    def label(self, state: HandState, move: Move) -> str:
        s = st(state)
        if move.kind in (PLAY, DISCARD, CALL):
            return f"{move.kind.capitalize()} {_DECK.labels[_DECK.card(move.value)]}"
        if move.kind == BID:
            return f"Bid {self.contract_table[d.CONTRACT_INDEX[move.value]].name}"
        if move.kind == PICK:
            group = self.groups(s)[int(move.value)]
            return "Take talon group " + " ".join(_DECK.labels[c] for c in group)
        if move.kind == ANNOUNCE_MOVE:
            return f"Announce {d.BONUS_VALUES[move.value][0]}"
        if move.kind == KONTRA:
            return (
                f"{k.name(s.level(move.value) + 1).capitalize()} on {move.value.replace('_', ' ')}"
            )
        return move.kind.capitalize()

    # --- match --------------------------------------------------------------------------

    def settle(self, match: MatchState, result: HandResult) -> MatchState:
        mode = str(match.rules.opt("radelc_mode")) if match.rules else "declarer"
        return radelci_settle(match, result, mode, applies=result.contract != "klop")

    def close(self, match: MatchState) -> MatchState:
        penalty = match.rules.num("radelc_end_penalty") if match.rules else 40
        return radelci_close(match, penalty)


PLAY = "play"
_DECK = tarok54()
SLOVENIAN = register(Slovenian())
