"""Double tarok: Slovenian tarok with two packs for 4, 6 and 8 players.

Everything the two games share is inherited from `Slovenian`; this module holds only what
differs: the 108-card deck, the contract and bonus tables, the call of a king by suit and
back (4 players) or by suit alone with both holders as partners (6 and 8), bonus groups,
the lead-pack tie rule and one mondfang per captured mond.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from ..engine import tricks as t
from ..engine.cards import FIGURE_FACES, Card, Deck, tarok54
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.outcome import HandResult, ScoreLine
from ..engine.state import HandState, evolve, replace_at, without
from ..engine.variant import BonusInfo
from ..engine.view import Fact
from . import double_tarok_data as dd
from . import double_tarok_scoring as scoring
from .registry import register
from .slovenian import Slovenian
from .slovenian_state import PICK, SlovenianState, is_mond, is_pagat

_FACE_RANKS = {face: rank for rank, face in FIGURE_FACES.items()}
FREE_PICK = -1  # `group` once the declarer has taken his talon cards one by one


@dataclass(frozen=True, slots=True)
class DoubleState(SlovenianState):
    """A double-tarok hand. A call names one card (4 players) or both kings of a suit (6 and 8
    players), so called cards, partners, talon kings and captured monds are tuples here;
    `called` and `partner` are filled only when the call names a single card."""

    called_set: tuple[Card, ...] = ()
    partner_set: tuple[int, ...] = ()
    talon_kings: tuple[Card, ...] = ()
    mondfangs: tuple[int, ...] = ()  # the owner of every captured mond

    def mates(self) -> tuple[int, ...]:
        return self.partner_set

    def called_cards(self) -> tuple[Card, ...]:
        return self.called_set

    def zaruf_cards(self) -> tuple[Card, ...]:
        return self.talon_kings


def dt(state: HandState) -> DoubleState:
    assert isinstance(state, DoubleState)
    return state


@cache
def _bonus_table(double_king_ultimo: int) -> Mapping[str, tuple[str, int, int]]:
    return dd.bonus_values(double_king_ultimo)


class DoubleTarok(Slovenian):
    """Two-deck Slovenian tarok."""

    id = "double_tarok"
    name = "Double tarok (two packs)"
    player_counts = (4, 6, 8)
    option_specs = dd.OPTIONS
    contract_table = dd.CONTRACTS
    contract_index = dd.CONTRACT_INDEX
    forehand_only = frozenset({dd.KLOP, dd.SIX})
    radelc_contracts = dd.RADELC_CONTRACTS
    bonus_values = dd.bonus_values(20)
    trula_kings_items = frozenset(dd.KINGS_GROUP + dd.TRULA_GROUP)
    revealing_items = frozenset(dd.KING_ULTIMO_GROUP)
    tie_rule = t.TIE_LEAD_PACK
    state_type = DoubleState
    talon_size = 12
    packets = {4: 12, 6: 8, 8: 6}  # two rounds: 24, 16 or 12 cards each
    half = 70  # of 140 card points

    def deck(self, rules: Rules) -> Deck:
        return _DECK

    # --- data ---------------------------------------------------------------------------

    def forehand_only_contracts(self, rules: Rules) -> frozenset[int]:
        if rules.flag("six_forehand_only"):
            return self.forehand_only
        return frozenset({dd.KLOP})

    def bonus_table(self, rules: Rules) -> Mapping[str, tuple[str, int, int]]:
        return _bonus_table(rules.num("double_king_ultimo_value"))

    def klop_value(self, rules: Rules) -> int:
        return rules.num("klop_value")

    def bonuses(self, players: int) -> tuple[BonusInfo, ...]:
        rows = (BonusInfo(i, n, s, a) for i, (n, s, a) in self.bonus_values.items())
        return tuple(r for r in rows if players > 4 or r.id != dd.DOUBLE_KING_ULTIMO)

    def bonus_groups(self, s: SlovenianState) -> tuple[tuple[str, ...], ...]:
        """The announcement groups of this hand: king ultimo only after a call, its double
        form only with 6 and 8 players."""
        groups = [dd.KINGS_GROUP, dd.TRULA_GROUP, dd.PAGAT_GROUP]
        if s.called_cards():
            groups.append(dd.KING_ULTIMO_GROUP if s.players > 4 else (dd.KING_ULTIMO,))
        return tuple(groups)

    # --- king call ----------------------------------------------------------------------

    def calls_king(self, s: SlovenianState, index: int) -> bool:
        return self.contract_table[index].king_call

    def call_values(self, s: SlovenianState) -> list[str]:
        """4 players: a king by suit and back ("HK.2"); 6 and 8: a suit's kings ("HK")."""
        if s.players == 4:
            return super().call_values(s)
        values = [c.suit + FIGURE_FACES[c.rank] for c in self.callable_cards(s)]
        return list(dict.fromkeys(values))

    def call_cards(self, s: SlovenianState, value: str) -> tuple[Card, ...]:
        if s.players == 4:
            return super().call_cards(s, value)
        suit, rank = value[0], _FACE_RANKS[value[1:]]
        return tuple(c for c in self.deck(s.rules).cards if c.suit == suit and c.rank == rank)

    def with_call(self, s: SlovenianState, cards: tuple[Card, ...]) -> SlovenianState:
        """The holders of the called cards other than the declarer are his partners (none when
        he holds them, one when one player holds both); a called card in the talon is a zaruf."""
        holders = {seat for seat, hand in enumerate(s.hands) for c in cards if c in hand}
        partners = tuple(sorted(holders - {s.declarer}))
        in_talon = tuple(c for c in cards if c in s.talon)
        single = len(cards) == 1
        return evolve(
            dt(s),
            called_set=cards,
            partner_set=partners,
            talon_kings=in_talon,
            king_in_talon=bool(in_talon),
            called=cards[0] if single else None,
            partner=partners[0] if single and partners else None,
        )

    # --- talon exchange (option talon_exchange=free) --------------------------------------

    def free_exchange(self, s: SlovenianState) -> bool:
        """Whether the declarer takes talon cards one by one instead of a group."""
        return s.group is None and s.rules.opt("talon_exchange") == "free"

    def legal_talon(self, state: HandState) -> list[Move]:
        s = dt(state)
        if self.free_exchange(s):
            codes = self.deck(s.rules).codes
            return [Move(PICK, codes[c]) for c in s.talon]
        return super().legal_talon(s)

    def apply_talon(self, state: HandState, move: Move) -> HandState:
        s = dt(state)
        if move.kind == PICK and self.free_exchange(s):
            return self._take(s, self.deck(s.rules).card(move.value))
        return super().apply_talon(s, move)

    def _take(self, s: DoubleState, card: Card) -> DoubleState:
        """One talon card into the declarer's hand; after the last one he lays away as many."""
        assert s.declarer is not None
        count = self.contract_table[s.contract].talon_group
        hand = self.deck(s.rules).sort((*s.hands[s.declarer], card))
        code = self.deck(s.rules).codes[card]
        s = evolve(
            s,
            talon=without(s.talon, card),
            hands=replace_at(s.hands, s.declarer, hand),
            facts=(*s.facts, Fact(s.declarer, PICK, code)),
        )
        if len(s.exposed_talon) - len(s.talon) < count:
            return s
        left = any(is_mond(c) for c in s.talon)
        return evolve(s, group=FREE_PICK, to_discard=count, mond_left=left)

    def label(self, state: HandState, move: Move) -> str:
        s = dt(state)
        if move.kind == PICK and self.free_exchange(s):
            deck = self.deck(s.rules)
            return f"Take {deck.labels[deck.card(move.value)]} from the talon"
        return super().label(s, move)

    # --- announcements ------------------------------------------------------------------

    def announceable(self, s: SlovenianState, seat: int) -> list[str]:
        """Items above every item already announced in their group, by a seat that has not
        announced in that group yet; ultimos only by a holder of the card."""
        if not self.contract_table[s.contract].bonuses:
            return []
        items: list[str] = []
        for group in self.bonus_groups(s):
            said = [(item, who) for item, who in s.announced if item in group]
            if any(who == seat for _, who in said):
                continue
            top = max((group.index(item) for item, _ in said), default=-1)
            items += [i for i in group[top + 1 :] if self.may_announce(s, seat, i)]
        if s.announcer(dd.VALAT_BONUS) is None:
            items.append(dd.VALAT_BONUS)
        return items

    def may_announce(self, s: SlovenianState, seat: int, item: str) -> bool:
        hand = s.hands[seat]
        if item in dd.PAGAT_GROUP:
            return any(is_pagat(c) for c in hand)
        if item in dd.KING_ULTIMO_GROUP:
            return any(c in s.called_cards() for c in hand)
        return True

    def held_cards(self, state: HandState, seat: int) -> tuple[Card, ...]:
        """An announcer of an ultimo keeps his pagat (called king) for the last trick; holding
        both copies he may play one of them freely."""
        s = dt(state)
        hand = s.hands[seat]
        held: list[Card] = []
        for item, who in s.announced:
            if who != seat:
                continue
            if item in dd.PAGAT_GROUP:
                pool = [c for c in hand if is_pagat(c)]
            elif item in dd.KING_ULTIMO_GROUP:
                pool = [c for c in hand if c in s.called_cards()]
            else:
                continue
            if len(pool) == 1 and pool[0] not in held:
                held += pool
        return tuple(held)

    # --- monds --------------------------------------------------------------------------

    def capture_monds(self, s: SlovenianState, owners: tuple[int, ...]) -> SlovenianState:
        d = dt(s)
        return evolve(d, mondfangs=d.mondfangs + owners)

    def captured_monds(self, s: SlovenianState) -> tuple[int, ...]:
        return dt(s).mondfangs

    def monds_left(self, s: SlovenianState) -> int:
        """Monds in the untaken talon groups (a zaruf win takes the talon rest back)."""
        return sum(1 for c in s.talon if is_mond(c)) if s.group is not None else 0

    # --- scoring ------------------------------------------------------------------------

    def bonus_lines(self, s: SlovenianState) -> list[ScoreLine]:
        return scoring.bonuses(self, dt(s))

    def invariants(self, state: HandState, result: HandResult) -> list[str]:
        """Card points add to 140; a team is the declarer and at most one partner per
        called card."""
        errors = super().invariants(state, result)
        s = dt(state)
        if len(result.team) > 1 + len(s.called_cards()):
            errors.append(f"team {result.team} too large for the call")
        return errors


_DECK = tarok54(packs=2)
DOUBLE_TAROK = DoubleTarok()
register(DOUBLE_TAROK)
