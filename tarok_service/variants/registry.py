"""The registry of rule sets by id: each rule-set module registers its Variant here."""

from __future__ import annotations

from typing import Any, TypeVar

from ..engine.variant import Variant

_REGISTRY: dict[str, Variant[Any]] = {}
_V = TypeVar("_V", bound=Variant[Any])


def register(variant: _V) -> _V:
    """Add a rule set under its id (the last registration of an id wins) once its phase table
    checks out (RuleSetError, at import, for a phase without handlers ...); returns it with its
    own type."""
    variant.checked_table()
    _REGISTRY[variant.id] = variant
    return variant


def find_variant(variant_id: str) -> Variant[Any]:
    """The registered variant with this id; KeyError names the known ids."""
    from . import _load_all

    _load_all()
    try:
        return _REGISTRY[variant_id]
    except KeyError:
        known = sorted(_REGISTRY)
        raise KeyError(f"unknown variant {variant_id[:64]!r}; known: {known}") from None


def all_variants() -> list[Variant[Any]]:
    """Every registered rule set, in registration order."""
    from . import _load_all

    _load_all()
    return [*_REGISTRY.values()]
