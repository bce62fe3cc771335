"""A digest of seeded hands per configuration: evidence that a refactor changed no behaviour.

For every rule set, player count and the option sets the other tests use, `HANDS` seeded hands
are played through the public engine API (deal, legal_moves, label, apply, view, result, settle,
close) by a deterministic policy. Every legal-move list, every chosen move and its label, the
reason an illegal move is refused, every state after a move, what a spectator and the seat to
move may see, the result and the match settlement are written in a canonical text form (class
names and field values; a `str` subclass such as a StrEnum member is written as its value) into
one SHA-256 per configuration. The golden file tests/data/digest/hands.txt holds them.

Regenerate only after a deliberate rule change (and say so in the commit):

    .venv/bin/python -m tests.variants.hand_digest --write
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import random
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from tarok_service.engine.match import MatchState
from tarok_service.engine.moves import EngineBug, IllegalMove, Move
from tarok_service.engine.options import OptionValue, Rules
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import find_variant

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "digest" / "hands.txt"
HANDS = 300

# (rule set, players, options): every player count with the defaults, and the option sets the
# frozen logs, the settlement, OpenSpiel-differential and double-tarok playout tests play with.
CONFIGS: tuple[tuple[str, int, Mapping[str, OptionValue]], ...] = (
    ("slovenian", 3, {}),
    ("slovenian", 4, {}),
    ("slovenian", 4, {"radelc_mode": "own"}),
    (
        "slovenian",
        4,
        {
            "round_difference": False,
            "mondfang_penalty": 20,
            "mondfang_solo_without": True,
            "klop_round5": False,
            "discard_taroks_only_if_forced": True,
        },
    ),
    ("double_tarok", 4, {}),
    ("double_tarok", 6, {}),
    ("double_tarok", 8, {}),
    ("double_tarok", 6, {"talon_exchange": "free", "klop_value": 140, "six_forehand_only": False}),
    ("tarocco_bolognese", 4, {}),
    ("taroky", 4, {}),
    ("taroky", 4, {"zid_lost_payer": "declarer"}),
    ("zwanzigerrufen", 4, {}),
)


def config_name(variant_id: str, players: int, options: Mapping[str, OptionValue]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{variant_id}-{players}" + (f"[{opts}]" if opts else "")


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names


def _frozen(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


class Canon:
    """The canonical text of engine values, independent of module paths, enum classes and object
    identity (a `str` subclass such as a StrEnum member is its value; the table's own `rules`
    are `R`). Texts of tuples and frozen dataclasses are remembered by identity while the
    object is held (states share most of their parts with the state before)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[int, tuple[object, str]] = {}

    def __call__(self, obj: object) -> str:
        if obj is None or isinstance(obj, bool | int):
            return repr(obj)
        if isinstance(obj, str):
            return repr(str(obj))
        if isinstance(obj, Enum):
            return repr(obj.value)
        if obj is self.rules:
            return "R"
        found = self.memo.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        text = self._compound(obj)
        if isinstance(obj, tuple) or _frozen(type(obj)):
            self.memo[id(obj)] = (obj, text)
        return text

    def _compound(self, obj: object) -> str:
        if isinstance(obj, tuple | list):
            return "(" + ",".join(map(self, obj)) + ")"
        if isinstance(obj, frozenset | set):
            return "{" + ",".join(sorted(map(self, obj))) + "}"
        if isinstance(obj, Mapping):
            return "{" + ",".join(f"{self(k)}:{self(obj[k])}" for k in sorted(obj, key=str)) + "}"
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            cls = type(obj)
            fields = ",".join(f"{n}={self(getattr(obj, n))}" for n in _field_names(cls))
            return f"{cls.__name__}({fields})"
        raise TypeError(f"no canonical form for {type(obj).__name__}")


def policy(moves: list[Move], rng: random.Random, pass_rate: float) -> Move:
    """A seeded choice: in an auction a pass with probability `pass_rate`, else any legal move."""
    passes = [mv for mv in moves if mv.kind == "pass"]
    if passes and len(passes) < len(moves) and rng.random() < pass_rate:
        return passes[0]
    return moves[rng.randrange(len(moves))]


def hands(
    variant: Variant[Any], players: int, options: Mapping[str, OptionValue], count: int
) -> Iterator[Callable[[list[str]], None]]:
    """`count` seeded hands, each a function writing its canonical trace into a list."""
    rules = variant.make_rules(players, options)
    seed = config_name(variant.id, players, options)
    rng = random.Random(seed)
    tried: dict[str, Move] = {}  # every move seen so far, offered where it is not legal

    def one(out: list[str]) -> None:
        canon = Canon(rules)
        deck = variant.deck(rules)
        order = list(deck.cards)
        rng.shuffle(order)
        dealer = rng.randrange(players)
        match = MatchState.start(players, 2, dealer, rules)
        state: HandState = variant.deal(rules, order, dealer)
        pass_rate = rng.choice((0.3, 0.6, 0.9))
        out.append(canon(state))
        while not state.finished:
            legal = variant.legal_moves(state)
            out.append("L" + " ".join(mv.id for mv in legal))
            for mv in legal:
                tried.setdefault(mv.id, mv)
            move = policy(legal, rng, pass_rate)
            out.append("M" + move.id + "|" + variant.label(state, move))
            ids = {mv.id for mv in legal}
            others = [mv for key, mv in tried.items() if key not in ids]
            if others:
                wrong = others[rng.randrange(len(others))]
                try:
                    variant.apply(state, wrong)
                    out.append("!accepted " + wrong.id)
                except IllegalMove as exc:
                    out.append("X" + str(exc.reason) + "|" + exc.message)
                except EngineBug as exc:
                    out.append("B" + str(exc))
            turn = state.turn
            state = variant.apply(state, move)
            out.append(canon(state))
            out.append(canon(variant.view(state, None)))
            if turn is not None:
                out.append(canon(variant.view(state, turn)))
        result = variant.result(state)
        out.append(canon(result))
        assert result is not None
        settled = variant.close(variant.settle(match, result))
        out.append(canon(settled))

    for _ in range(count):
        yield one


def digest(variant_id: str, players: int, options: Mapping[str, OptionValue], count: int) -> str:
    variant = find_variant(variant_id)
    sha = hashlib.sha256()
    for hand in hands(variant, players, options, count):
        out: list[str] = []
        hand(out)
        sha.update("".join(out).encode())
        sha.update(b"\n")
    return sha.hexdigest()


def load() -> dict[str, str]:
    """The golden digests by configuration name."""
    found: dict[str, str] = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            value, name = line.split(" ", 1)
            found[name] = value
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the golden file")
    args = parser.parse_args()
    lines = ["# sha256 config: tests/variants/hand_digest.py, HANDS seeded hands each"]
    for variant_id, players, options in CONFIGS:
        value = digest(variant_id, players, options, HANDS)
        lines.append(f"{value} {config_name(variant_id, players, options)}")
        print(lines[-1])
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
