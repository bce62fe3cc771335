"""Hand analysis: for a finished hand, with every card revealed, what perfect play would have
given after each card that was played ("double dummy"), so that a player sees where a hand
was won or lost.

For each card play the position before it is solved (`solver.solve_state`) with every hand
open: `value` is what the measured side ends the hand with when everybody plays perfectly
from just after that card, `best` what it would have ended with after the best card the
player had (best for the player's own side). The measured side is the declarer's, or in a
contract with no declarer (klop, varšava) the player's own. The measure: card points (the
rule set's counting of the cards taken in tricks; talon gifts and captured talons aside),
or tricks in a beggar (those the declarer takes) or a valat (those won before the first
lost one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from ..engine.fastcopy import evolve
from ..engine.state import TRICKS, HandState
from ..engine.trickplay import TrickPlay
from ..engine.variant import Variant
from ..variants.registry import find_rule_set
from .solver import Game, Objective, models, objective, solvable, solve_state

NODE_LIMIT = 300_000  # per position; past it the search looks ESTIMATE_TRICKS ahead only
NODE_BUDGET = 6_000_000  # per hand: once spent, the earlier positions are only estimated
ESTIMATE_TRICKS = 2  # the estimate looks this many tricks ahead, or fewer past ESTIMATE_NODES
ESTIMATE_NODES = 200_000


@dataclass(frozen=True, slots=True)
class CardValue:
    """One card play of the hand and the perfect-play values around it."""

    trick: int  # 0-based
    seat: int
    card: Card
    side: tuple[int, ...]  # the seats whose total `value` and `best` measure
    value: float  # after the card played
    best: float  # after the best card the player had
    exact: bool  # False: the search stopped early and estimated the last tricks


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    contract: str
    measure: str  # "points" or "tricks"
    cards: tuple[CardValue, ...]


def analyse_hand(
    variant: Variant[Any],
    final: HandState,
    node_limit: int = NODE_LIMIT,
    node_budget: int = NODE_BUDGET,
) -> HandAnalysis:
    """The analysis of the finished hand `final` (every card play in `final.tricks`); each
    position is solved exactly within `node_limit` nodes while the hand's `node_budget`
    lasts, else estimated (`exact` False).
    ValueError when the hand is not finished or its rule set has no trick play here."""
    if not final.finished:
        raise ValueError("the hand is not finished")
    sampler = find_rule_set(variant.id).sampler
    if not isinstance(variant, TrickPlay) or not solvable(variant) or sampler is None:
        raise ValueError(f"no analysis for {variant.id}")
    contract = variant.view(final, None).contract
    if not models(contract):
        raise ValueError(f"no analysis for {contract}")
    deck = variant.deck(final.rules)
    team = tuple(sampler.team(final))
    plays = [p for tr in final.tricks for p in tr.plays]
    # the hands when play began: what is left in them and what each seat played
    hands = [list(h) for h in final.hands]
    for seat, card in plays:
        hands[seat].append(card)
    order = deck.index
    hands = [sorted(h, key=order.__getitem__) for h in hands]
    todo: list[tuple[HandState, Objective, int, int, Card]] = []
    measure = "points"
    for n, tr in enumerate(final.tricks):
        for k, (seat, card) in enumerate(tr.plays):
            aim = objective(variant.id, deck, contract, team, seat)
            if aim.bonus:
                measure = "tricks"
            position = evolve(
                final, hands=tuple(tuple(h) for h in hands), trick=tr.plays[:k],
                tricks=final.tricks[:n], phase=TRICKS, turn=seat,
            )  # fmt: skip
            todo.append((position, aim, n, seat, card))
            hands[seat].remove(card)
    # from the last card back: each search leaves the values of the later positions in the
    # solver's table, where the searches of the earlier ones find them
    out: list[CardValue] = []
    left = node_budget
    own: dict[Any, Game] = {}  # games of this analysis alone: the same answer every time
    for item in reversed(todo):
        found, nodes = _card_value(variant, *item, min(node_limit, left), own)
        left = max(0, left - nodes)
        out.append(found)
    return HandAnalysis(contract, measure, tuple(reversed(out)))


def _card_value(
    variant: TrickPlay[Any],
    position: HandState,
    aim: Objective,
    trick: int,
    seat: int,
    card: Card,
    node_limit: int,
    own: dict[Any, Game],
) -> tuple[CardValue, int]:
    """The card's values and the nodes the search took."""
    exact = node_limit > 0
    found = solve_state(variant, position, aim, -1, node_limit, own) if exact else None
    spent = node_limit if found is None else found[1]
    for horizon in range(ESTIMATE_TRICKS, -1, -1):
        if found is not None:
            break
        exact = False
        found = solve_state(variant, position, aim, horizon, ESTIMATE_NODES if horizon else 0,
                            own)  # fmt: skip
    assert found is not None  # the last try has no node limit
    values = found[0]
    won = _won(variant, position, aim)
    mine = seat in aim.team
    best = max(values.values()) if mine else min(values.values())
    scale = aim.scale
    value = CardValue(
        trick, seat, card, tuple(sorted(aim.team)), (won + values[card]) / scale,
        (won + best) / scale, exact,
    )  # fmt: skip
    return value, spent


def _won(variant: TrickPlay[Any], position: HandState, aim: Objective) -> int:
    """What the side took in the tricks before the position (in the solver's units)."""
    index = variant.deck(position.rules).index
    return sum(
        sum(aim.values[index[c]] for c in tr.cards) + aim.bonus
        for tr in position.tricks
        if tr.winner in aim.team
    )


def lost_cards(analysis: HandAnalysis, threshold: float = 0.0) -> Sequence[CardValue]:
    """The card plays that cost the player's own side more than `threshold` (in the measure)."""
    return [
        c for c in analysis.cards
        if (c.best - c.value if c.seat in c.side else c.value - c.best) > threshold
    ]  # fmt: skip
