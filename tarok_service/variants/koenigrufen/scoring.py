"""Scoring one Königrufen hand: zero-sum, in points per player.

Card points are counted exactly in thirds (each card is worth its value less two thirds, 210
thirds in the pack); the declarer side wins a positive game with 107 thirds (35 points and 2
Blatt). A hand is a list of items - the game or the valat, then each premium - each with a
value per player, a winning side and a kontra level. 2 v 2 each winner gets +v and each
loser -v; 1 v 3 the declarer gets +-3v and each opponent -+v.

`settle_items` gives both numbers the tournament rules know: the score (kontra ignored) and
the money (each item x 2^kontra level); option `kontra_in_score` makes the score the money.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import kontra as k
from ...engine.cards import Card
from ...engine.outcome import HandResult, ScoreLine
from ..slovenian.data import Contract
from ..slovenian.state import SlovenianState, is_suit_king, is_trula
from . import data as d

if TYPE_CHECKING:
    from .rules import Koenigrufen


@dataclass(frozen=True)
class Item:
    """One scored item: its line label, its value per player signed for the declarer side
    (+: the declarer side wins it), and its kontra level."""

    label: str
    value: int
    level: int = 0


def thirds(cards: Iterable[Card], points: Mapping[Card, int]) -> int:
    """Card points in thirds: each card its value less two thirds."""
    return sum(3 * points[c] - 2 for c in cards)


def total_thirds(variant: Koenigrufen, s: SlovenianState) -> int:
    """Every card of the hand counted (210 when nothing is lost)."""
    points = variant.deck(s.rules).points
    cards = [c for pile in s.piles for c in pile] + [*s.talon] + [c for h in s.hands for c in h]
    return thirds(cards, points)


def score(variant: Koenigrufen, s: SlovenianState) -> HandResult:
    """The scored result of a finished hand."""
    c = variant.contract_table[s.contract]
    if c.id == d.TRISCHAKEN:
        return trischaken(variant, s)
    team = s.team()
    team_cards, opp_cards = side_cards(variant, s, c)
    points = variant.deck(s.rules).points
    sides = (thirds(team_cards, points), thirds(opp_cards, points))
    if conceded(s, c):
        items = conceded_items(s, c)
    elif c.negative:
        items = negative_items(s, c)
    else:
        items = positive_items(s, c, team_cards, opp_cards, sides[0])
    if void_kontras(s, c):
        items = [Item(i.label, i.value) for i in items]
    counted = s.rules.flag("kontra_in_score")
    scores, money = settle_items(items, team, s.players)
    lines = tuple(_lines(items, team, s.players, counted))
    return HandResult(
        contract=c.id,
        declarer=s.declarer,
        team=team,
        won=items[0].value > 0,  # the game, or the valat that replaces it
        scores=money if counted else scores,
        penalties=(0,) * s.players,
        side_points=(sides[0] // 3, sides[1] // 3),
        lines=lines,
    )


def void_kontras(s: SlovenianState, c: Contract) -> bool:
    """A Solorufer whose called king lay in the talon: every kontra is void."""
    return c.id == d.SOLORUFER and bool(s.talon_kings)


def side_cards(
    variant: Koenigrufen, s: SlovenianState, c: Contract
) -> tuple[list[Card], list[Card]]:
    """The cards each side counts: its tricks (the declarer's discards among them); the
    talon left lying goes to the opponents, but in a Solorufer with the called king in the
    talon the half holding the king goes to the declarer. Cards not played (an early end)
    count for the opponents."""
    team = s.team()
    team_cards = [card for seat in team for card in s.piles[seat]]
    opp_cards = [card for seat in range(s.players) if seat not in team for card in s.piles[seat]]
    talon = [*s.talon]
    if void_kontras(s, c):
        half = next(h for h in (talon[:3], talon[3:]) if any(x in h for x in s.talon_kings))
        team_cards += half
        talon = [x for x in talon if x not in half]
    opp_cards += talon + [card for h in s.hands for card in h]
    return team_cards, opp_cards


def _side(s: SlovenianState, seat: int | None) -> int:
    """+1 for a seat of the declarer side, -1 for an opponent, 0 for nobody."""
    if seat is None:
        return 0
    return 1 if seat in s.team() else -1


def _holder(cards: Iterable[Card], team_cards: list[Card], opp_cards_of: list[Card]) -> int:
    wanted = [*cards]
    if all(c in team_cards for c in wanted):
        return 1
    if all(c in opp_cards_of for c in wanted):
        return -1
    return 0


def _bird(s: SlovenianState, item: str) -> tuple[int, bool]:
    """The side that played a bird in its trick (0: it was not there) and whether it won."""
    rank_card, due = d.BIRD_CARDS[item], d.BIRDS[item][1]
    if len(s.tricks) < due:
        return 0, False
    trick = s.tricks[due - 1]
    seat = next((p for p, card in trick.plays if card == rank_card), None)
    return _side(s, seat), seat is not None and trick.winner == seat


def _king_ultimo(s: SlovenianState) -> tuple[int, bool]:
    """The declarer side if the called king was played in the last trick, and whether that
    side won the trick."""
    if not s.called or len(s.tricks) < 12:
        return 0, False
    trick = s.tricks[11]
    if not any(card == s.called[0] for _, card in trick.plays):
        return 0, False
    return 1, _side(s, trick.winner) == 1


def achieved(
    s: SlovenianState, item: str, team_cards: list[Card], opp_cards: list[Card]
) -> tuple[int, bool]:
    """For a premium: the side it concerns (0: nobody) and whether that side made it."""
    if item == d.TRULL:
        trull = [c for c in team_cards + opp_cards if is_trula(c)]
        side = _holder(trull, team_cards, opp_cards)
        return side, side != 0
    if item == d.KINGS:
        kings = [c for c in team_cards + opp_cards if is_suit_king(c)]
        side = _holder(kings, team_cards, opp_cards)
        return side, side != 0
    if item == d.KING_ULTIMO:
        return _king_ultimo(s)
    return _bird(s, item)


def _label(item: str, how: str, level: int) -> str:
    return f"{item} ({how}, {k.name(level)})" if level else f"{item} ({how})"


def valat_items(s: SlovenianState, c: Contract) -> list[Item]:
    """The valat (announced, or silent: one side took every trick), which replaces the game;
    its value is the game's times 8 (announced) or 4 (silent), a lost Sechserdreier's game
    value being 8."""
    winners = {_side(s, tr.winner) for tr in s.tricks}
    valat = winners.pop() if len(winners) == 1 and len(s.tricks) == 12 else 0
    announcer = s.announcer(d.VALAT)
    side = _side(s, announcer) if announcer is not None else valat
    if side == 0:
        return []
    base = d.SECHSERDREIER_LOST if c.id == d.SECHSERDREIER and side < 0 else c.value
    if announcer is not None:
        made = valat == side
        how = "announced, made" if made else "announced, lost"
        level = s.level(d.VALAT)
        value = base * d.BONUS_VALUES[d.VALAT][2]
        return [Item(_label(d.VALAT, how, level), side * value if made else -side * value, level)]
    level = s.level(d.GAME)
    return [Item(_label(d.VALAT, "silent", level), side * base * d.BONUS_VALUES[d.VALAT][1], level)]


def positive_items(
    s: SlovenianState,
    c: Contract,
    team_cards: list[Card],
    opp_cards: list[Card],
    team_thirds: int,
) -> list[Item]:
    """The game (or the valat) and the premiums of a positive game."""
    items = valat_items(s, c)
    valat = bool(items)
    if not valat:
        won = team_thirds >= d.WIN_THIRDS
        value = c.value if won or c.id != d.SECHSERDREIER else d.SECHSERDREIER_LOST
        items.append(_game(s, won, value))
    double = 2 if c.id in d.SOLO_GAMES else 1
    for item in d.BONUS_VALUES:
        if item == d.VALAT or not _open_item(s, c, item):
            continue
        _, silent, announced = d.BONUS_VALUES[item]
        side, made = achieved(s, item, team_cards, opp_cards)
        announcer = s.announcer(item)
        name = _item_name(item, side if announcer is None else _side(s, announcer))
        if announcer is not None:
            own = _side(s, announcer)
            ok = made and side == own
            level = s.level(item)
            how = "announced, made" if ok else "announced, lost"
            value = announced * double
            items.append(Item(_label(name, how, level), own * value if ok else -own * value, level))
        elif valat or side == 0:
            continue
        elif made:
            items.append(Item(_label(name, "silent", 0), side * silent * double))
        elif s.rules.flag("silent_failure_counts"):
            items.append(Item(_label(name, "silent, lost", 0), -side * silent * double))
    return items


def _item_name(item: str, side: int) -> str:
    return f"opponents' {item}" if side < 0 else item


def _open_item(s: SlovenianState, c: Contract, item: str) -> bool:
    """Whether a premium is scored in this contract: colour games only the kings, king ultimo
    only after a call."""
    if c.id in d.COLOUR_GAMES:
        return item == d.KINGS
    return item != d.KING_ULTIMO or bool(s.called)


def conceded(s: SlovenianState, c: Contract) -> bool:
    """A Rufer or Besserrufer that ended before a card was played: conceded."""
    return c.id in d.CONCEDABLE and not s.tricks and any(s.hands)


def conceded_items(s: SlovenianState, c: Contract) -> list[Item]:
    """A conceded game is lost 1 against 3, without kontra: the game, and in a Besserrufer
    the announced value of the bird it was bid on (the lowest bird the declarer holds)."""
    assert s.declarer is not None
    items = [Item(_label(d.GAME, "lost", 0), -c.value)]
    if c.id == d.BESSERRUFER:
        hand = s.hands[s.declarer]
        bird = next((b for b, card in d.BIRD_CARDS.items() if card in hand), None)
        if bird is not None:
            value = d.BONUS_VALUES[bird][2]
            items.append(Item(_label(bird, "announced, lost", 0), -value))
    return items


def negative_items(s: SlovenianState, c: Contract) -> list[Item]:
    """Piccolo, Zwiccolo, Bettel: won when the declarer took exactly his tricks."""
    assert s.declarer is not None
    won = s.tricks_won()[s.declarer] == d.TARGET_TRICKS[c.id]
    return [_game(s, won, c.value)]


def _game(s: SlovenianState, won: bool, value: int) -> Item:
    level = s.level(d.GAME)
    return Item(_label(d.GAME, "won" if won else "lost", level), value if won else -value, level)


def settle_items(
    items: Iterable[Item], team: tuple[int, ...], players: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(scores with kontra ignored, scores with every item x 2^level) per seat."""
    plain, money = [0] * players, [0] * players
    for item in items:
        for seat, share in _shares(item.value, team, players):
            plain[seat] += share
            money[seat] += share * k.multiplier(item.level)
    return tuple(plain), tuple(money)


def _shares(value: int, team: tuple[int, ...], players: int) -> list[tuple[int, int]]:
    opponents = [seat for seat in range(players) if seat not in team]
    per_team_seat = value * len(opponents) // len(team)
    return [(seat, per_team_seat) for seat in team] + [(seat, -value) for seat in opponents]


def _lines(
    items: list[Item], team: tuple[int, ...], players: int, counted: bool
) -> list[ScoreLine]:
    opponents = tuple(seat for seat in range(players) if seat not in team)
    out = []
    for item in items:
        value = item.value * (k.multiplier(item.level) if counted else 1)
        label = (
            item.label
            if counted or not item.level
            else item.label.replace(f", {k.name(item.level)})", ")")
        )
        out.append(ScoreLine(label, value * len(opponents) // len(team), team))
        out.append(ScoreLine(label, -value, opponents))
    return out


# --- Trischaken ---------------------------------------------------------------------------


def trischaken_thirds(variant: Koenigrufen, s: SlovenianState) -> tuple[int, ...]:
    """Each player's thirds; the talon left lying goes to the winner of the last trick."""
    points = variant.deck(s.rules).points
    own = [thirds(pile, points) for pile in s.piles]
    if s.tricks:
        own[s.tricks[-1].winner] += thirds(s.talon, points)
    return tuple(own)


def trischaken_scores(
    own: tuple[int, ...], tricks: tuple[int, ...], forehand: int, jungfrauen_full: bool
) -> tuple[int, ...]:
    """Who pays whom in Trischaken: the players with the most points lose (forehand, when among
    them, pays alone and double; a loser with 35 2/3 or more pays double again); a player
    without a trick (a Jungfrau) takes what the others would have got."""
    n = len(own)
    top = max(own)
    losers = [seat for seat in range(n) if own[seat] == top]
    scores = [0] * n
    if forehand in losers or len(losers) == 1:
        payer = forehand if forehand in losers else losers[0]
        base = 2 if payer == forehand else 1
        if top >= d.BUERGERMEISTER_THIRDS:
            base *= 2
        others = [seat for seat in range(n) if seat != payer]
        _pay(scores, [payer], others, base, tricks, jungfrauen_full)
        return tuple(scores)
    if len(losers) == 2:
        others = [seat for seat in range(n) if seat not in losers]
        _pay(scores, losers, others, 2, tricks, jungfrauen_full, each=2)
        return tuple(scores)
    winner = next(seat for seat in range(n) if seat not in losers)
    for seat in losers:
        scores[seat] -= 1
        scores[winner] += 1
    return tuple(scores)


def _pay(
    scores: list[int],
    payers: list[int],
    others: list[int],
    base: int,
    tricks: tuple[int, ...],
    jungfrauen_full: bool,
    each: int | None = None,
) -> None:
    """The payers pay `base` to each of the others (each payer `each` in all, when given), or
    the whole sum to the Jungfrauen among the others."""
    total = base * len(others) if each is None else each * len(payers)
    virgins = [seat for seat in others if tricks[seat] == 0]
    if virgins and (len(virgins) < len(others) or jungfrauen_full):
        share = total if jungfrauen_full else -(-total // len(virgins))
        gets = {seat: share for seat in virgins}
    else:
        gets = {seat: total // len(others) for seat in others}
    paid = sum(gets.values())
    for seat, amount in gets.items():
        scores[seat] += amount
    for seat in payers:
        scores[seat] -= paid // len(payers)


def trischaken(variant: Koenigrufen, s: SlovenianState) -> HandResult:
    own = trischaken_thirds(variant, s)
    scores = trischaken_scores(own, s.tricks_won(), s.forehand, s.rules.flag("jungfrauen_full"))
    lines = tuple(ScoreLine(d.TRISCHAKEN, v, (seat,)) for seat, v in enumerate(scores))
    zeros = (0,) * s.players
    points = tuple(x // 3 for x in own)
    return HandResult(d.TRISCHAKEN, None, (), None, scores, zeros, points, lines)
