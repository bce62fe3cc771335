"""A Slovenian-family variant by configuration alone (docs/variants.md shows this file whole):
Slovenian tarok as one house plays it - four players only, no open beggar, klop worth 100,
trula and kings worth double."""

from __future__ import annotations

from dataclasses import replace

from tarok_service.variants.slovenian import data as d
from tarok_service.variants.slovenian.rules import Slovenian, SlovenianFamily


class HouseTarok(SlovenianFamily):
    id = "example_house_tarok"
    name = "House tarok (example)"
    player_counts = (4,)
    option_specs = d.OPTIONS
    family = replace(
        Slovenian.family,
        contracts=tuple(c for c in d.CONTRACTS if c.id != "open_beggar"),
        bonus_values={**d.BONUS_VALUES, d.TRULA: ("Trula", 20, 40), d.KINGS: ("Kings", 20, 40)},
        klop_value=lambda rules: 100,
    )
