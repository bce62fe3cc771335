"""Scoring one Czech taroky hand and the zid it plays for."""

from __future__ import annotations

from dataclasses import replace

from ...engine import kontra as k
from ...engine.cards import PAGAT, TAROK, Card
from ...engine.counting import in_threes, round5
from ...engine.outcome import HandResult, ScoreLine
from . import data as d
from .declarations import binding_value, value
from .state import DECK, TarokyState

Cards = list[Card]


def score(s: TarokyState) -> HandResult:
    """The scored result of a finished hand (the zid itself is settled by the match)."""
    if s.misdealt:
        return misdeal(s.players, s.dealer)
    if s.contract == d.VARSAVA:
        return varsava(s)
    team_cards, opp_cards = side_cards(s)
    points = (in_threes(team_cards, DECK.points), in_threes(opp_cards, DECK.points))
    lines = _game(s, points) + _declarations(s) + _pagat(s) + _valat(s)
    scores = tuple(sum(li.points for li in lines if seat in li.seats) for seat in range(s.players))
    zeros = (0,) * s.players
    return HandResult(
        s.contract, s.declarer, s.team(), won(s, points[0]), scores, zeros, points, tuple(lines)
    )


def misdeal(players: int, dealer: int) -> HandResult:
    """A thrown-in deal: the dealer pays into the zid."""
    scores = tuple(-d.MISDEAL_PAYMENT if seat == dealer else 0 for seat in range(players))
    line = ScoreLine("misdeal", -d.MISDEAL_PAYMENT, (dealer,))
    return HandResult(
        "misdeal",
        None,
        (),
        None,
        scores,
        (0,) * players,
        (),
        (line,),
        redeal=True,
        pot=d.MISDEAL_PAYMENT,
    )


def won(s: TarokyState, team_points: int) -> bool:
    """Whether the declaring side won: more than half the points; the second obligation also
    needs the last trick taken by the pagat of the declaring side."""
    enough = team_points > d.HALF
    if not s.obligation.pagat_zid:
        return enough
    return pagat_winner_of_last_trick(s) in s.team() and (
        enough or not s.rules.flag("second_needs_points")
    )


def side_cards(s: TarokyState) -> tuple[Cards, Cards]:
    """(declaring side's cards, opponents' cards); the talon's cards go to the opponents, or in
    the sixth obligation to the winning side."""
    team = s.team()
    ours = [c for seat in team for c in s.piles[seat]]
    theirs = [c for seat in s.opponents() for c in s.piles[seat]]
    if s.contract == d.SIXTH and _sixth_talon_to_team(s, ours, theirs):
        return [*ours, *s.talon], theirs
    return ours, [*theirs, *s.talon]


def _sixth_talon_to_team(s: TarokyState, ours: Cards, theirs: Cards) -> bool:
    """Whether the sixth's talon goes to the declarer: ahead without it (a tie goes to the
    opponents), or by option the winner of the last trick."""
    if s.rules.opt("sixth_talon_to") == "last_trick":
        return s.tricks[-1].winner in s.team()
    return in_threes(ours, DECK.points) > in_threes(theirs, DECK.points)


