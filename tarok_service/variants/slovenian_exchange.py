"""The king call and the talon exchange of Slovenian tarok, as a mixin of the rule set."""

from __future__ import annotations

from ..engine import moves as m
from ..engine.cards import QUEEN, Card, Deck
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.state import HandState, evolve, replace_at, without
from ..engine.view import Fact
from .slovenian_data import Contract
from .slovenian_state import (
    ANNOUNCE,
    CALL,
    DISCARD,
    PICK,
    TALON,
    SlovenianState,
    is_mond,
    is_suit_king,
    is_trula,
    st,
)


class CallAndExchange:
    """Phases `calling` and `talon`: who is called, which talon group is taken, what is laid
    away. Hooks a rule set may override: `calls_king`, `call_values`, `call_cards`,
    `call_label`, `with_call`, `discardable`."""

    contract_table: tuple[Contract, ...]

    def deck(self, rules: Rules) -> Deck:
        raise NotImplementedError

    # --- king call ----------------------------------------------------------------------

    def calls_king(self, s: SlovenianState, index: int) -> bool:
        """Whether the declarer of this contract calls a partner (4 players only here)."""
        return self.contract_table[index].king_call and s.players == 4

    def callable_cards(self, s: SlovenianState) -> list[Card]:
        """Kings of any suit; queens too when the declarer holds every king."""
        assert s.declarer is not None
        deck = self.deck(s.rules)
        kings = [c for c in deck.cards if is_suit_king(c)]
        if all(k in s.hands[s.declarer] for k in kings):
            return kings + [c for c in deck.cards if c.rank == QUEEN and not c.is_tarok]
        return kings

    def call_values(self, s: SlovenianState) -> list[str]:
        """The values of the legal call moves (card codes here)."""
        codes = self.deck(s.rules).codes
        return [codes[c] for c in self.callable_cards(s)]

    def call_cards(self, s: SlovenianState, value: str) -> tuple[Card, ...]:
        """The cards a call names."""
        return (self.deck(s.rules).card(value),)

    def call_label(self, s: SlovenianState, value: str) -> str:
        deck = self.deck(s.rules)
        return "Call " + " and ".join(deck.labels[c] for c in self.call_cards(s, value))

    def with_call(self, s: SlovenianState, cards: tuple[Card, ...]) -> SlovenianState:
        """The state once `cards` are called: the holder of the card is the partner."""
        card = cards[0]
        holder = next((i for i, h in enumerate(s.hands) if card in h), None)
        partner = holder if holder != s.declarer else None
        return evolve(s, called=card, partner=partner, king_in_talon=card in s.talon)

    def legal_calling(self, state: HandState) -> list[Move]:
        return [Move(CALL, v) for v in self.call_values(st(state))]

    def explain_calling(self, state: HandState, move: Move) -> str:
        return m.CALL_NOT_ALLOWED if move.kind == CALL else m.WRONG_PHASE

    def apply_calling(self, state: HandState, move: Move) -> HandState:
        s = st(state)
        facts = (*s.facts, Fact(s.declarer, CALL, move.value))
        called = self.with_call(s, self.call_cards(s, move.value))
        return evolve(called, phase=TALON, exposed_talon=s.talon, facts=facts)

    # --- talon exchange -----------------------------------------------------------------

    def groups(self, s: SlovenianState) -> list[tuple[Card, ...]]:
        size = self.contract_table[s.contract].talon_group
        return [s.talon[i : i + size] for i in range(0, len(s.talon), size)]

    def discardable(self, s: SlovenianState) -> list[Card]:
        assert s.declarer is not None
        hand = s.hands[s.declarer]
        allowed = [c for c in hand if not is_suit_king(c) and not is_trula(c)]
        allowed = allowed or list(hand)  # only kings and trula left (two packs): any card
        if s.rules.flag("discard_taroks_only_if_forced"):
            suits = [c for c in allowed if not c.is_tarok]
            return suits or allowed
        return allowed

    def legal_talon(self, state: HandState) -> list[Move]:
        s = st(state)
        if s.group is None:
            return [Move(PICK, str(i)) for i in range(len(self.groups(s)))]
        codes = self.deck(s.rules).codes
        return [Move(DISCARD, codes[c]) for c in self.discardable(s)]

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
        deck = self.deck(s.rules)
        card = deck.card(move.value)
        hands = replace_at(s.hands, s.declarer, without(s.hands[s.declarer], card))
        piles = replace_at(s.piles, s.declarer, (*s.piles[s.declarer], card))
        shown = deck.codes[card] if card.is_tarok else ""
        left = s.to_discard - 1
        done = {"phase": ANNOUNCE, "turn": s.declarer} if left == 0 else {}
        return evolve(
            s,
            hands=hands,
            piles=piles,
            discards=(*s.discards, card),
            to_discard=left,
            facts=(*s.facts, Fact(s.declarer, DISCARD, shown)),
            **done,
        )

    def _pick(self, s: SlovenianState, index: int) -> SlovenianState:
        assert s.declarer is not None
        groups = self.groups(s)
        chosen = groups[index]
        rest = tuple(c for i, g in enumerate(groups) if i != index for c in g)
        hand = self.deck(s.rules).sort(s.hands[s.declarer] + chosen)
        return evolve(
            s,
            group=index,
            talon=rest,
            to_discard=len(chosen),
            hands=replace_at(s.hands, s.declarer, hand),
            mond_left=any(is_mond(c) for c in rest),
            facts=(*s.facts, Fact(s.declarer, PICK, str(index))),
        )
