"""A fixed integer action space per rule set and player count: every move id the rule set can
produce has one number, the same in every state (OpenSpiel's `num_distinct_actions`)."""

from __future__ import annotations

from typing import Any

from tarok_service.engine.moves import Move
from tarok_service.engine.variant import Variant

# Every move kind a rule set uses; the value domains below are combined with each of them.
KINDS = (
    "pass", "bid", "call", "talon", "discard", "announce", "kontra", "play", "declare", "give",
    "end", "raise", "hold", "show", "keep", "reject", "done",
)  # fmt: skip
WORDS = ("game", "keep", "reject")  # values that are neither cards, contracts nor bonuses
MAX_GROUPS = 16  # talon group indices 0..15


class ActionSpace:
    """Numbers for the moves of one rule set: `kind_index * len(values) + value_index`."""

    def __init__(self, variant: Variant[Any], players: int) -> None:
        rules = variant.make_rules(players)
        deck = variant.deck(rules)
        cards = [deck.code(c) for c in deck.cards]
        names: set[str] = set(WORDS)
        for count in variant.player_counts:
            names.update(c.id for c in variant.contracts(count))
            for bonus in variant.bonuses(count):
                names.update((bonus.id, f"{bonus.id}_against"))
        groups = [str(i) for i in range(MAX_GROUPS)]
        values = ["", *dict.fromkeys([*cards, *sorted(names - set(cards)), *groups])]
        self.values: tuple[str, ...] = tuple(values)
        self._value_index = {v: i for i, v in enumerate(self.values)}
        self._kind_index = {k: i for i, k in enumerate(KINDS)}
        self.size = len(KINDS) * len(self.values)

    def encode(self, move: Move) -> int:
        """The number of `move`; KeyError for a move outside the space (a rule-set change
        that needs a new kind or value here)."""
        kind = self._kind_index[move.kind]
        return kind * len(self.values) + self._value_index[move.value]

    def decode(self, action: int) -> Move:
        """The move numbered `action`."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} outside 0..{self.size - 1}")
        kind, value = divmod(action, len(self.values))
        return Move(KINDS[kind], self.values[value])
