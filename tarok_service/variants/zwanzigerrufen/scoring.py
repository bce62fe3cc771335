"""Scoring one Zwanzigerrufen hand in units of the game value.

`outcome(state)` reduces a finished hand to the facts that score; `units(outcome)` turns them
into items signed for the playing side, each doubled by its own kontra level; `lines` pays
them 2 v 2 (each player +-V) or 1 v 3 (soloist +-3V, each opponent -+V), so scores sum to 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...engine import kontra as k
from ...engine.cards import KING, PAGAT, TAROK, Card, Deck
from ...engine.counting import plain
from ...engine.options import Rules
from ...engine.outcome import HandResult, ScoreLine
from . import data as d
from .state import ZwanzigerState

Unit = tuple[str, int]  # (item label, units signed for the playing side)


@dataclass(frozen=True)
class Outcome:
    """What a finished hand achieved; signs are +1 for the playing side, -1 for the opponents.

    `pagat` is the sign of the side that played the pagat in the last trick (0: not there);
    `pagat_won` whether it won that trick. `trull`, `king_trull` name the side holding (or
    winning) the honours; `mondfang` the side whose mond the skis caught."""

    game: str
    points: int
    valat: int = 0
    pagat: int = 0
    pagat_won: bool = False
    trull: int = 0
    king_trull: int = 0
    mondfang: int = 0
    announced: frozenset[str] = frozenset()
    levels: Mapping[str, int] = field(default_factory=dict)


def _mult(o: Outcome, item: str) -> int:
    return k.multiplier(o.levels.get(item, 0))


def _label(item: str, how: str, level: int) -> str:
    name = item.replace("_", " ")
    return f"{name} ({how}, {d.KONTRA_NAMES[level]})" if level else f"{name} ({how})"


def units(o: Outcome, rules: Rules) -> list[Unit]:
    """The scored items of a hand; a valat (silent or announced) is scored alone."""
    valat = _valat(o, rules)
    if valat:
        return valat
    lines = [_game(o), *_absolut(o)]
    if d.VALUES[o.game].pagat != (0, 0):
        lines += _pagat(o)
    lines += [(label, sign * value) for label, sign, value in _bonuses(o) if sign and value]
    return lines


def _game(o: Outcome) -> Unit:
    """The game: won with 45 card points or more (kontra or not), else lost."""
    won = o.points >= d.WIN
    label = _label(d.GAME, "won" if won else "lost", o.levels.get(d.GAME, 0))
    value = d.VALUES[o.game].game * _mult(o, d.GAME)
    return label, value if won else -value


def _announced_side(o: Outcome, addition: str) -> int:
    """+1 / -1 for the side that announced this addition, 0 if neither did."""
    if addition in o.announced:
        return 1
    return -1 if addition + d.AGAINST in o.announced else 0


def _announced_item(o: Outcome, addition: str, side: int, made: bool) -> Unit:
    item = d.item_id(addition, side > 0)
    value = d.VALUES[o.game].addition(addition)[1] * _mult(o, item)
    how = "announced, made" if made else "announced, lost"
    return _label(item, how, o.levels.get(item, 0)), side * (value if made else -value)


def _valat(o: Outcome, rules: Rules) -> list[Unit]:
    side = _announced_side(o, d.VALAT)
    if side:
        return [_announced_item(o, d.VALAT, side, o.valat == side)]
    if not o.valat:
        return []
    value = d.VALUES[o.game].valat[0]
    if rules.flag("silent_valat_game_kontra"):
        value *= _mult(o, d.GAME)
    return [("valat (silent)", o.valat * value)]


def _absolut(o: Outcome) -> list[Unit]:
    """Absolut per side: announced (made or lost) or silent (56 without announcing)."""
    silent = d.VALUES[o.game].absolut[0]
    lines: list[Unit] = []
    for side, pts in ((1, o.points), (-1, d.TOTAL_POINTS - o.points)):
        made = pts >= d.ABSOLUT_POINTS
        if d.item_id(d.ABSOLUT, side > 0) in o.announced:
            lines.append(_announced_item(o, d.ABSOLUT, side, made))
        elif made:
            lines.append((_label(d.item_id(d.ABSOLUT, side > 0), "silent", 0), side * silent))
    return lines


def _pagat(o: Outcome) -> list[Unit]:
    """Pagat in the last trick: announced (made only if it wins), else silent won or lost."""
    side = _announced_side(o, d.PAGAT_ITEM)
    if side:
        return [_announced_item(o, d.PAGAT_ITEM, side, o.pagat == side and o.pagat_won)]
    if not o.pagat:
        return []
    silent = d.VALUES[o.game].pagat[0]
    how = "silent, won" if o.pagat_won else "silent, lost"
    item = d.item_id(d.PAGAT_ITEM, o.pagat > 0)
    return [(_label(item, how, 0), o.pagat * (silent if o.pagat_won else -silent))]


def _bonuses(o: Outcome) -> list[tuple[str, int, int]]:
    """The bonuses nobody announces: (label, side sign, value)."""
    v = d.VALUES[o.game]
    return [
        ("trull", o.trull, v.trull),
        ("king trull", o.king_trull, v.king_trull),
        ("mondfang", -o.mondfang, v.mondfang),
    ]


def lines(o: Outcome, team: tuple[int, ...], players: int, rules: Rules) -> list[ScoreLine]:
    """Score lines with explicit seats: 2 v 2 +-V each; solo +-3V against -+V each."""
    opponents = tuple(s for s in range(players) if s not in team)
    out: list[ScoreLine] = []
    for label, value in units(o, rules):
        out.append(ScoreLine(label, value * len(opponents) // len(team), team))
        out.append(ScoreLine(label, -value, opponents))
    return out


def _side(s: ZwanzigerState, seat: int | None) -> int:
    if seat is None:
        return 0
    return 1 if s.playing_side(seat) else -1


def _holder(s: ZwanzigerState, cards: tuple[Card, ...], source: str) -> int:
    """Side of the seat holding every one of `cards` in the dealt hand (`source` "hand") or of
    the side that won them all in tricks (`source` "tricks"); 0 when none."""
    if source == "hand":
        seat = next((i for i, h in enumerate(s.dealt) if all(c in h for c in cards)), None)
        return _side(s, seat)
    sides = {_side(s, i) for i, pile in enumerate(s.piles) for c in cards if c in pile}
    return sides.pop() if len(sides) == 1 else 0


def _pagat_last_trick(s: ZwanzigerState) -> tuple[int, bool]:
    last = s.tricks[-1]
    pagat = Card(TAROK, PAGAT)
    seat = next((p for p, c in last.plays if c == pagat), None)
    return _side(s, seat), seat is not None and seat == last.winner


def outcome(s: ZwanzigerState, deck: Deck) -> Outcome:
    """The scoring facts of a finished hand."""
    team = s.team()
    points = plain((c for seat in team for c in s.piles[seat]), deck.points)
    winners = {tr.winner in team for tr in s.tricks}
    valat = 0 if len(winners) != 1 else (1 if winners.pop() else -1)
    kings = tuple(c for c in deck.cards if c.rank == KING and not c.is_tarok)
    source = str(s.rules.opt("call_honours_from")) if s.game == d.CALL else "hand"
    pagat, pagat_won = _pagat_last_trick(s)
    return Outcome(
        game=s.game,
        points=points,
        valat=valat,
        pagat=pagat,
        pagat_won=pagat_won,
        trull=_holder(s, d.TRULL_CARDS, source),
        king_trull=_holder(s, kings, source),
        mondfang=_side(s, s.mond_caught),
        announced=frozenset(item for item, _ in s.announced),
        levels=dict(s.levels),
    )


def score(s: ZwanzigerState, deck: Deck) -> HandResult:
    """The scored result of a finished hand."""
    o = outcome(s, deck)
    team = s.team()
    result_lines = lines(o, team, s.players, s.rules)
    scores = tuple(
        sum(line.points for line in result_lines if seat in line.seats) for seat in range(s.players)
    )
    net = sum(value for _, value in units(o, s.rules))
    valat = o.valat != 0 or _announced_side(o, d.VALAT) != 0
    won = net > 0 if valat else o.points >= d.WIN
    return HandResult(
        contract=s.game,
        declarer=s.declarer,
        team=team,
        won=won,
        scores=scores,
        penalties=(0,) * s.players,
        side_points=(o.points, d.TOTAL_POINTS - o.points),
        lines=tuple(result_lines),
    )
