"""Slovenian tarok for 4 and 3 players, built from engine parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..engine import kontra as k
from ..engine import moves as m
from ..engine import tricks as t
from ..engine.auction import PASSED, Auction
from ..engine.cards import PAGAT, SKIS, TAROK, Card, Deck, deal_packets, tarok54
from ..engine.match import MatchState
from ..engine.moves import Move, shared_move
from ..engine.options import Rules
from ..engine.outcome import HandResult, ScoreLine
from ..engine.radelci import close as radelci_close
from ..engine.radelci import settle as radelci_settle
from ..engine.state import REDEAL, HandState, Trick, evolve, replace_at
from ..engine.trickplay import TrickPlay, start_tricks
from ..engine.variant import BonusInfo, ContractInfo, Variant
from ..engine.view import Fact, View
from . import slovenian_data as d
from . import slovenian_scoring as scoring
from .registry import register
from .slovenian_exchange import CallAndExchange
from .slovenian_state import (
    ANNOUNCE,
    ANNOUNCE_MOVE,
    BID,
    BIDDING,
    CALL,
    CALLING,
    DISCARD,
    KONTRA,
    PASS,
    PICK,
    PLAY,
    TALON,
    TRULA_RANKS,
    SlovenianState,
    is_mond,
    is_trula,
    st,
)
from .slovenian_view import build_view

__all__ = [
    "ANNOUNCE",
    "ANNOUNCE_MOVE",
    "BID",
    "BIDDING",
    "CALL",
    "CALLING",
    "DISCARD",
    "KONTRA",
    "PASS",
    "PICK",
    "PLAY",
    "SLOVENIAN",
    "TALON",
    "TRULA_RANKS",
    "Slovenian",
    "SlovenianState",
    "is_trula",
    "st",
]


class Slovenian(CallAndExchange, TrickPlay[Any], Variant[Any]):
    """Slovenian tarok: the base rule set of the family."""

    id = "slovenian"
    # 2: the rule fixes of the second fidelity round (see docs/rules/decisions.md); tables
    # created under 1 replay with their recorded results (docs/event-log.md).
    rules_version = 2
    name = "Slovenian tarok"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    option_specs = d.OPTIONS
    contract_table = d.CONTRACTS
    talon_size = 6
    packets = {4: 6, 3: 4}  # cards per packet: 12 = 2 x 6 with 4 players, 16 = 4 x 4 with 3
    half = 35  # the declarer side needs more than this many card points
    # Class data a rule set built on this one overrides (see DoubleTarok).
    state_type: type[SlovenianState] = SlovenianState
    contract_index: Mapping[str, int] = d.CONTRACT_INDEX
    forehand_only: frozenset[int] = d.FOREHAND_ONLY
    radelc_contracts: frozenset[int] = d.RADELC_CONTRACTS
    bonus_values: Mapping[str, tuple[str, int, int]] = d.BONUS_VALUES
    trula_kings_items: frozenset[str] = frozenset({d.TRULA, d.KINGS})
    revealing_items: frozenset[str] = frozenset({d.KING_ULTIMO})  # announcing shows a partner
    tie_rule = t.TIE_FIRST

    def deck(self, rules: Rules) -> Deck:
        return _DECK

    def tricks_per_hand(self, state: HandState) -> int:
        return (len(self.deck(state.rules)) - self.talon_size) // state.players

    # --- data ---------------------------------------------------------------------------

    def forehand_only_contracts(self, rules: Rules) -> frozenset[int]:
        """Contracts only forehand may choose, once everybody else has passed."""
        return self.forehand_only

    def bonus_table(self, rules: Rules) -> Mapping[str, tuple[str, int, int]]:
        """Bonus item -> (name, silent value, announced value) at this table."""
        return self.bonus_values

    def klop_value(self, rules: Rules) -> int:
        """What an empty (+) or full (-) klop player scores."""
        return 70

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
        hands = tuple(self.deck(rules).sort(h) for h in hands)
        first = (dealer + 2) % n
        state = self.state_type(
            rules=rules,
            dealer=dealer,
            phase=BIDDING,
            turn=first,
            hands=hands,
            talon=talon,
            piles=((),) * n,
            auction=Auction((dealer + 1) % n, (None,) * n),
        )
        if any(all(c.suit != TAROK for c in h) for h in hands):
            return evolve(state, phase=REDEAL, turn=None)
        return state

    # --- bidding ------------------------------------------------------------------------

    def legal_bidding(self, state: HandState) -> list[Move]:
        s = st(state)
        auction, seat = s.auction, s.turn
        assert auction is not None and seat is not None
        memo = self._memo(s.rules, "bids")  # the legal bids depend on the auction alone
        key = (auction.forehand, auction.bids, seat)
        found = memo.get(key)
        if found is None:
            only = self.forehand_only_contracts(s.rules)
            bids = auction.legal(seat, self.open_contracts(s.rules), only)
            table = self.contract_table
            found = memo[key] = tuple(
                [shared_move(PASS) if b == PASSED else shared_move(BID, table[b].id) for b in bids]
            )
        return list(found)

    def _memo(self, rules: Rules, name: str) -> dict[object, tuple[Any, ...]]:
        """A bounded memo of results that depend only on this rule set, the table `rules`
        (looked up by identity: hashing rules is slow) and the key the caller builds."""
        memos: dict[tuple[int, str], tuple[Rules, dict[object, tuple[Any, ...]]]] | None
        memos = self.__dict__.get("_memos")
        if memos is None:
            memos = self.__dict__["_memos"] = {}
        found = memos.get((id(rules), name))
        if found is None or found[0] is not rules:
            if len(memos) >= 64:
                memos.clear()
            found = memos[(id(rules), name)] = (rules, {})
        memo = found[1]
        if len(memo) >= 4096:
            memo.clear()
        return memo

    def explain_bidding(self, state: HandState, move: Move) -> str:
        if move.kind == PASS:
            return m.PASS_NOT_ALLOWED
        if move.kind != BID or move.value not in self.contract_index:
            return m.WRONG_PHASE
        index = self.contract_index[move.value]
        only = self.forehand_only_contracts(state.rules)
        if index in only or index not in self.open_contracts(state.rules):
            return m.BID_NOT_ALLOWED
        return m.BID_TOO_LOW

    def apply_bidding(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        assert s.auction is not None and s.turn is not None
        seat = s.turn
        bid = PASSED if move.kind == PASS else self.contract_index[move.value]
        auction = s.auction.bid(seat, bid)
        facts = (*s.facts, Fact(seat, BID, move.value or PASS))
        if bid != PASSED and auction.others_passed(seat):
            return self._contract_chosen(evolve(s, auction=auction, facts=facts), seat, bid)
        return evolve(s, auction=auction, facts=facts, turn=auction.next_bidder(seat))

    def replay_bidding(
        self, state: HandState, moves: Sequence[Move], start: int
    ) -> tuple[HandState, int]:
        """Validated bids from `moves[start]` on, applied at once (one state at the end), equal
        to `apply_bidding` one by one; stops after the bid that ends the auction."""
        s = st(state)
        auction, seat = s.auction, s.turn
        assert auction is not None and seat is not None
        bids, facts = list(auction.bids), list(s.facts)
        index, players, i = self.contract_index, len(bids), start
        while i < len(moves):
            move = moves[i]
            i += 1
            bid = PASSED if move.kind == PASS else index[move.value]
            bids[seat] = bid
            facts.append(Fact(seat, BID, move.value or PASS))
            if bid != PASSED and all(b == PASSED for o, b in enumerate(bids) if o != seat):
                done = Auction(auction.forehand, tuple(bids))
                return self._contract_chosen(
                    evolve(s, auction=done, facts=tuple(facts)), seat, bid
                ), i
            seat = (seat + 1) % players
            while bids[seat] == PASSED:
                seat = (seat + 1) % players
        done = Auction(auction.forehand, tuple(bids))
        return evolve(s, auction=done, facts=tuple(facts), turn=seat), i

    def _contract_chosen(self, s: SlovenianState, seat: int, index: int) -> HandState:
        c = self.contract_table[index]
        if c.id == "klop":
            return start_tricks(s, s.forehand, contract=index)
        s = evolve(s, contract=index, declarer=seat, turn=seat)
        if self.calls_king(s, index):
            return evolve(s, phase=CALLING)
        if c.talon_group:
            return evolve(s, phase=TALON, exposed_talon=s.talon)
        return evolve(s, phase=ANNOUNCE)

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
        if PAGAT_CARD in hand:
            items.append(d.PAGAT_ULTIMO)
        if s.called is not None and s.players == 4 and s.called in hand:
            items.append(d.KING_ULTIMO)
        taken = {item for item, _ in s.announced}
        return [i for i in items if i not in taken]

    def kontrable(self, s: SlovenianState, seat: int) -> list[str]:
        c = self.contract_table[s.contract]
        if c.id == "klop":
            return []
        team = s.team()
        memo = self._memo(s.rules, "kontra")  # depends on the sides, the sayings, the levels
        key = (s.contract, team, seat in team, s.announced, s.levels)
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(self._kontrable(s, seat))
        return list(found)

    def _kontrable(self, s: SlovenianState, seat: int) -> list[str]:
        mine = self.side_of(s, seat)
        announcers, levels, top = dict(s.announced), dict(s.levels), s.rules.num("max_kontra")
        out = []
        for item in [d.GAME, *(item for item, _ in s.announced)]:
            if item in self.trula_kings_items and not s.rules.flag("kontra_trula_kings"):
                continue
            owner = True if item == d.GAME else self.side_of(s, announcers[item] or 0)
            if k.can_raise(levels.get(item, 0), mine == owner, top):
                out.append(item)
        return out

    def legal_announce(self, state: HandState) -> list[Move]:
        s = st(state)
        assert s.turn is not None
        moves = [shared_move(PASS)]
        moves += [shared_move(ANNOUNCE_MOVE, i) for i in self.announceable(s, s.turn)]
        moves += [shared_move(KONTRA, i) for i in self.kontrable(s, s.turn)]
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
                return start_tricks(s, leader, passes=0)
            return evolve(s, passes=s.passes + 1, turn=s.next_seat(seat))
        if move.kind == ANNOUNCE_MOVE:
            return evolve(
                s,
                announced=(*s.announced, (move.value, seat)),
                passes=0,
                facts=(*s.facts, Fact(seat, ANNOUNCE_MOVE, move.value)),
            )
        level = s.level(move.value) + 1
        levels = (*tuple((i, v) for i, v in s.levels if i != move.value), (move.value, level))
        fact = Fact(seat, KONTRA, move.value, level)
        return evolve(s, levels=levels, passes=0, facts=(*s.facts, fact))

    def replay_announce(
        self, state: HandState, moves: Sequence[Move], start: int
    ) -> tuple[HandState, int]:
        """A run of validated passes from `moves[start]` on applied at once (other moves one by
        one), equal to `apply_announce` move by move."""
        s = st(state)
        seat, passes, i = s.turn, s.passes, start
        assert seat is not None
        while i < len(moves) and moves[i].kind == PASS:
            if passes + 1 == s.players:  # the last pass: play starts
                return self.apply_announce(evolve(s, passes=passes, turn=seat), moves[i]), i + 1
            passes, seat, i = passes + 1, (seat + 1) % s.players, i + 1
        if i == start:
            return self.apply_announce(s, moves[i]), i + 1
        return evolve(s, passes=passes, turn=seat), i

    # --- trick play hooks ---------------------------------------------------------------

    def trick_rules(self, state: HandState) -> t.TrickRules:
        s = st(state)
        last = self.__dict__.get("_last_trick_rules")  # asked for every card: the last answer
        if last is not None and last[0] is s.rules and last[1] == s.contract:
            found: t.TrickRules = last[2]
            return found
        c = self.contract_table[s.contract]
        kind = c.id if c.id == "colour_valat" else "negative" if c.negative else ""
        found = d.trick_rules(kind, str(s.rules.opt("emperor_order")), self.tie_rule)
        self.__dict__["_last_trick_rules"] = (s.rules, s.contract, found)
        return found

    def held_cards(self, state: HandState, seat: int) -> tuple[Card, ...]:
        s = st(state)
        if not s.announced:
            return ()
        held: list[Card] = []
        if s.announcer(d.PAGAT_ULTIMO) == seat:
            held.append(PAGAT_CARD)
        if s.announcer(d.KING_ULTIMO) == seat and s.called is not None:
            held.append(s.called)
        return tuple(held)

    def after_trick(self, state: HandState, trick: Trick) -> HandState:
        s = st(state)
        c = self.contract_table[s.contract]
        if c.id == "klop" and s.talon:
            gift = s.talon[0]
            piles = replace_at(s.piles, trick.winner, (*s.piles[trick.winner], gift))
            return evolve(s, talon=s.talon[1:], piles=piles, gifts=(*s.gifts, gift))
        winner, win_card = trick.winner, trick.plays[0][1]
        for seat, card in trick.plays:
            if seat == winner:
                win_card = card
                break
        if s.talon and not s.talon_won and win_card in s.zaruf_cards():
            piles = replace_at(s.piles, trick.winner, s.piles[trick.winner] + s.talon)
            mond_back = any(is_mond(c) for c in s.talon)
            return evolve(
                s, piles=piles, talon=(), talon_won=True, mond_left=s.mond_left and not mond_back
            )
        if win_card.suit != TAROK or win_card.rank not in (SKIS, PAGAT):  # no mondfang
            return s
        return self._mondfang(s, trick, win_card)

    def _mondfang(self, s: SlovenianState, trick: Trick, win_card: Card) -> SlovenianState:
        if not win_card.is_tarok or win_card.rank not in (SKIS, PAGAT):
            return s
        c = self.contract_table[s.contract]
        counts = c.bonuses or (c.id == "solo_without" and s.rules.flag("mondfang_solo_without"))
        if not counts:
            return s
        owners = tuple(seat for seat, card in trick.plays if is_mond(card))
        return self.capture_monds(s, owners) if owners else s

    def capture_monds(self, s: SlovenianState, owners: tuple[int, ...]) -> SlovenianState:
        """Record that the monds of `owners` were captured (one mond in a 54-card pack)."""
        return evolve(s, mond_captured=owners[0])

    def captured_monds(self, s: SlovenianState) -> tuple[int, ...]:
        """The seats charged a mondfang for a captured mond, once per mond."""
        return () if s.mond_captured is None else (s.mond_captured,)

    def monds_left(self, s: SlovenianState) -> int:
        """How many monds the declarer left in the talon (and did not win back)."""
        return 1 if s.mond_left else 0

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
        """Two sides' card points add up to 2 x half; klop counts each pile alone, so the
        rounding of each pile may move the total by up to a third of a point per player."""
        if result.redeal:
            return []
        total = sum(result.side_points)
        slack = state.players // 3 if result.contract == "klop" else 0
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

    def bonus_lines(self, s: SlovenianState) -> list[ScoreLine]:
        """Score lines of the bonuses (trula, kings, ultimos) of a normal contract."""
        return scoring.bonuses(self, s)

    def view(self, state: HandState, seat: int | None) -> View:
        s = st(state)
        legal = self.legal_for(s, seat)
        return build_view(self, s, seat, legal)

    def label(self, state: HandState, move: Move) -> str:
        s = st(state)
        deck = self.deck(s.rules)
        if move.kind == CALL:
            return self.call_label(s, move.value)
        if move.kind in (PLAY, DISCARD):
            return f"{move.kind.capitalize()} {deck.labels[deck.card(move.value)]}"
        if move.kind == BID:
            return f"Bid {self.contract_table[self.contract_index[move.value]].name}"
        if move.kind == PICK:
            group = self.groups(s)[int(move.value)]
            return "Take talon group " + " ".join(deck.labels[c] for c in group)
        if move.kind == ANNOUNCE_MOVE:
            return f"Announce {self.bonus_table(s.rules)[move.value][0]}"
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


_DECK = tarok54()
PAGAT_CARD = Card(TAROK, PAGAT)
SLOVENIAN = Slovenian()
register(SLOVENIAN)
