"""The Slovenian tarok family as one configurable rule set, and Slovenian tarok (4 and 3
players, one pack) as its first configuration."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar

from ...engine import kontra as k
from ...engine import moves as m
from ...engine import tricks as t
from ...engine.announce import AnnouncementRound, RoundKey, RoundMoves
from ...engine.auction import PASSED, Auction, Situation, legal_bids, run_auction
from ...engine.bitcards import bit_deck
from ...engine.cards import PAGAT, SKIS, TAROK, Card, Deck, tarok54
from ...engine.fastcopy import copier, evolve
from ...engine.match import MatchState
from ...engine.memo import Memo, RulesMemo, keep_answer, last_answer
from ...engine.moves import Move, MoveKind, shared_move
from ...engine.options import Rules
from ...engine.outcome import HandResult, ScoreLine
from ...engine.phases import PhaseRule, PhaseTable, RuleSetError
from ...engine.radelci import close as radelci_close
from ...engine.radelci import settle as radelci_settle
from ...engine.shuffle import RandomBits, random_order
from ...engine.state import Trick, replace_at
from ...engine.trickplay import TrickPlay, start_tricks
from ...engine.trickwatch import TrickWatch
from ...engine.variant import BonusInfo, ContractInfo, Variant
from ...engine.view import Fact, View, shared_fact
from . import data as d
from . import scoring as scoring
from .exchange import CallAndExchange
from .family import BonusTable, Family, Group
from .state import Phase, SlovenianState, is_mond, is_pagat, is_skis
from .view import build_view
from .vocabulary import VOCABULARY

__all__ = ["SLOVENIAN", "Family", "Phase", "Slovenian", "SlovenianFamily", "SlovenianState"]


# plain str on the hot paths (see engine.announce)
_PASS, _BID = MoveKind.PASS.value, MoveKind.BID.value
_DEALT_COPY = copier(SlovenianState, "dealer", "phase", "turn", "hands", "talon", "auction")
_with_bids = copier(Auction, "bids")  # `Auction(forehand, bids)` as a plain copy (replay, playouts)
_KLOP_WATCH = TrickWatch(gifts=True)  # a talon card to each trick's winner while it lasts
_ROUND_LIMIT = 64  # the announcement round's tables, and the entries of each (`_round_table`)
_CHOSEN = ("auction", "facts", "contract", "declarer", "turn", "phase")  # a contract chosen


@cache
def family_deck(packs: int) -> Deck:
    """The pack (once or twice) a family rule set plays with, one object per pack count."""
    return tarok54(packs=packs)


class SlovenianFamily(
    CallAndExchange,
    AnnouncementRound[SlovenianState],
    TrickPlay[SlovenianState],
    Variant[SlovenianState],
):
    """A Slovenian-family rule set: the code every member shares, read from `family`.

    A member sets the Variant class data (`id`, `name`, `player_counts`, `option_specs`) and
    its `family` configuration; see docs/variants.md."""

    vocabulary_table = VOCABULARY

    phases = Phase
    family: ClassVar[Family]
    # Contracts whose declarer's hand lies face up once the first trick is over.
    open_hand_contracts: ClassVar[frozenset[str]] = frozenset({"open_beggar"})

    def __init__(self) -> None:
        f = self.family
        # Read on every move: kept as plain attributes.
        self.contract_table = f.contracts
        self.contract_index: Mapping[str, int] = {c.id: i for i, c in enumerate(f.contracts)}
        self.radelc_contracts = f.radelc_contracts()
        self.talon_size, self.half, self.tie_rule = f.talon_size, f.half, f.tie_rule
        # The items option `kontra_trula_kings` covers (none in a member without the option).
        gated = any(spec.name == "kontra_trula_kings" for spec in self.option_specs)
        self.trula_kings_items = f.items_of(d.TRULA, d.KINGS) if gated else frozenset()
        self.revealing_items = f.items_of(d.KING_ULTIMO)  # announcing shows a partner
        self.pagat_items = f.items_of(d.PAGAT_ULTIMO) | {d.PAGAT_ULTIMO}
        self._deck = family_deck(f.packs)
        self._hands_of = bit_deck(self._deck).hands_of  # (hands noted for the playouts' masks)
        self._deck_size = len(self._deck)
        self._tarok_mask = sum(1 << i for i, c in enumerate(self._deck.cards) if c.is_tarok)
        self._monds = tuple(c for c in self._deck.cards if is_mond(c))
        self._skises = tuple(c for c in self._deck.cards if is_skis(c))
        self._groups: dict[tuple[int, bool], tuple[Group, ...]] = {}
        self._deal_plans: dict[tuple[int, int], Any] = {}
        # A bid's value in its fact: the contract's id, or "pass" (PASSED = -1: the last entry).
        self._bid_values = (*(c.id for c in f.contracts), _PASS)
        self._bid_rows: dict[int, tuple[tuple[Fact, ...], ...]] = {}  # see `_bid_rows_for`
        # A bid move's value -> the bid (a pass has none: the empty value)
        self._bid_of = {**self.contract_index, shared_move(_PASS).value: PASSED}
        self._memos = RulesMemo()

    def phase_table(self) -> PhaseTable[SlovenianState]:
        return {
            Phase.BIDDING: PhaseRule(
                self.legal_bidding,
                self.apply_bidding,
                self.explain_bidding,
                replay=self.replay_bidding,
                playout=self.playout_bidding,
            ),
            Phase.CALLING: PhaseRule(self.legal_calling, self.apply_calling, self.explain_calling),
            Phase.TALON: PhaseRule(
                self.legal_talon, self.apply_talon, self.explain_talon, replay=self.replay_talon
            ),
            Phase.ANNOUNCE: self.round_phase(),
            Phase.TRICKS: self.trick_phase(),
        }

    def deck(self, rules: Rules) -> Deck:
        return self._deck

    def tricks_per_hand(self, state: SlovenianState) -> int:
        return (len(self._deck) - self.talon_size) // state.players

    # --- data ---------------------------------------------------------------------------

    def forehand_only_contracts(self, rules: Rules) -> frozenset[int]:
        """Contracts only forehand may choose, once everybody else has passed."""
        return self.family.forehand_only(rules)

    def bonus_table(self, rules: Rules) -> BonusTable:
        """Bonus item -> (name, silent value, announced value) at this table."""
        table = self.family.bonus_table
        return self.family.bonus_values if table is None else table(rules)

    def klop_value(self, rules: Rules) -> int:
        """What an empty (+) or full (-) klop player scores."""
        return self.family.klop_value(rules)

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
        """The bonus table at the default options, less items not played by `players`."""
        table = self.bonus_table(self.make_rules(self.player_counts[0]))
        only = self.family.item_players
        rows = (BonusInfo(i, n, s, a) for i, (n, s, a) in table.items())
        return tuple(r for r in rows if players in only.get(r.id, (players,)))

    def bonus_groups(self, s: SlovenianState) -> tuple[Group, ...]:
        """The announcement groups open in this hand: king ultimo only after a call, items
        only at the player counts that play them."""
        key = (s.players, bool(s.called))
        found = self._groups.get(key)  # asked for every announcement move: kept per key
        if found is None:
            only, n = self.family.item_players, s.players
            groups = []
            for group in self.family.groups:
                if group[0] == d.KING_ULTIMO and not s.called:
                    continue
                open_items = tuple(i for i in group if n in only.get(i, (n,)))
                if open_items:
                    groups.append(open_items)
            found = self._groups[key] = tuple(groups)
        return found

    # --- deal ---------------------------------------------------------------------------

    def deal(self, rules: Rules, order: Sequence[Card], dealer: int) -> SlovenianState:
        """The talon first, then packets round the table from the dealer's left
        (`cards.deal_packets`), each hand in deck order; a redeal when a hand has no tarok.
        Worked on deck indices (no per-card search or sort by card); the hands and the talon
        hold the deck's own cards (equal to those of `order`), so that later searches match
        them by identity."""
        deck = self._deck
        found = [*map(deck.index_by_id.get, map(id, order))]
        if None in found:  # equal cards, not the deck's own
            found = [deck.index[c] for c in order]
        return self._dealt(rules, found, dealer)  # type: ignore[arg-type]

    def random_deal(self, rules: Rules, rng: RandomBits, dealer: int) -> SlovenianState:
        return self._dealt(rules, random_order(self._deck_size, rng), dealer)

    def _dealt(self, rules: Rules, order: Sequence[int], dealer: int) -> SlovenianState:
        """`deal` of the deck's cards at the indices `order`."""
        n = rules.players
        plan = self._deal_plans.get((n, dealer))
        if plan is None:
            plan = self._deal_plans[(n, dealer)] = self._deal_plan(n, dealer)
        talon_at, seats_at, auction, bidding_turn = plan
        hands, taroks = self._hands_of(order, seats_at, self._tarok_mask)
        talon = itemgetter(*talon_at(order))(self._deck.cards)
        played = taroks or not self.family.redeal_without_tarok
        phase, turn = (Phase.BIDDING, bidding_turn) if played else (Phase.REDEAL, None)
        dealt: SlovenianState = _DEALT_COPY(
            self._blank(rules), dealer, phase, turn, hands, talon, auction
        )
        return dealt

    def _deal_plan(
        self, players: int, dealer: int
    ) -> tuple[
        Callable[[Sequence[int]], tuple[int, ...]],
        tuple[Callable[[Sequence[int]], tuple[int, ...]], ...],
        Auction,
        int,
    ]:
        """Where the deal puts the cards of each position of the order, at this table size and
        dealer: the talon first, then packets round the table from the dealer's left (as
        `cards.deal_packets`); the opening auction and who bids first."""
        size, packet = self.talon_size, self.family.packets[players]
        at: list[list[int]] = [[] for _ in range(players)]
        seat = (dealer + 1) % players
        for i in range(size, len(self._deck), packet):
            at[seat] += range(i, i + packet)
            seat = (seat + 1) % players
        if min(size, *map(len, at)) < 2:
            raise RuleSetError(f"{self.id}: a talon or hand of fewer than 2 cards")
        forehand = (dealer + 1) % players
        return (
            itemgetter(*range(size)),
            tuple(itemgetter(*seat_at) for seat_at in at),
            Auction(forehand, (None,) * players),
            (dealer + 2) % players,
        )

    def _blank(self, rules: Rules) -> SlovenianState:
        """A state of nothing dealt at this table, to copy deals from (a copy is cheaper than
        the dataclass's checked `__init__`); the last one kept, by the identity of `rules`."""
        last = last_answer(self, "_last_blank")
        if last is not None and last.rules is rules:
            found: SlovenianState = last
            return found
        n = rules.players
        found = SlovenianState(rules, 0, Phase.BIDDING, None, (), (), ((),) * n)
        keep_answer(self, "_last_blank", found)
        return found

    # --- bidding ------------------------------------------------------------------------

    def legal_bidding(self, s: SlovenianState) -> list[Move]:
        auction, seat = s.auction, s.turn
        assert auction is not None and seat is not None
        return [*self._bid_list(s.rules, auction.situation(seat))]

    def _bid_list(self, rules: Rules, situation: Situation) -> tuple[Move, ...]:
        """The legal bids in an auction situation (a few per table: kept in a memo)."""
        memo = self._memo(rules, "bids")
        found = memo.get(situation)
        if found is None:
            only = self.forehand_only_contracts(rules)
            legal = legal_bids(situation, self.open_contracts(rules), only)
            table = self.contract_table
            found = memo[situation] = tuple(
                [
                    shared_move(_PASS) if b == PASSED else shared_move(_BID, table[b].id)
                    for b in legal
                ]
            )
        return found

    def _memo(self, rules: Rules, name: str, limit: int = 4096) -> Memo:
        """The bounded memo (`engine.memo.RulesMemo`) of results that depend only on this rule
        set, the table `rules` and the key the caller builds."""
        return self._memos.get(rules, name, limit)

    def explain_bidding(self, s: SlovenianState, move: Move) -> str:
        if move.kind == _PASS:
            return m.Reason.PASS_NOT_ALLOWED
        if move.kind != _BID or move.value not in self.contract_index:
            return m.Reason.WRONG_PHASE
        index = self.contract_index[move.value]
        only = self.forehand_only_contracts(s.rules)
        if index in only or index not in self.open_contracts(s.rules):
            return m.Reason.BID_NOT_ALLOWED
        return m.Reason.BID_TOO_LOW

    def apply_bidding(self, s: SlovenianState, move: Move) -> SlovenianState:
        assert s.auction is not None and s.turn is not None
        seat = s.turn
        bid = PASSED if move.kind == _PASS else self.contract_index[move.value]
        auction = s.auction.bid(seat, bid)
        facts = (*s.facts, shared_fact(seat, _BID, move.value or _PASS))
        if bid != PASSED and auction.others_passed(seat):
            return self._contract_chosen(s, seat, bid, auction, facts)
        return evolve(s, auction=auction, facts=facts, turn=auction.next_bidder(seat))

    def replay_bidding(
        self, s: SlovenianState, moves: Sequence[Move], start: int
    ) -> tuple[SlovenianState, int]:
        """Validated bids from `moves[start]` on, applied at once (one state at the end), equal
        to `apply_bidding` one by one; stops after the bid that ends the auction. The bids are
        kept on locals (a list, the count of passes), their facts come from `_bid_rows`."""
        auction, seat = s.auction, s.turn
        assert auction is not None and seat is not None
        bids, facts = [*auction.bids], [*s.facts]
        index, players = self.contract_index, len(bids)
        rows = self._bid_rows.get(players) or self._bid_rows_for(players)
        passed, i, total = bids.count(PASSED), start, len(moves)
        while i < total:
            move = moves[i]
            i += 1
            if move.kind == _PASS:
                bids[seat] = PASSED
                passed += 1
                fact = rows[seat][PASSED]
            else:
                bid = bids[seat] = index[move.value]
                fact = rows[seat][bid]
                if passed == players - 1:  # all the others passed: this bid ends it
                    facts.append(fact)
                    done = _with_bids(auction, tuple(bids))
                    return self._contract_chosen(s, seat, bid, done, tuple(facts)), i
            facts.append(fact)
            seat = (seat + 1) % players
            while bids[seat] == PASSED:
                seat = (seat + 1) % players
        done = _with_bids(auction, tuple(bids))
        return evolve(s, auction=done, facts=tuple(facts), turn=seat), i

    def playout_bidding(
        self, s: SlovenianState, pick: Callable[[list[Move]], Move]
    ) -> SlovenianState:
        """The auction played to its end by `pick`, equal to `apply_bidding(pick(legal_bidding))`
        bid by bid (`auction.run_auction`: the bids on locals, one state at the end)."""
        auction, seat, rules = s.auction, s.turn, s.rules
        assert auction is not None and seat is not None
        memo, lists, bid_of = self._memo(rules, "bids"), self._bid_list, self._bid_of

        def choose(_: int, situation: Situation) -> int:
            return bid_of[pick([*(memo.get(situation) or lists(rules, situation))]).value]

        bids, said, last = run_auction(auction, seat, choose)
        rows = self._bid_rows.get(len(bids)) or self._bid_rows_for(len(bids))
        facts = (*s.facts, *[rows[seat][bid] for seat, bid in said])
        done: Auction = _with_bids(auction, tuple(bids))
        return self._contract_chosen(s, last, bids[last], done, facts)  # type: ignore[arg-type]

    def _bid_rows_for(self, players: int) -> tuple[tuple[Fact, ...], ...]:
        """Per seat, the fact of each bid by contract index (a pass last: PASSED = -1), as
        `apply_bidding` makes it; kept per player count in `_bid_rows`."""
        values = self._bid_values  # a bid's value in its fact, by contract index (pass last)
        found = self._bid_rows[players] = tuple(
            tuple(shared_fact(seat, _BID, value) for value in values) for seat in range(players)
        )
        return found

    def _contract_chosen(
        self,
        s: SlovenianState,
        seat: int,
        index: int,
        auction: Auction,
        facts: tuple[Fact, ...],
    ) -> SlovenianState:
        """The state after the bid of `seat` that ends the auction (`auction` and `facts` as
        they stand after it), in one copy of `s`."""
        c = self.contract_table[index]
        if c.id == "klop":
            return start_tricks(s, s.forehand, contract=index, auction=auction, facts=facts)
        if self.calls_king(s, index):
            phase = Phase.CALLING
        elif c.talon_group:
            return evolve(
                s,
                auction=auction,
                facts=facts,
                contract=index,
                declarer=seat,
                turn=seat,
                phase=Phase.TALON,
                exposed_talon=s.talon,
            )
        else:
            phase = Phase.ANNOUNCE
        chosen: SlovenianState = copier(type(s), *_CHOSEN)(
            s, auction, facts, index, seat, seat, phase
        )
        return chosen

    # --- announcements and kontra (engine.announce) -------------------------------------

    def side_of(self, s: SlovenianState, seat: int) -> bool:
        """True for the declarer side."""
        return seat in s.team()

    def round_moves(self, s: SlovenianState, seat: int) -> Sequence[Move]:
        """The round's legal moves of `seat`, kept per what they depend on (see
        `_round_table`) and what was said."""
        table = self._round_table(s)
        return table.get((seat, s.announced, s.levels)) or self._round_entry(s, seat, table)

    def round_table(
        self, s: SlovenianState
    ) -> tuple[Mapping[RoundKey, Sequence[Move]], RoundMoves[SlovenianState]]:
        """The round's moves kept (`_round_table`) and the function that works out and keeps
        the others."""
        table = self._round_table(s)
        entry = self._round_entry

        def moves(st: SlovenianState, seat: int) -> Sequence[Move]:
            return entry(st, seat, table)

        return table, moves

    def _round_table(self, s: SlovenianState) -> dict[RoundKey, tuple[Move, ...]]:
        """The round's moves by (seat, announced, levels) at what the round does not change:
        the table rules (by identity), the contract, the sides, whether a call was made and
        (in a contract with bonuses) what each seat holds of the ultimo cards. At most
        `_ROUND_LIMIT` tables of as many entries each (as much as one memo of `_memo`)."""
        holds = self._holdings(s) if self.contract_table[s.contract].bonuses else None
        memo = self._memo(s.rules, "round", _ROUND_LIMIT)
        key = (s.contract, s.declarer, s.partners, bool(s.called), holds)
        found = memo.get(key)
        if found is None:
            found = memo[key] = ({},)
        table: dict[RoundKey, tuple[Move, ...]] = found[0]
        return table

    def _round_entry(
        self, s: SlovenianState, seat: int, table: dict[RoundKey, tuple[Move, ...]]
    ) -> tuple[Move, ...]:
        """`round_moves` worked out, and kept in `table`."""
        if len(table) >= _ROUND_LIMIT:
            table.clear()
        found = table[(seat, s.announced, s.levels)] = tuple(self._round_moves(s, seat))
        return found

    def announceable(self, s: SlovenianState, seat: int) -> list[str]:
        """Items above every item already announced in their group, by a seat that has not
        announced in that group yet; ultimos only by a holder of the card."""
        if not self.contract_table[s.contract].bonuses:
            return []
        holds = self._holdings(s)[seat]
        memo = self._memo(s.rules, "announce")  # depends on the groups, the sayings, the cards
        key = (s.players, bool(s.called), s.announced, seat, holds)
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(self._announceable(s, seat))
        return [*found]

    def _announceable(self, s: SlovenianState, seat: int) -> list[str]:
        items: list[str] = []
        announced = s.announced
        for group in self.bonus_groups(s):
            top = -1
            if announced:
                said = [(item, who) for item, who in announced if item in group]
                if any(who == seat for _, who in said):
                    continue
                top = max((group.index(item) for item, _ in said), default=-1)
            if top + 1 < len(group) and self.may_announce(s, seat, group):
                items += group[top + 1 :]
        return items

    def may_announce(self, s: SlovenianState, seat: int, group: Group) -> bool:
        """Ultimos need the card: a pagat, a called card."""
        if group[0] == d.PAGAT_ULTIMO:
            return self._holdings(s)[seat][0]
        if group[0] == d.KING_ULTIMO:
            return self._holdings(s)[seat][1]
        return True

    def _holdings(self, s: SlovenianState) -> tuple[tuple[bool, bool], ...]:
        """Per seat: whether it holds a pagat, a called card. Asked for every announcement
        move while the hands do not change: the last answer kept (by the identity of the
        hands and the call, which it keeps alive)."""
        last = last_answer(self, "_last_holdings")
        if last is not None and last[0] is s.hands and last[1] is s.called:
            found: tuple[tuple[bool, bool], ...] = last[2]
            return found
        called = s.called
        found = tuple(
            (any(is_pagat(c) for c in hand), any(c in called for c in hand)) for hand in s.hands
        )
        keep_answer(self, "_last_holdings", (s.hands, called, found))
        return found

    def kontrable(self, s: SlovenianState, seat: int) -> list[str]:
        memo = self._memo(s.rules, "kontra")  # depends on the sides, the sayings, the levels
        key = (s.contract, s.declarer, s.partners, seat, s.announced, s.levels)
        found = memo.get(key)
        if found is None:
            klop = self.contract_table[s.contract].id == "klop"
            found = memo[key] = () if klop else tuple(self._kontrable(s, seat))
        return [*found]

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

    def first_leader(self, s: SlovenianState) -> int:
        c = self.contract_table[s.contract]
        return s.declarer if c.declarer_leads and s.declarer is not None else s.forehand

    # --- trick play hooks ---------------------------------------------------------------

    def trick_rules(self, s: SlovenianState) -> t.TrickRules:
        last = last_answer(self, "_last_trick_rules")  # asked for every card: the last answer
        if last is not None and last[0] is s.rules and last[1] == s.contract:
            found: t.TrickRules = last[2]
            return found
        c = self.contract_table[s.contract]
        kind = c.id if c.id == "colour_valat" else "negative" if c.negative else ""
        found = d.trick_rules(kind, str(s.rules.opt("emperor_order")), self.tie_rule)
        keep_answer(self, "_last_trick_rules", (s.rules, s.contract, found))
        return found

    def held_cards(self, s: SlovenianState, seat: int) -> tuple[Card, ...]:
        """An announcer of an ultimo keeps his pagat (called king) for the last trick; holding
        both copies (two packs) he may play one of them freely."""
        if not s.announced:
            return ()
        hand = s.hands[seat]
        held: list[Card] = []
        for item, who in s.announced:
            if who != seat:
                continue
            if item in self.pagat_items:
                pool = [c for c in hand if is_pagat(c)]
            elif item in self.revealing_items:
                pool = [c for c in hand if c in s.called]
            else:
                continue
            if len(pool) == 1 and pool[0] not in held:
                held += pool
        return tuple(held)

    def after_trick(self, s: SlovenianState, trick: Trick) -> SlovenianState:
        c = self.contract_table[s.contract]
        if c.id == "klop" and s.talon:
            return self.give_talon(s, trick.winner)
        winner, win_card = trick.winner, trick.plays[0][1]
        for seat, card in trick.plays:
            if seat == winner:
                win_card = card
                break
        if s.talon and not s.talon_won and win_card in s.talon_kings:
            piles = replace_at(s.piles, trick.winner, s.piles[trick.winner] + s.talon)
            return evolve(s, piles=piles, talon=(), talon_won=True)
        if win_card.suit != TAROK or win_card.rank not in (SKIS, PAGAT):  # no mondfang
            return s
        return self._mondfang(s, trick, win_card)

    def gift_changes(
        self, s: SlovenianState, given: tuple[tuple[int, Card], ...]
    ) -> dict[str, Any]:
        """Klop's talon cards given to trick winners, kept in `gifts`."""
        return {"gifts": (*s.gifts, *[card for _, card in given])}

    def _mondfang(self, s: SlovenianState, trick: Trick, win_card: Card) -> SlovenianState:
        if not self._mondfang_counts(s):
            return s
        owners = tuple(seat for seat, card in trick.plays if is_mond(card))
        return evolve(s, mondfangs=s.mondfangs + owners) if owners else s

    def _mondfang_counts(self, s: SlovenianState) -> bool:
        """Whether a captured mond counts in this contract."""
        c = self.contract_table[s.contract]
        return bool(c.bonuses or (c.id == "solo_without" and s.rules.flag("mondfang_solo_without")))

    def trick_watch(self, s: SlovenianState) -> TrickWatch:
        """`after_trick` acts on every trick of klop while the talon lasts, on a trick with a
        called card from the talon (zaruf) or with a mond (mondfang); `hand_over` on a trick
        the declarer wins in beggar, or loses in valat."""
        kings = s.talon_kings if s.talon and not s.talon_won else ()
        key = (s.contract, s.declarer, bool(s.talon), kings)  # all it reads, with the rules
        memo = self._memo(s.rules, "watch")
        found = memo.get(key)
        if found is None:
            found = memo[key] = (self._trick_watch(s),)
        watch: TrickWatch = found[0]
        return watch

    def _trick_watch(self, s: SlovenianState) -> TrickWatch:
        c = self.contract_table[s.contract]
        cid = c.id
        if cid == "klop" and s.talon:
            return _KLOP_WATCH
        cards: list[Card] = []
        if s.talon and not s.talon_won:
            cards += s.talon_kings
        # a captured mond needs the skis in its trick: the skis wins it, or the pagat does
        # (it beats the mond only in the emperor's trick, which holds the skis)
        together = (self._monds, self._skises) if self._mondfang_counts(s) else ((), ())
        winners: tuple[int, ...] = ()
        if cid in ("beggar", "open_beggar"):
            winners = (s.declarer,) if s.declarer is not None else ()
        elif cid in ("colour_valat", "valat"):
            winners = tuple(p for p in range(s.players) if p != s.declarer)
        return TrickWatch(cards=cards, winners=winners, together=together)

    def monds_left(self, s: SlovenianState) -> int:
        """Monds the declarer left in the untaken talon (a zaruf win takes the talon rest)."""
        return sum(1 for c in s.talon if is_mond(c)) if s.group is not None else 0

    def hand_over(self, s: SlovenianState) -> bool:
        if not any(s.hands):
            return True
        cid = self.contract_table[s.contract].id
        last = s.tricks[-1].winner if s.tricks else None
        if cid in ("beggar", "open_beggar"):
            return last == s.declarer
        if cid in ("colour_valat", "valat"):
            return last is not None and last != s.declarer
        return False

    def invariants(self, state: SlovenianState, result: HandResult) -> list[str]:
        """Two sides' card points add up to 2 x half; klop counts each pile alone, so the
        rounding of each pile may move the total by up to a third of a point per player.
        A team is the declarer and at most one partner per called card."""
        if result.redeal:
            return []
        errors = []
        total = sum(result.side_points)
        slack = state.players // 3 if result.contract == "klop" else 0
        if abs(total - 2 * self.half) > slack:
            errors.append(f"card points add up to {total}")
        if len(result.team) > 1 + len(state.called):
            errors.append(f"team {result.team} too large for the call")
        return errors

    # --- results, views, labels ---------------------------------------------------------

    def result(self, s: SlovenianState) -> HandResult | None:
        if s.phase == Phase.REDEAL:
            n = s.players
            return HandResult("redeal", None, (), None, (0,) * n, (0,) * n, (), redeal=True)
        if not s.finished:
            return None
        return scoring.score(self, s)

    def bonus_lines(self, s: SlovenianState) -> list[ScoreLine]:
        """Score lines of the bonuses (trula, kings, ultimos) of a normal contract."""
        return self.family.bonus_lines(self, s)

    def view(self, s: SlovenianState, seat: int | None) -> View:
        return build_view(self, s, seat, self.legal_for(s, seat))

    def label(self, s: SlovenianState, move: Move) -> str:
        deck = self._deck
        if move.kind == MoveKind.CALL:
            return self.call_label(s, move.value)
        if move.kind in (MoveKind.PLAY, MoveKind.DISCARD):
            return f"{move.kind.capitalize()} {deck.labels[deck.card(move.value)]}"
        if move.kind == MoveKind.BID:
            return f"Bid {self.contract_table[self.contract_index[move.value]].name}"
        if move.kind == MoveKind.TALON:
            return self.pick_label(s, move.value)
        if move.kind == MoveKind.ANNOUNCE:
            return f"Announce {self.bonus_table(s.rules)[move.value][0]}"
        if move.kind == MoveKind.KONTRA:
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


class Slovenian(SlovenianFamily):
    """Slovenian tarok: one pack, 4 players (a king call) or 3 (each for himself)."""

    id = "slovenian"
    # 2: the rule fixes of the second fidelity round (see docs/rules/decisions.md); tables
    # created under 1 replay with their recorded results (docs/event-log.md).
    rules_version = 2
    name = "Slovenian tarok"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    option_specs = d.OPTIONS
    family = Family(
        contracts=d.CONTRACTS,
        bonus_values=d.BONUS_VALUES,
        groups=((d.TRULA,), (d.KINGS,), (d.VALAT_BONUS,), (d.PAGAT_ULTIMO,), (d.KING_ULTIMO,)),
        packets={4: 6, 3: 4},  # 12 = 2 x 6 cards with 4 players, 16 = 4 x 4 with 3
        item_players={d.KING_ULTIMO: frozenset({4})},
        forehand_only=lambda rules: d.FOREHAND_ONLY,
    )


SLOVENIAN = Slovenian()
