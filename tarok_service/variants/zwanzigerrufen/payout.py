"""Money for a scored Zwanzigerrufen hand: platform economics, not rules.

The engine scores in units of the game value. StarGames turns the units into money: the game's
money value is stake x the units each opponent wins or pays (capped by the table limit, if
any); each loser pays it (a losing soloist three times); the site keeps a commission of `rate`
x the money value per player at the table; the winners share what remains equally.
Seed example: stake 1, value 3, a soloist wins: 3 x 3 = 9 gross, commission 4 x 0.27 = 1.08,
the winner receives 7.92.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from ...engine.outcome import HandResult

CENT = Decimal("0.01")
STARGAMES_RATE = Decimal("0.09")


@dataclass(frozen=True)
class Payout:
    """Net money per seat (losers negative) and the commission the site keeps.

    `sum(amounts) + commission == 0`; a winner's share is rounded down to the cent and the
    remainder goes to the commission."""

    amounts: tuple[Decimal, ...]
    commission: Decimal


def game_value(result: HandResult) -> int:
    """Units each opponent of the playing side wins or pays (the value of the game)."""
    opponents = [s for s in range(len(result.scores)) if s not in result.team]
    return abs(result.scores[opponents[0]]) if opponents else 0


def payout(
    result: HandResult,
    stake: Decimal,
    rate: Decimal = STARGAMES_RATE,
    limit: Decimal | None = None,
) -> Payout:
    """The money each seat wins or pays for one scored hand."""
    players = len(result.scores)
    value = game_value(result)
    money = stake * value
    if limit is not None:
        money = min(money, limit)
    if result.redeal or money == 0:
        return Payout((Decimal(0),) * players, Decimal(0))
    paid = [money * -score / value if score < 0 else Decimal(0) for score in result.scores]
    winners = [s for s in range(players) if result.scores[s] > 0]
    commission = rate * money * players
    share = ((sum(paid) - commission) / len(winners)).quantize(CENT, ROUND_DOWN)
    amounts = tuple(share if s in winners else Decimal(0) - paid[s] for s in range(players))
    return Payout(amounts, -sum(amounts, Decimal(0)))
