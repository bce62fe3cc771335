"""Kontra chains: each scored item has its own level, raised alternately by the two sides."""

from __future__ import annotations

LEVEL_NAMES = ("", "kontra", "re", "sub", "mort")
FLEK_NAMES = ("", "flek", "reflek", "sup", "tuti")  # Czech taroky


def multiplier(level: int) -> int:
    """Kontra x2, re x4, sub x8, mort x16."""
    return 1 << level


def raised_by_owner(level: int) -> bool:
    """Whether the next raise from `level` belongs to the side that owns the item (re, mort)."""
    return level % 2 == 1


def can_raise(level: int, is_owner_side: bool, max_level: int = 4) -> bool:
    """Whether a player of the given side may raise an item now at `level`."""
    return level < max_level and raised_by_owner(level) == is_owner_side


def name(level: int, names: tuple[str, ...] = LEVEL_NAMES) -> str:
    """The name of a level in a naming scheme (LEVEL_NAMES, FLEK_NAMES)."""
    return names[level] if level < len(names) else f"x{multiplier(level)}"
