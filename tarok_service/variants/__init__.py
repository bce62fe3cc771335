"""The rule sets and their registry (`find_variant`, `all_variants`)."""

from . import (  # noqa: F401
    double_tarok,
    slovenian,
    tarocco_bolognese,
    taroky,
    zwanzigerrufen,
)


def _load_all() -> None:
    """Every rule-set module is imported above, so each has registered itself."""


from .registry import all_variants, find_variant, register  # noqa: E402

__all__ = ["all_variants", "find_variant", "register"]
