"""The king call and the talon exchange of the Slovenian family, as a mixin of the rule set."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ...engine import moves as m
from ...engine.cards import FIGURE_FACES, QUEEN, Card, Deck
from ...engine.fastcopy import copier, evolve
from ...engine.moves import Move, MoveKind
from ...engine.options import Rules
from ...engine.state import replace_at, without
from ...engine.view import Fact, shared_fact
from .data import Contract
from .family import Family
from .state import Phase, SlovenianState, is_suit_king, is_trula

_DISCARD = MoveKind.DISCARD.value  # plain str on the hot path
FREE_PICK = -1  # `group` once the declarer has taken his talon cards one by one
_TALON = ("group", "talon", "hands", "piles", "discards", "to_discard", "facts")
_DISCARDING = copier(SlovenianState, *_TALON)  # talon cards picked / laid away (replay)
_DISCARDED = copier(SlovenianState, *_TALON, "phase", "turn")  # ... the last one laid away


class CallAndExchange:
    """Phases `calling` and `talon`: who is called, which talon cards are taken, what is laid
    away. Read from the rule set's `family`: which player counts call, and whose call names a
    suit's kings of every pack; a table whose option `talon_exchange` is "free" takes talon
    cards one by one instead of a group."""

    contract_table: tuple[Contract, ...]
    family: ClassVar[Family]
    talon_group: Callable[[SlovenianState, int], tuple[Card, ...]]  # Variant's hook

    def deck(self, rules: Rules) -> Deck:
        raise NotImplementedError

    # --- king call ----------------------------------------------------------------------

    def calls_king(self, s: SlovenianState, index: int) -> bool:
        """Whether the declarer of this contract calls a partner at this table."""
        return self.contract_table[index].king_call and s.players in self.family.call_players

    def callable_cards(self, s: SlovenianState) -> list[Card]:
        """Kings of any suit; queens too when the declarer holds every king."""
        assert s.declarer is not None
        deck = self.deck(s.rules)
        kings = [c for c in deck.cards if is_suit_king(c)]
        if all(k in s.hands[s.declarer] for k in kings):
            return kings + [c for c in deck.cards if c.rank == QUEEN and not c.is_tarok]
        return kings

    def call_values(self, s: SlovenianState) -> list[str]:
        """The values of the legal call moves: card codes, or a suit's kings ("HK") of every
        pack where the family calls by suit."""
        if s.players in self.family.suit_call_players:
            values = [c.suit + FIGURE_FACES[c.rank] for c in self.callable_cards(s)]
            return [*dict.fromkeys(values)]
        codes = self.deck(s.rules).codes
        return [codes[c] for c in self.callable_cards(s)]

    def call_cards(self, s: SlovenianState, value: str) -> tuple[Card, ...]:
        """The cards a call names."""
        deck = self.deck(s.rules)
        if s.players in self.family.suit_call_players:
            suit, rank = value[0], _FACE_RANKS[value[1:]]
            return tuple(c for c in deck.cards if c.suit == suit and c.rank == rank)
        return (deck.card(value),)

    def call_label(self, s: SlovenianState, value: str) -> str:
        deck = self.deck(s.rules)
        return "Call " + " and ".join(deck.labels[c] for c in self.call_cards(s, value))

    def with_call(
        self, s: SlovenianState, cards: tuple[Card, ...], **changes: Any
    ) -> SlovenianState:
        """The holders of the called cards other than the declarer are his partners (none when
        he holds them, one when one player holds them all); a called card in the talon is a
        zaruf. `changes`: other fields changed in the same copy."""
        talon = {*map(id, s.talon)}
        in_talon = tuple([c for c in cards if id(c) in talon])
        wanted = {id(c) for c in cards}  # by identity first: a card's `__eq__` is slow
        found = [len(wanted.intersection(map(id, hand))) for hand in s.hands]
        if sum(found) + len(in_talon) == len(cards):  # each called card found once
            holders = {seat for seat, count in enumerate(found) if count}
        else:  # a hand or the talon holds equal cards that are not the same objects
            in_talon = tuple(c for c in cards if c in s.talon)
            holders = {seat for seat, hand in enumerate(s.hands) for c in cards if c in hand}
        partners = tuple(sorted(holders - {s.declarer}))
        return evolve(s, called=cards, partners=partners, talon_kings=in_talon, **changes)

    def legal_calling(self, s: SlovenianState) -> list[Move]:
        return [Move(MoveKind.CALL, v) for v in self.call_values(s)]

    def explain_calling(self, s: SlovenianState, move: Move) -> str:
        return m.Reason.CALL_NOT_ALLOWED if move.kind == MoveKind.CALL else m.Reason.WRONG_PHASE

    def apply_calling(self, s: SlovenianState, move: Move) -> SlovenianState:
        facts = (*s.facts, shared_fact(s.declarer, MoveKind.CALL, move.value))
        cards = self.call_cards(s, move.value)
        return self.with_call(s, cards, phase=Phase.TALON, exposed_talon=s.talon, facts=facts)

    # --- talon exchange -----------------------------------------------------------------

    def groups(self, s: SlovenianState) -> list[tuple[Card, ...]]:
        size = self.contract_table[s.contract].talon_group
        return [s.talon[i : i + size] for i in range(0, len(s.talon), size)]

    def free_exchange(self, s: SlovenianState) -> bool:
        """Whether the declarer takes talon cards one by one instead of a group."""
        return s.group is None and s.rules.options.get("talon_exchange") == "free"

    def discardable(self, s: SlovenianState) -> list[Card]:
        assert s.declarer is not None
        hand = s.hands[s.declarer]
        allowed = [c for c in hand if not is_suit_king(c) and not is_trula(c)]
        allowed = allowed or [*hand]  # only kings and trula left (two packs): any card
        if s.rules.flag("discard_taroks_only_if_forced"):
            suits = [c for c in allowed if not c.is_tarok]
            return suits or allowed
        return allowed

    def legal_talon(self, s: SlovenianState) -> list[Move]:
        if s.group is None:
            if self.free_exchange(s):
                codes = self.deck(s.rules).codes
                return [Move(MoveKind.TALON, codes[c]) for c in s.talon]
            return [Move(MoveKind.TALON, str(i)) for i in range(len(self.groups(s)))]
        codes = self.deck(s.rules).codes
        return [Move(MoveKind.DISCARD, codes[c]) for c in self.discardable(s)]

    def explain_talon(self, s: SlovenianState, move: Move) -> str:
        if move.kind == MoveKind.DISCARD and s.group is not None:
            return m.Reason.DISCARD_NOT_ALLOWED
        if move.kind == MoveKind.TALON and s.group is None and not self.free_exchange(s):
            # a client's pick of a group this talon does not have
            return m.Reason.NO_SUCH_TALON_GROUP
        return m.Reason.WRONG_PHASE

    def apply_talon(self, s: SlovenianState, move: Move) -> SlovenianState:
        assert s.declarer is not None
        deck = self.deck(s.rules)
        if move.kind == MoveKind.TALON:
            if self.free_exchange(s):
                return self._take(s, deck.card(move.value))
            return self._pick(s, int(move.value))
        card = deck.card(move.value)
        hands = replace_at(s.hands, s.declarer, without(s.hands[s.declarer], card))
        piles = replace_at(s.piles, s.declarer, (*s.piles[s.declarer], card))
        shown = deck.codes[card] if card.is_tarok else ""
        left = s.to_discard - 1
        done = {"phase": Phase.ANNOUNCE, "turn": s.declarer} if left == 0 else {}
        return evolve(
            s,
            hands=hands,
            piles=piles,
            discards=(*s.discards, card),
            to_discard=left,
            facts=(*s.facts, shared_fact(s.declarer, _DISCARD, shown)),
            **done,
        )

    def replay_talon(
        self, s: SlovenianState, moves: Sequence[Move], start: int
    ) -> tuple[SlovenianState, int]:
        """Validated talon moves from `moves[start]` on: a group's pick and the run of discards
        after it at once (one state at the end), a card taken one by one (free exchange), equal
        to `apply_talon` move by move."""
        seat = s.declarer
        assert seat is not None
        deck = self.deck(s.rules)
        facts, talon, group, i = [*s.facts], s.talon, s.group, start
        if group is None:
            if self.free_exchange(s):
                return self.apply_talon(s, moves[start]), start + 1
            group = int(moves[i].value)
            talon, hand, left, fact = self._picked(s, group)
            facts.append(fact)
            i += 1
        else:
            hand, left = s.hands[seat], s.to_discard
        by_code, codes = deck.by_code, deck.codes
        pile, discards = [*s.piles[seat]], [*s.discards]
        while i < len(moves) and left > 0:
            card = by_code[moves[i].value]
            hand = without(hand, card)
            pile.append(card)
            discards.append(card)
            facts.append(shared_fact(seat, _DISCARD, codes[card] if card.is_tarok else ""))
            left, i = left - 1, i + 1
        hands, piles = replace_at(s.hands, seat, hand), replace_at(s.piles, seat, tuple(pile))
        if left == 0:
            ended: SlovenianState = _DISCARDED(
                s,
                group,
                talon,
                hands,
                piles,
                tuple(discards),
                0,
                tuple(facts),
                Phase.ANNOUNCE,
                seat,
            )
            return ended, i
        after: SlovenianState = _DISCARDING(
            s, group, talon, hands, piles, tuple(discards), left, tuple(facts)
        )
        return after, i

    def _pick(self, s: SlovenianState, index: int) -> SlovenianState:
        assert s.declarer is not None
        rest, hand, left, fact = self._picked(s, index)
        return evolve(
            s,
            group=index,
            talon=rest,
            to_discard=left,
            hands=replace_at(s.hands, s.declarer, hand),
            facts=(*s.facts, fact),
        )

    def _picked(
        self, s: SlovenianState, index: int
    ) -> tuple[tuple[Card, ...], tuple[Card, ...], int, Fact]:
        """The declarer's pick of talon group `index`: (the talon left, his hand with the
        group, how many cards he lays away, the pick's fact)."""
        assert s.declarer is not None
        groups = self.groups(s)
        # EngineBug (from `talon_group`) for a group that cannot exist
        chosen = groups[index] if 0 <= index < len(groups) else self.talon_group(s, index)
        rest = tuple(c for i, g in enumerate(groups) if i != index for c in g)
        hand = self.deck(s.rules).sort(s.hands[s.declarer] + chosen)
        return rest, hand, len(chosen), shared_fact(s.declarer, MoveKind.TALON, str(index))

    def _take(self, s: SlovenianState, card: Card) -> SlovenianState:
        """One talon card into the declarer's hand; after the last one he lays away as many."""
        assert s.declarer is not None
        count = self.contract_table[s.contract].talon_group
        deck = self.deck(s.rules)
        hand = deck.sort((*s.hands[s.declarer], card))
        s = evolve(
            s,
            talon=without(s.talon, card),
            hands=replace_at(s.hands, s.declarer, hand),
            facts=(*s.facts, shared_fact(s.declarer, MoveKind.TALON, deck.codes[card])),
        )
        if len(s.exposed_talon) - len(s.talon) < count:
            return s
        return evolve(s, group=FREE_PICK, to_discard=count)

    def pick_label(self, s: SlovenianState, value: str) -> str:
        deck = self.deck(s.rules)
        if self.free_exchange(s):
            return f"Take {deck.labels[deck.card(value)]} from the talon"
        return "Take talon group " + " ".join(deck.labels[c] for c in self.groups(s)[int(value)])


_FACE_RANKS = {face: rank for rank, face in FIGURE_FACES.items()}
