"""A `Sampler` for Königrufen: the Slovenian family's sampler over Königrufen's state (the
same state, auction, call and exchange; the trick play is replayed through this rule set)."""

from __future__ import annotations

from ..slovenian.sampler import SlovenianSampler
from .rules import KOENIGRUFEN, Koenigrufen


class KoenigrufenSampler(SlovenianSampler):
    """Samples Königrufen hands from one seat's view."""

    def __init__(self, variant: Koenigrufen = KOENIGRUFEN) -> None:
        super().__init__(variant)
