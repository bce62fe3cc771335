"""Table options: named rule choices with defaults, validated once when a table is made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

OptionValue = bool | int | str


class OptionError(ValueError):
    """An unknown option or a value out of range; `field` names the offending option."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass(frozen=True)
class OptionSpec:
    """One option: its default, and either the allowed choices or an inclusive integer range."""

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    low: int | None = None
    high: int | None = None

    def allowed(self) -> tuple[str, ...]:
        """Human-readable allowed values."""
        if isinstance(self.default, bool):
            return ("true", "false")
        if self.choices:
            return tuple(str(c) for c in self.choices)
        return (f"{self.low}..{self.high}",)

    def check(self, value: OptionValue) -> OptionValue:
        if isinstance(self.default, bool):
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            if not isinstance(value, bool):
                raise OptionError(self.name, f"option {self.name} takes true or false")
            return value
        if isinstance(self.default, int):
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise OptionError(self.name, f"option {self.name} takes an integer") from None
            if isinstance(value, bool):
                raise OptionError(self.name, f"option {self.name} takes an integer")
            if self.choices and number not in self.choices:
                raise OptionError(self.name, f"option {self.name} must be one of {self.allowed()}")
            if (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high
            ):
                raise OptionError(
                    self.name, f"option {self.name} must be in {self.low}..{self.high}"
                )
            return number
        text = str(value)
        if self.choices and text not in self.choices:
            raise OptionError(self.name, f"option {self.name} must be one of {self.allowed()}")
        return text


class Options(dict[str, OptionValue]):
    """Resolved options by name: a dict that cannot change after it is made, hashable (so
    rules and states are)."""

    __slots__ = ("_hash",)

    def __init__(self, values: Mapping[str, OptionValue] | None = None) -> None:
        super().__init__(values or {})
        self._hash: int | None = None

    def __hash__(self) -> int:  # type: ignore[override]  # dict is unhashable; this one is not
        if self._hash is None:
            self._hash = hash(frozenset(self.items()))
        return self._hash

    def __reduce__(self) -> tuple[type[Options], tuple[dict[str, OptionValue]]]:
        return Options, (dict(self),)

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("table options cannot change")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's fixed facts: variant id, player count and every option resolved to a value.
    Immutable and hashable; `options` given as any mapping is kept as `Options`."""

    variant: str
    players: int
    options: Mapping[str, OptionValue] = field(default_factory=Options)
    # The same values in a plain dict, private: `opt`/`flag`/`num` are on hot paths, and a
    # lookup in an exact dict is faster than in a dict subclass.
    _values: dict[str, OptionValue] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.options) is not Options:
            object.__setattr__(self, "options", Options(self.options))
        object.__setattr__(self, "_values", dict(self.options))

    def opt(self, name: str) -> OptionValue:
        return self._values[name]

    def flag(self, name: str) -> bool:
        return bool(self._values[name])

    def num(self, name: str) -> int:
        return int(self._values[name])


def resolve(specs: Sequence[OptionSpec], given: Mapping[str, OptionValue]) -> Options:
    """Defaults overlaid with the given values; OptionError for an unknown name or bad value."""
    by_name = {s.name: s for s in specs}
    for name in given:
        if name not in by_name:
            raise OptionError(name, f"unknown option {name!r}; known: {sorted(by_name)}")
    return Options(
        {s.name: s.check(given[s.name]) if s.name in given else s.default for s in specs}
    )
