"""The rule sets, one subpackage each, and their registry (`find_variant`, `find_rule_set`,
`all_variants`, `all_rule_sets`). Each subpackage registers itself when imported."""

from . import (  # noqa: F401
    double_tarok,
    french_tarot,
    koenigrufen,
    slovenian,
    tarocco_bolognese,
    taroky,
    zwanzigerrufen,
)


def _load_all() -> None:
    """Every rule-set subpackage is imported above, so each has registered itself."""


from .registry import all_rule_sets, all_variants, find_rule_set, find_variant, register  # noqa: E402

__all__ = ["all_rule_sets", "all_variants", "find_rule_set", "find_variant", "register"]
