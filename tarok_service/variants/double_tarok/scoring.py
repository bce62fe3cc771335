"""Scoring the bonus groups of double tarok.

Each side is scored on its own in every group (two packs let both sides make, say, a trula):
- a side that announced scores its highest announced item (a teammate's lower one is dropped):
  made -> +announced; made only as a higher item of the group -> that item silent (the
  original rules' "announced trula, made colour trula" rule; option `announced_made_higher`);
  else -announced;
- a side that announced nothing scores its highest silent event of the group at half value
  (ultimos also fail silently: a pagat or called king in the last trick that loses it).
Values are from the declarer side's point of view (the opponents' items count negative).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from ...engine import kontra as k
from ...engine.cards import Card
from ...engine.outcome import ScoreLine
from ..slovenian.state import SlovenianState, is_pagat, is_suit_king, is_trula
from . import data as dd

if TYPE_CHECKING:
    from ..slovenian.rules import SlovenianFamily

Event = tuple[str, bool]  # (item, made)
Values = Mapping[str, tuple[str, int, int]]


def bonuses(variant: SlovenianFamily, s: SlovenianState) -> list[ScoreLine]:
    """The bonus lines of a normal contract, every group for both sides."""
    values = variant.bonus_table(s.rules)
    deck = variant.deck(s.rules).cards
    lines: list[ScoreLine] = []
    for group in variant.bonus_groups(s):
        if group[0] == dd.VALAT_BONUS:  # scored with the game
            continue
        for declarers in (True, False):
            event = side_event(s, group, declarers, deck)
            lines += _group_lines(s, group, declarers, event, values)
    return lines


def side_cards(s: SlovenianState, declarers: bool) -> set[Card]:
    """The cards a side won (tricks, discards, talon gains); the talon rest is the opponents'."""
    team = set(s.team())
    cards = {c for seat, pile in enumerate(s.piles) if (seat in team) == declarers for c in pile}
    if not declarers:
        cards.update(s.talon)
    return cards


def collected(cards: Collection[Card], full: list[Card], kind: Callable[[Card], object]) -> int:
    """How much of `full` (both packs' copies) is in `cards`: 2 all of it, 1 all of one pack,
    0 one of each kind (suit or rank) in any pack, -1 less."""
    have = [c for c in full if c in cards]
    if len(have) == len(full):
        return 2
    packs = {c.pack for c in full}
    if any(all(c in cards for c in full if c.pack == p) for p in packs):
        return 1
    return 0 if {kind(c) for c in have} == {kind(c) for c in full} else -1


def side_event(
    s: SlovenianState, group: tuple[str, ...], declarers: bool, deck: tuple[Card, ...]
) -> Event | None:
    """The highest thing that happened to a side in a group, made or failed, or None."""
    if group[0] in (dd.KINGS, dd.TRULA):
        full = [c for c in deck if (is_suit_king if group[0] == dd.KINGS else is_trula)(c)]
        kind: Callable[[Card], object] = (
            (lambda c: c.suit) if group[0] == dd.KINGS else (lambda c: c.rank)
        )
        level = collected(side_cards(s, declarers), full, kind)
        return (group[level], True) if level >= 0 else None
    if not s.tricks:
        return None
    last = s.tricks[-1]
    win_card = dict(last.plays)[last.winner]
    team = set(s.team())
    if group[0] == dd.PAGAT_ULTIMO:
        mine = [c for seat, c in last.plays if is_pagat(c) and (seat in team) == declarers]
        made = win_card in mine
    else:  # king ultimo: the called kings belong to the declarer side
        mine = [c for c in last.cards if c in s.called] if declarers else []
        made = last.winner in team
    if not mine:
        return None
    if not made and group[0] == dd.PAGAT_ULTIMO and s.rules.opt("double_pagat_failure") == "single":
        return group[0], made
    return group[min(len(mine), len(group)) - 1], made


def _name(item: str, values: Values, declarers: bool, how: str) -> str:
    owner = "" if declarers else "opponents' "
    return f"{owner}{values[item][0].lower()} ({how})"


def _group_lines(
    s: SlovenianState, group: tuple[str, ...], declarers: bool, event: Event | None, values: Values
) -> list[ScoreLine]:
    """One side's line in one group, if any."""
    team = set(s.team())
    sign = 1 if declarers else -1
    said = [item for item, seat in s.announced if item in group and (seat in team) == declarers]
    if said:
        return [_announced(s, max(said, key=group.index), group, declarers, event, values)]
    others = any(item in group for item, _ in s.announced)
    if event is None or (others and not s.rules.flag("silent_beside_announcement")):
        return []
    item, made = event
    points = sign * (1 if made else -1) * values[item][1]
    return [ScoreLine(_name(item, values, declarers, "silent"), points)]


def _announced(
    s: SlovenianState,
    top: str,
    group: tuple[str, ...],
    declarers: bool,
    event: Event | None,
    values: Values,
) -> ScoreLine:
    """A side's announced item: made, made only as a higher item, or failed."""
    sign = 1 if declarers else -1
    value = values[top][2] * k.multiplier(s.level(top))
    reached = event[0] if event is not None and event[1] else None
    name = _name(top, values, declarers, "announced")
    if reached is not None and group.index(reached) > group.index(top):
        if s.rules.opt("announced_made_higher") == "silent_higher":
            return ScoreLine(_name(reached, values, declarers, "silent"), sign * values[reached][1])
        return ScoreLine(name, sign * value)
    return ScoreLine(name, sign * value if reached == top else -sign * value)
