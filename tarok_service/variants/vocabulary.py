"""Every id a UI shows, per rule set: the vocabularies a frontend switches on and translates.

Pure data and pure functions, no language: the server renders an id (and its parameters) in
the viewer's language. `vocabulary(variant)` lists a rule set's ids by kind, from the table in
the rule set's own `vocabulary.py`; `line_key` reads a
score line's stable id and parameters off the line's item.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..engine import kontra as k
from ..engine import moves as m
from ..engine.variant import Variant
from .vocabulary_kinds import BONUS as BONUS
from .vocabulary_kinds import CARD as CARD
from .vocabulary_kinds import CHOICE as CHOICE
from .vocabulary_kinds import COMBINATION as COMBINATION
from .vocabulary_kinds import CONTRACT as CONTRACT
from .vocabulary_kinds import DECLARATION as DECLARATION
from .vocabulary_kinds import EXTRA_BONUS, EXTRA_LINE
from .vocabulary_kinds import FACT as FACT
from .vocabulary_kinds import GROUP as GROUP
from .vocabulary_kinds import KONTRA as KONTRA
from .vocabulary_kinds import LINE as LINE
from .vocabulary_kinds import MOVE as MOVE
from .vocabulary_kinds import PARAM as PARAM
from .vocabulary_kinds import PHASE as PHASE
from .vocabulary_kinds import REASON as REASON
from .vocabulary_kinds import SETTLEMENT as SETTLEMENT
from .vocabulary_kinds import WORD as WORD
from .zwanzigerrufen import data as zd

# The suffix of a bonus id announced against the playing side (Zwanzigerrufen's kontra items):
# a UI renders `<bonus>_against` as "against <bonus>".
AGAINST = zd.AGAINST

Vocab = dict[str, tuple[str, ...]]

# How a score line was reached, as its item states it (the order parameters are shown in).
PARAMS = ("silent", "announced", "won", "lost", "made", "opponents", "captured", "declared")
REASONS = tuple(sorted(reason.value for reason in m.Reason))


def ident(text: str) -> str:
    """An id from a word or phrase: "last trick" -> "last_trick", "declarer's hand" ->
    "declarers_hand"."""
    out: list[str] = []
    for ch in text.lower().replace("'", ""):
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "_":
            out.append("_")
    return "".join(out).strip("_")


@cache
def vocabulary(variant: Variant[Any]) -> Vocab:
    """Every id of `variant`'s vocabularies, by kind, in a stable order: its table
    (`Variant.vocabulary_table`, in the rule set's own `vocabulary.py`) with the contracts and
    bonuses of every player count; KeyError for a rule set without a table."""
    table = variant.vocabulary_table
    if not table:
        raise KeyError(f"{variant.id}: no vocabulary table")
    contracts: list[str] = []
    bonuses: list[str] = []
    for players in variant.player_counts:
        contracts += [c.id for c in variant.contracts(players) if c.id not in contracts]
        bonuses += [b.id for b in variant.bonuses(players) if b.id not in bonuses]
    contracts += [c for c in table[CONTRACT] if c not in contracts]
    extra_bonuses = [x for x in table.get(EXTRA_BONUS, ()) if x not in bonuses]
    lines = (*contracts, *bonuses, *(ident(x) for x in table[LINE]), *table.get(EXTRA_LINE, ()))
    out: Vocab = {
        PHASE: table[PHASE],
        MOVE: table[MOVE],
        FACT: table[FACT],
        CONTRACT: tuple(contracts),
        BONUS: tuple(bonuses + extra_bonuses),
        KONTRA: table[KONTRA],
        GROUP: tuple(ident(g) for g in table[GROUP]),
        LINE: tuple(dict.fromkeys(lines)),
        PARAM: PARAMS,
        REASON: REASONS,
        WORD: table[WORD],
        SETTLEMENT: table[SETTLEMENT],
    }
    for kind in (DECLARATION, CHOICE, COMBINATION):
        if kind in table:
            out[kind] = table[kind]
    return out


_DECLARED = "declared by seat "


def line_key(item: str) -> tuple[str, dict[str, str]]:
    """A score line's stable id and parameters, read off its item.

    "pagat ultimo (silent)" -> ("pagat_ultimo", {"mode": "silent"}); "opponents' trula
    (announced)" -> ("trula", {"mode": "announced", "team": "opponents"}); "valat against
    (announced, lost, kontra)" -> ("valat", {"team": "opponents", "mode": "announced",
    "outcome": "lost", "kontra": "kontra", "multiplier": "2"}); "captured: kings x3" ->
    ("combination", {"combination": "kings", "count": "3", "source": "captured"}).
    """
    params: dict[str, str] = {}
    source, sep, rest = item.partition(": ")
    if sep:
        seat = source.removeprefix(_DECLARED)
        if source.startswith(_DECLARED) and seat.isdigit():
            params.update(source="declared", seat=seat)
        else:
            params["source"] = ident(source)
        combo, x, count = rest.rpartition(" x")
        if x and combo.isalpha() and count.isdigit():
            params.update(combination=combo, count=count)
            return "combination", params
        return ident(rest), params
    name, how = item, ""
    if item.endswith(")") and " (" in item:
        name, how = item[:-1].rsplit(" (", 1)
    if name.startswith("opponents' ") and name != "opponents' total":
        params["team"] = "opponents"
        name = name.removeprefix("opponents' ")
    if name.endswith(" against"):
        params["team"] = "opponents"
        name = name.removesuffix(" against")
    for word in how.split(","):
        _how(word.strip(), params)
    return ident(name), params


def _how(word: str, params: dict[str, str]) -> None:
    if word in ("silent", "announced"):
        params["mode"] = word
    elif word in ("won", "lost", "made"):
        params["outcome"] = word
    elif word in zd.KONTRA_NAMES[1:]:
        params["kontra"] = word
        params["multiplier"] = str(k.multiplier(zd.KONTRA_NAMES.index(word)))
