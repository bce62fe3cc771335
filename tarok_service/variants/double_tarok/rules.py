"""Double tarok: the Slovenian family configured for two packs and 4, 6 or 8 players.

What differs from Slovenian tarok is configuration: the 108-card deck, the contract and bonus
tables with their groups (kings, colour kings, double kings ...), the call of a king by suit
and pack (4 players) or of a suit's two kings, both holders partners (6 and 8), the lead-pack
tie rule, and the option-dependent forehand-only six, klop value and double king ultimo; its
bonus scoring is a hook (`double_tarok_scoring`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ...engine import tricks as t
from ..slovenian.family import Family
from ..slovenian.rules import SlovenianFamily
from . import data as dd
from . import scoring as scoring


@cache
def _bonus_table(double_king_ultimo: int) -> Mapping[str, tuple[str, int, int]]:
    return dd.bonus_values(double_king_ultimo)


class DoubleTarok(SlovenianFamily):
    """Two-deck Slovenian tarok."""

    id = "double_tarok"
    name = "Double tarok (two packs)"
    rules_version = 2  # the Slovenian rule fixes of the second fidelity round apply here too
    player_counts = (4, 6, 8)
    option_specs = dd.OPTIONS
    family = Family(
        packs=2,
        contracts=dd.CONTRACTS,
        bonus_values=_bonus_table(20),
        groups=(*dd.GROUPS, (dd.VALAT_BONUS,)),
        packets={4: 12, 6: 8, 8: 6},  # two rounds: 24, 16 or 12 cards each
        call_players=frozenset({4, 6, 8}),
        suit_call_players=frozenset({6, 8}),
        item_players={dd.DOUBLE_KING_ULTIMO: frozenset({6, 8})},
        tie_rule=t.TIE_LEAD_PACK,
        forehand_only=lambda rules: dd.FOREHAND_ONLY[rules.flag("six_forehand_only")],
        bonus_table=lambda rules: _bonus_table(rules.num("double_king_ultimo_value")),
        klop_value=lambda rules: rules.num("klop_value"),
        bonus_lines=scoring.bonuses,
    )


DOUBLE_TAROK = DoubleTarok()
