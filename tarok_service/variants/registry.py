"""The registry of rule sets by id: each rule-set subpackage registers its `RuleSet` here once
(its variant, sampler and OpenSpiel mapping)."""

from __future__ import annotations

from typing import Any, TypeVar

from ..engine.sampling import Sampler
from ..engine.variant import Variant
from .ruleset import OpenSpielGame, RuleSet

_REGISTRY: dict[str, RuleSet] = {}
_V = TypeVar("_V", bound=Variant[Any])


def register(
    variant: _V, *, sampler: Sampler[Any] | None = None, openspiel: OpenSpielGame | None = None
) -> _V:
    """Add a rule set under its id (the last registration of an id wins) once its phase table
    checks out (RuleSetError, at import, for a phase without handlers ...); returns the variant
    with its own type."""
    variant.checked_table()
    _REGISTRY[variant.id] = RuleSet(variant, sampler, openspiel)
    return variant


def find_rule_set(variant_id: str) -> RuleSet:
    """The registered rule set with this id; KeyError names the known ids."""
    from . import _load_all

    _load_all()
    try:
        return _REGISTRY[variant_id]
    except KeyError:
        known = sorted(_REGISTRY)
        raise KeyError(f"unknown variant {variant_id[:64]!r}; known: {known}") from None


def find_variant(variant_id: str) -> Variant[Any]:
    """The registered variant with this id; KeyError names the known ids."""
    return find_rule_set(variant_id).variant


def all_rule_sets() -> list[RuleSet]:
    """Every registered rule set, in registration order."""
    from . import _load_all

    _load_all()
    return [*_REGISTRY.values()]


def all_variants() -> list[Variant[Any]]:
    """Every registered variant, in registration order."""
    return [rule_set.variant for rule_set in all_rule_sets()]
