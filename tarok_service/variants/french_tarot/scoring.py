"""Scoring a French Tarot hand: the attack's card points and bouts against the target, the
contract's multiplier, petit au bout, poignées, chelem and misères.

`tally` reads what scoring needs from a finished hand; `amount` turns a tally into the amount
X each defender pays the attack (negative: receives); `score` shares it out (the taker gets X
from each defender and passes X on to a partner).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import Card
from ...engine.options import Rules
from ...engine.outcome import HandResult, ScoreLine
from ...engine.state import Trick
from . import data as d
from .state import TarotState

ATTACK, DEFENCE = "attack", "defence"


@dataclass(frozen=True)
class Tally:
    """What a hand's score depends on. `points` are the attack's card points in half points;
    `petit` is +1 when the attack took the petit au bout, -1 when the defence did; `poignees`
    are the steps shown (0 simple, 1 double, 2 triple), by anybody; `chelem` names the side
    that won every trick ("" if neither)."""

    contract: str
    points: int
    bouts: int
    petit: int = 0
    poignees: tuple[int, ...] = ()
    chelem_announced: bool = False
    chelem: str = ""

    @property
    def target(self) -> int:
        return d.TARGETS[self.bouts]

    @property
    def made(self) -> bool:
        return self.points >= self.target


def multiplier(contract: str, rules: Rules) -> int:
    return rules.num("prise_multiplier") if contract == d.PRISE else d.MULTIPLIERS[contract]


def difference(t: Tally, rules: Rules) -> int:
    """Whole points over or under the target, a half point counting as a whole one, then
    rounded to the table's step (ties up)."""
    diff = (abs(t.points - t.target) + 1) // 2
    step = rules.num("difference_round_to")
    return diff if step == 1 else step * ((diff + step // 2) // step)


def amount(t: Tally, rules: Rules) -> tuple[int, tuple[tuple[str, int], ...]]:
    """X, what each defender pays the attack, and its parts (item, points)."""
    sign = 1 if t.made else -1
    mult = multiplier(t.contract, rules)
    parts = [(d.CONTRACT_LINE, sign * (rules.num("base_points") + difference(t, rules)) * mult)]
    if t.petit and rules.num("petit_au_bout"):
        parts.append((d.PETIT_LINE, t.petit * rules.num("petit_au_bout") * mult))
    if t.poignees:
        values = d.POIGNEE_VALUES[str(rules.opt("poignee_values"))]
        parts.append((d.POIGNEE_LINE, sign * sum(values[i] for i in t.poignees)))
    if t.chelem == ATTACK:
        won = "chelem_announced_made" if t.chelem_announced else "chelem_unannounced_made"
        parts.append((d.CHELEM_LINE, rules.num(won)))
    elif t.chelem_announced:
        parts.append((d.CHELEM_LINE, -rules.num("chelem_announced_failed")))
    if t.chelem == DEFENCE and rules.num("chelem_defense"):
        parts.append((d.DEFENCE_CHELEM_LINE, -rules.num("chelem_defense")))
    return sum(p for _, p in parts), tuple(parts)


def shares(x: int, players: int, taker: int, partner: int | None) -> tuple[int, ...]:
    """Per seat: each defender -X, a partner +X, the taker the rest (the hand sums to 0)."""
    attack = {taker} if partner is None else {taker, partner}
    defenders = players - len(attack)
    out = [-x] * players
    out[taker] = x * defenders - (x if partner is not None else 0)
    if partner is not None:
        out[partner] = x
    return tuple(out)


def misere_payments(
    players: int, miseres: tuple[tuple[int, str], ...], value: int
) -> tuple[int, ...]:
    """Each misère: its declarer receives `value` from every other player."""
    out = [0] * players
    for seat, _ in miseres:
        for other in range(players):
            out[other] += value * (players - 1) if other == seat else -value
    return tuple(out)


# --- from a finished hand ---------------------------------------------------------------


def excuse_won_last(s: TarotState) -> bool:
    """The excuse led to the last trick by a side that won every earlier trick (it wins it)."""
    if not s.tricks or not s.rules.flag("chelem_excuse_wins"):
        return False
    last = s.tricks[-1]
    if last.plays[0][1] != d.EXCUSE:
        return False
    side = last.leader in s.attack()
    return all((tr.winner in s.attack()) == side for tr in s.tricks[:-1])


def attack_cards(s: TarotState) -> list[Card]:
    """The attack's pile before the excuse's exchange: its tricks and the écart (prise,
    garde) or the chien (garde sans)."""
    attack = set(s.attack())
    pile = [c for tr in s.tricks if tr.winner in attack for c in tr.cards]
    if s.contract in d.WITH_CHIEN:
        pile += s.ecart
    elif s.contract == d.GARDE_SANS:
        pile += s.talon
    return pile


def _excuse_shift(s: TarotState, attack: set[int]) -> int:
    """Half points the excuse's exchange moves to the attack (negative: away from it): the
    excuse (9, a bout) goes back to its owner's side, which pays a low card (1) for it."""
    found = _excuse_trick(s)
    if found is None:
        return 0
    trick, owner, last = found
    owner_attack, winner_attack = owner in attack, trick.winner in attack
    if owner_attack == winner_attack:
        return 0
    if last and s.rules.opt("excuse_last_trick") == "to_winner":
        return 0
    owner_won = any((tr.winner in attack) == owner_attack for tr in s.tricks)
    paid = 1 if owner_won or s.rules.opt("excuse_unpaid") == "transfer" else 0
    return (9 - paid) if owner_attack else -(9 - paid)


def _excuse_trick(s: TarotState) -> tuple[Trick, int, bool] | None:
    for i, tr in enumerate(s.tricks):
        for seat, card in tr.plays:
            if card == d.EXCUSE:
                return tr, seat, i == len(s.tricks) - 1
    return None


def tally(s: TarotState) -> Tally:
    """The tally of a finished hand that was played."""
    pile = attack_cards(s)
    attack = set(s.attack())
    shift = _excuse_shift(s, attack)
    bouts = sum(1 for c in pile if c in d.BOUTS) + (shift > 0) - (shift < 0)
    winners = [tr.winner in attack for tr in s.tricks]
    chelem = ATTACK if all(winners) else DEFENCE if not any(winners) else ""
    return Tally(
        contract=s.contract,
        points=d.DECK.total_points(pile) + shift,
        bouts=bouts,
        petit=_petit(s, attack),
        poignees=tuple(d.POIGNEES.index(step) for _, step, _ in s.poignees),
        chelem_announced=s.chelem_announced,
        chelem=chelem,
    )


def _petit(s: TarotState, attack: set[int]) -> int:
    """+1 / -1 when the attack / defence won the trick that brings the petit au bout."""
    at = next((i for i, tr in enumerate(s.tricks) if d.PETIT in tr.cards), None)
    last = len(s.tricks) - 1
    if at is None or not (at == last or (at == last - 1 and excuse_won_last(s))):
        return 0
    return 1 if s.tricks[at].winner in attack else -1


def score(s: TarotState) -> HandResult:
    n = s.players
    assert s.taker is not None
    t = tally(s)
    x, parts = amount(t, s.rules)
    attack = s.attack()
    lines = tuple(
        ScoreLine(item, share, (seat,))
        for item, points in parts
        for seat, share in enumerate(shares(points, n, s.taker, s.partner))
    )
    penalties = misere_payments(n, s.miseres, s.rules.num("misere_value"))
    return HandResult(
        contract=s.contract,
        declarer=s.taker,
        team=attack,
        won=t.made,
        scores=shares(x, n, s.taker, s.partner),
        penalties=penalties,
        side_points=(t.points, d.PACK_HALF_POINTS - t.points),
        lines=lines,
    )