def pay(s: TarokyState, item: str, amount: int) -> list[ScoreLine]:
    """`amount` won by each opponent's payment to the declaring side: 2 v 2 each +V / -V,
    1 v 3 the declarer +3V and each opponent -V."""
    team, opps = s.team(), s.opponents()
    return [
        ScoreLine(item, amount * len(opps) // len(team), team),
        ScoreLine(item, -amount, opps),
    ]


def _game(s: TarokyState, points: tuple[int, int]) -> list[ScoreLine]:
    """The game part: rounded difference x talon multiplier x flek."""
    diff = round5(points[0]) - round5(points[1])
    return pay(s, "game", diff * s.multiplier * k.multiplier(s.flek))


def _declarations(s: TarokyState) -> list[ScoreLine]:
    """Every revealing declaration counts for its player's side."""
    lines: list[ScoreLine] = []
    for seat, item in s.declarations:
        sign = 1 if seat in s.team() else -1
        lines += pay(s, item, sign * value(s.rules, item))
    return lines


def pagat_winner_of_last_trick(s: TarokyState) -> int | None:
    """The seat whose pagat took the last trick, if it did."""
    last = s.tricks[-1]
    return last.winner if (last.winner, Card(TAROK, PAGAT)) in last.plays else None


def _pagat(s: TarokyState) -> list[ScoreLine]:
    """Pagat: announced +-100 for the announcer's side; silent +50 when it takes the last trick
    and nothing when lost."""
    announcer = s.announcer(d.PAGAT)
    winner = pagat_winner_of_last_trick(s)
    if announcer is not None:
        sign = 1 if announcer in s.team() else -1
        made = winner == announcer
        amount = binding_value(s.rules, d.PAGAT, True) * (1 if made else -1)
        return pay(s, "pagat (announced)", sign * amount)
    if winner is None:
        return []
    sign = 1 if winner in s.team() else -1
    return pay(s, "pagat (silent)", sign * binding_value(s.rules, d.PAGAT, False))


def valat_side(s: TarokyState) -> int:
    """+1 if the declaring side took every trick, -1 if the opponents did, else 0."""
    sides = {t.winner in s.team() for t in s.tricks}
    if len(sides) != 1:
        return 0
    return 1 if sides.pop() else -1


def _valat(s: TarokyState) -> list[ScoreLine]:
    """Valat, judged per side and added to the score: an announced valat is made or fails;
    a side that takes every trick without having announced it scores the silent valat, even
    when the other side's announcement is what failed."""
    side = valat_side(s)
    announcer = s.announcer(d.VALAT)
    lines: list[ScoreLine] = []
    if announcer is not None:
        sign = 1 if announcer in s.team() else -1
        amount = binding_value(s.rules, d.VALAT, True) * (1 if side == sign else -1)
        lines = pay(s, "valat (announced)", sign * amount)
        if side != -sign:
            return lines
    if side == 0:
        return lines
    return lines + pay(s, "valat (silent)", side * binding_value(s.rules, d.VALAT, False))


def varsava_payment(points: int, doubled: bool) -> int:
    """What a player with these card points pays into the zid."""
    amount = next((due for low, due in d.VARSAVA_BANDS if points >= low), 0)
    return 2 * amount if doubled else amount


def varsava(s: TarokyState) -> HandResult:
    """Each player pays into the zid by his own card points; doubled if a player is empty."""
    own = tuple(in_threes(pile, DECK.points) for pile in s.piles)
    doubled = 0 in s.tricks_won()
    paid = [varsava_payment(p, doubled) for p in own]
    lines = tuple(ScoreLine("varsava", -p, (seat,)) for seat, p in enumerate(paid) if p)
    scores = tuple(-p for p in paid)
    zeros = (0,) * s.players
    return HandResult(d.VARSAVA, s.declarer, (), None, scores, zeros, own, lines, pot=sum(paid))


def shares(amount: int, team: tuple[int, ...], declarer_only: bool) -> list[tuple[int, int]]:
    """(seat, share) of an amount split over the declaring side, the odd unit to the declarer
    (team[0]); everything to the declarer when `declarer_only`."""
    if declarer_only or len(team) == 1:
        return [(team[0], amount)]
    half = amount // 2
    return [(team[0], amount - half), (team[1], half)]


def with_zid(result: HandResult, pot: int, payer: str = "split") -> HandResult:
    """The result with the zid settled: a won second obligation takes the pot, a lost one
    doubles it (the declaring side pays in the pot's amount)."""
    if result.contract != d.SECOND or result.redeal or not result.team or pot == 0:
        return result
    sign = 1 if result.won else -1
    split = shares(pot, result.team, declarer_only=not result.won and payer == "declarer")
    item = "zid taken" if result.won else "zid doubled"
    lines = tuple(ScoreLine(item, sign * share, (seat,)) for seat, share in split)
    scores = [*result.scores]
    for seat, share in split:
        scores[seat] += sign * share
    return replace(
        result, scores=tuple(scores), lines=result.lines + lines, pot=result.pot - sign * pot
    )
