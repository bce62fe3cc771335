"""A Slovenian-family rule set as configuration: packs, deal, contracts, bonus groups, the
king call and the few rules that differ, read by the one family code (`SlovenianFamily`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...engine import tricks as t
from ...engine.options import Rules
from ...engine.outcome import ScoreLine
from . import scoring as slovenian_scoring
from .data import Contract

if TYPE_CHECKING:
    from .rules import SlovenianFamily
    from .state import SlovenianState

BonusTable = Mapping[str, tuple[str, int, int]]  # item -> (name, silent, announced value)
Group = tuple[str, ...]  # bonus items that exclude each other, low to high


def _klop_70(rules: Rules) -> int:
    return 70


@dataclass(frozen=True)
class Family:
    """What a Slovenian-family rule set is made of.

    Derived, not configured: the talon is 6 cards and a side needs more than 35 card points
    per pack; radelci are written for klop and every fixed-value contract; the items of the
    trula and kings groups are the ones option `kontra_trula_kings` covers (in a member that
    has it), the king ultimo group's items show their announcer as a partner.
    """

    contracts: tuple[Contract, ...]
    bonus_values: BonusTable  # the bonus table at the default options
    # Announcement groups in the order their moves are offered; a seat announces at most one
    # item per group, each above what was announced in it. The group of king ultimo is open
    # only after a call, a pagat ultimo's only to a holder of a pagat.
    groups: tuple[Group, ...]
    packets: Mapping[int, int]  # cards per packet of the deal, by player count
    packs: int = 1
    call_players: frozenset[int] = frozenset({4})  # who plays a king-call contract with a call
    suit_call_players: frozenset[int] = frozenset()  # whose call names a suit's kings (all packs)
    item_players: Mapping[str, frozenset[int]] = field(default_factory=dict)  # item -> counts
    tie_rule: str = t.TIE_FIRST  # equal cards (two packs): which wins the trick
    redeal_without_tarok: bool = True  # a hand without a tarok is dealt again
    # Hooks: values that depend on the table's options, and the bonus scoring.
    forehand_only: Callable[[Rules], frozenset[int]] = lambda rules: frozenset()
    bonus_table: Callable[[Rules], BonusTable] | None = None  # default: `bonus_values`
    klop_value: Callable[[Rules], int] = _klop_70
    bonus_lines: Callable[[SlovenianFamily, SlovenianState], list[ScoreLine]] = (
        slovenian_scoring.bonuses
    )

    @property
    def talon_size(self) -> int:
        return 6 * self.packs

    @property
    def half(self) -> int:
        """The declarer side needs more than this many card points."""
        return 35 * self.packs

    def radelc_contracts(self) -> frozenset[int]:
        return frozenset(i for i, c in enumerate(self.contracts) if c.id == "klop" or c.fixed)

    def items_of(self, *firsts: str) -> frozenset[str]:
        """Every item of the groups led by one of `firsts`."""
        return frozenset(i for g in self.groups if g[0] in firsts for i in g)
