"""Scoring one Slovenian hand; match effects live elsewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import kontra as k
from ...engine.cards import KING, MOND, PAGAT, SKIS, TAROK, Card
from ...engine.counting import in_threes, round5
from ...engine.outcome import HandResult, ScoreLine
from . import data as d

if TYPE_CHECKING:
    from .rules import SlovenianFamily as Slovenian
    from .state import SlovenianState


def score(variant: Slovenian, s: SlovenianState) -> HandResult:
    """The scored result of a finished hand."""
    c = variant.contract_table[s.contract]
    if c.id == "klop":
        return _klop(variant, s)
    team = s.team()
    team_cards = [card for seat in team for card in s.piles[seat]]
    opp_cards = [card for seat in range(s.players) if seat not in team for card in s.piles[seat]]
    opp_cards += [*s.talon] + [card for h in s.hands for card in h]  # early end: unplayed
    points = variant.deck(s.rules).points
    sides = (in_threes(team_cards, points), in_threes(opp_cards, points))
    if c.fixed:
        total, won, lines = _fixed(variant, s, sides[0])
    else:
        total, won, lines = _normal(variant, s, sides[0])
    scores = tuple(total if seat in team else 0 for seat in range(s.players))
    valat_said = s.announcer(d.VALAT_BONUS) is not None
    silent_valat = any(line.item == "valat (silent)" for line in lines)
    radelci = (
        s.contract in variant.radelc_contracts
        or valat_said
        or (silent_valat and s.rules.flag("radelc_silent_valat"))
    )
    return HandResult(
        contract=c.id,
        declarer=s.declarer,
        team=team,
        won=won,
        scores=scores,
        penalties=_mondfang(variant, s, lines),
        side_points=sides,
        lines=tuple(lines),
        radelci=radelci,
    )


def _klop(variant: Slovenian, s: SlovenianState) -> HandResult:
    points = variant.deck(s.rules).points
    own = tuple(in_threes(pile, points) for pile in s.piles)
    taken = s.tricks_won()
    empty = [seat for seat in range(s.players) if taken[seat] == 0]
    full = [seat for seat in range(s.players) if own[seat] > variant.half]
    scores = [0] * s.players
    value = variant.klop_value(s.rules)
    if empty or full:
        if s.rules.flag("klop_empty_with_full") or not full:
            for seat in empty:
                scores[seat] = value
        for seat in full:
            scores[seat] = -value
    else:
        rounding = round5 if s.rules.flag("klop_round5") else (lambda x: x)
        scores = [-rounding(p) for p in own]
    lines = tuple(ScoreLine("klop", v, (seat,)) for seat, v in enumerate(scores))
    zeros = (0,) * s.players
    return HandResult("klop", None, (), None, tuple(scores), zeros, own, lines, radelci=True)


def _fixed(
    variant: Slovenian, s: SlovenianState, team_points: int
) -> tuple[int, bool, list[ScoreLine]]:
    c = variant.contract_table[s.contract]
    declarer_tricks = s.tricks_won()[s.declarer or 0]
    if c.id in ("beggar", "open_beggar"):
        won = declarer_tricks == 0
    elif c.id == "solo_without":
        won = team_points > variant.half
    else:
        won = declarer_tricks == variant.tricks_per_hand(s)
    value = (c.value if won else -c.value) * k.multiplier(s.level(d.GAME))
    return value, won, [ScoreLine(c.id, value)]


def _side_sign(s: SlovenianState, seat: int | None) -> int:
    return 1 if seat is not None and seat in s.team() else -1


def _valat_side(variant: Slovenian, s: SlovenianState) -> int:
    """+1 if the declarer side took every trick, -1 if the opponents did, else 0."""
    winners = {tr.winner in s.team() for tr in s.tricks}
    if len(s.tricks) != variant.tricks_per_hand(s) or len(winners) != 1:
        return 0
    return 1 if winners.pop() else -1


def _normal(
    variant: Slovenian, s: SlovenianState, team_points: int
) -> tuple[int, bool, list[ScoreLine]]:
    c = variant.contract_table[s.contract]
    valat_side = _valat_side(variant, s)
    announcer = s.announcer(d.VALAT_BONUS)
    extra: list[ScoreLine] = []
    # `won` is whether the declarer made his contract (what crosses out a radelc): a valat
    # decides it when one was made or the declarer side's own announcement failed; an
    # opponents' failed valat leaves it to the card points.
    contract_made = team_points > variant.half
    if announcer is not None:
        sign = _side_sign(s, announcer)
        made = valat_side == sign
        announced = variant.bonus_table(s.rules)[d.VALAT_BONUS][2]
        value = sign * (1 if made else -1) * announced * k.multiplier(s.level(d.VALAT_BONUS))
        line = ScoreLine("valat (announced)", value)
        won_game = (sign > 0) if made else (sign < 0 and contract_made)
        if made or s.rules.opt("failed_announced_valat_mode") == "valat_only":
            return value, won_game, [line]
        extra.append(line)
    elif valat_side:
        silent = variant.bonus_table(s.rules)[d.VALAT_BONUS][1]
        value = valat_side * silent * k.multiplier(s.level(d.GAME))
        return value, valat_side > 0, [ScoreLine("valat (silent)", value)]
    diff = team_points - variant.half
    rounded = round5(diff) if s.rules.flag("round_difference") else diff
    won = contract_made
    mult = k.multiplier(s.level(d.GAME))
    lines = [
        ScoreLine(c.id, (c.value if won else -c.value) * mult),
        ScoreLine("difference", rounded * mult),
    ]
    lines += variant.bonus_lines(s) + extra
    won = won and not (extra and _side_sign(s, announcer) > 0)
    return sum(line.points for line in lines), won, lines


def _holder(s: SlovenianState, cards: list[Card]) -> int:
    """+1 if the declarer side won all these cards, -1 if the opponents did, else 0.

    Cards left in the talon count for the opponents."""
    team = s.team()
    sides: set[bool] = set()
    for card in cards:
        seat = next((i for i, pile in enumerate(s.piles) if card in pile), None)
        if seat is not None:
            sides.add(seat in team)
        elif card in s.talon:
            sides.add(False)
        else:
            return 0
    if len(sides) != 1:
        return 0
    return 1 if sides.pop() else -1


def _item(
    variant: Slovenian, s: SlovenianState, item: str, outcome: int, present: bool
) -> list[ScoreLine]:
    """Score one bonus. `outcome` is +1/-1 for the side that made it, 0 if nobody did;
    `present` says whether a silent bonus/failure arises at all."""
    name, silent, announced = variant.bonus_table(s.rules)[item]
    announcer = s.announcer(item)
    if announcer is not None:
        sign = _side_sign(s, announcer)
        made = outcome == sign
        value = sign * (1 if made else -1) * announced * k.multiplier(s.level(item))
        return [ScoreLine(f"{name.lower()} (announced)", value)]
    if present and outcome:
        return [ScoreLine(f"{name.lower()} (silent)", outcome * silent)]
    return []


def bonuses(variant: Slovenian, s: SlovenianState) -> list[ScoreLine]:
    """Slovenian bonuses: trula, kings, king ultimo, pagat ultimo (silent or announced)."""
    lines: list[ScoreLine] = []
    trula = [Card(TAROK, r) for r in (PAGAT, MOND, SKIS)]
    kings = [c for c in variant.deck(s.rules).cards if c.rank == KING and not c.is_tarok]
    for item, cards in ((d.TRULA, trula), (d.KINGS, kings)):
        holder = _holder(s, cards)
        lines += _item(variant, s, item, holder, holder != 0)
    last = s.tricks[-1]
    if s.called and s.players == 4:
        in_last = any(c in last.cards for c in s.called)
        ours = 1 if in_last and last.winner in s.team() else -1
        lines += _item(variant, s, d.KING_ULTIMO, ours if in_last else 0, in_last)
    pagat = Card(TAROK, PAGAT)
    player = next((seat for seat, c in last.plays if c == pagat), None)
    if player is not None:
        won = last.winner == player
        side = _side_sign(s, player)
        lines += _item(variant, s, d.PAGAT_ULTIMO, side if won else -side, True)
    elif s.announcer(d.PAGAT_ULTIMO) is not None:
        lines += _item(variant, s, d.PAGAT_ULTIMO, 0, False)
    return lines


def _mondfang(variant: Slovenian, s: SlovenianState, lines: list[ScoreLine]) -> tuple[int, ...]:
    penalties = [0] * s.players
    c = variant.contract_table[s.contract]
    if any("valat" in line.item for line in lines) and not s.rules.flag("mondfang_with_valat"):
        return tuple(penalties)
    penalty = s.rules.num("mondfang_penalty")
    for seat in s.mondfangs:
        penalties[seat] -= penalty
    left = variant.monds_left(s)
    if left and s.declarer is not None and c.bonuses:
        penalties[s.declarer] -= penalty * left
    return tuple(penalties)
