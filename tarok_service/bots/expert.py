"""The `expert` bot: perfect-information Monte Carlo over the C trick-play solver.

For each card decision it deals the cards it cannot see many times over (the rule set's
`Sampler`: every deal agrees with its hand, the cards played, the voids the play has shown,
known partners and announced cards), solves each deal with every hand open (`solver`), and
plays the card with the best mean value for its side. Deals are weighted by how well they
explain the auction: a declarer who took on a contract is likely to hold taroks, so a deal
giving the declarer side few is worth less (`world_weight`).

Each deal's value for a card is what the hand would *score*, not the card points: in a
contract played for points the solver's card points of the declarer side (those already in
its piles plus perfect play of the rest) are turned into the contract's score shape - the
contract's value won or lost at the threshold plus the difference (`Stakes`). Minimax
commutes with a monotone map, so the solve itself is unchanged; only the mean over the deals
differs, and there the jump at the threshold is what matters (a card that keeps most deals
just above it beats one that gains points in deals already won).

Early in the hand a full solve takes too long. When the first deal cannot be solved to the
end within a share of the budget, the decision goes to PIMC's heuristic playouts (`deep`
"pimc", the default), which see the whole hand; the other choice, "estimate", searches a
few tricks ahead and estimates the rest (`_dds.c`'s `estimate`). The last tricks are solved
exactly. Each decision keeps within `budget` seconds (default 0.25): deals (and playouts)
are drawn only while the time already used per deal says one more fits.

Outside trick play (bids, talon, calls, announcements) it decides as the heuristic bot does.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.sampling import Sampler
from ..engine.state import TRICKS, HandState
from ..engine.trickplay import TrickPlay
from ..engine.variant import Variant
from ..engine.view import View
from ..variants.registry import find_rule_set
from .heuristic import HeuristicBot
from .pimc import PimcBot
from .solver import Objective, for_seat, models, objective, solvable, solve_state

NODES_PER_SECOND = 2_500_000  # the solver's speed on this machine (a safe guess)
MAX_HORIZON = 6
SAFETY = 0.8  # the share of the budget the deals may use (the rest: the heuristic, noise)
TAROK_WEIGHT = 0.25  # how much one tarok more or less in the declarer side's hands counts
PROBE_SHARE = 16  # the first deal's exact solve may use 1/PROBE_SHARE of the time left
SCORED = frozenset({"slovenian", "double_tarok"})  # rule sets scored by `slovenian.scoring`
FIXED_MARGIN = 0.05  # a fixed-value contract: the weight of card points beside the win


@dataclass(frozen=True, slots=True)
class Stakes:
    """The score shape of a contract played for card points, in solver units: the declarer
    side holds `taken` units already and wins with more than `need`; it then scores `value`
    (lost: -`value`) plus `margin` x the units over `need`."""

    taken: int
    need: int
    value: int
    margin: float = 1.0

    def score(self, rest: float) -> float:
        """The declarer side's score when it takes `rest` more units."""
        over = self.taken + rest - self.need
        return (self.value if over > 0 else -self.value) + self.margin * over


def stakes(variant: object, state: HandState, aim: Objective) -> Stakes | None:
    """The contract's `Stakes` in a rule set scored the Slovenian way (a contract played for
    card points by a declarer side); None for any other aim (klop, beggars, valats) or rule
    set, whose solver value is kept as it is. Bonuses (trula, kings, ultimos) and the kontra
    multiplier (a factor common to every card) are left out."""
    # the Slovenian family's contract table and half (read by name: only the rule sets import
    # a rule set's modules)
    table: Any = getattr(variant, "contract_table", None)
    half: Any = getattr(variant, "half", None)
    if not isinstance(variant, Variant) or variant.id not in SCORED or table is None:
        return None
    if half is None or aim.bonus or aim.scale <= 1 or not aim.team:
        return None
    contract = table[getattr(state, "contract", 0)]
    if contract.negative or contract.id == "klop":
        return None
    index = variant.deck(state.rules).index
    taken = sum(aim.values[index[c]] for s in aim.team for c in state.piles[s])
    unit = aim.scale
    margin = FIXED_MARGIN if contract.fixed else 1.0
    return Stakes(taken, int(half) * unit, int(contract.value) * unit, margin)


class ExpertBot:
    """Monte Carlo over sampled deals, each solved by the C solver."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = 0.25,
        max_worlds: int = 400,
        min_worlds: int = 2,
        infer: bool = True,
        deep: str = "pimc",
        score: bool = True,
    ) -> None:
        if deep not in ("pimc", "estimate"):
            raise ValueError(f"deep must be 'pimc' or 'estimate', not {deep!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.max_worlds = max_worlds
        self.min_worlds = min_worlds
        self.infer = infer
        self.deep = deep
        self.score = score
        self.fallback = HeuristicBot()
        self.unsolved = PimcBot(seed, budget)  # card play of a rule set the solver does not model
        self.worlds_used = 0  # of the last decision (0: the heuristic decided)
        self.horizon_used = -1
        self.delegated = False  # the last decision went to PIMC's playouts (too early to solve)

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        """One of `view.legal`."""
        start = time.perf_counter()
        self.worlds_used = 0
        self.delegated = False
        # card duties the solver does not model: PIMC decides every move (outside trick play
        # it plays as the heuristic bot does, so the heuristic is not asked twice)
        if not solvable(variant) or not models(view.contract):
            return self.unsolved.choose(view, variant, rules)
        default = self.fallback.choose(view, variant, rules)
        sampler = find_rule_set(variant.id).sampler
        if len(view.legal) == 1 or view.phase != TRICKS or sampler is None:
            return default
        if not isinstance(variant, TrickPlay):
            return default
        deadline = start + self.budget * SAFETY
        scores = self.evaluate(view, variant, rules, sampler, deadline)
        moves = list(view.legal)
        if self.delegated:
            found = self.unsolved.evaluate(view, variant, rules, sampler, deadline=deadline)
            if found is None:
                return default
            best = max(range(len(moves)), key=lambda i: (found[i], moves[i] == default))
            return moves[best]
        if scores is None:
            return default
        deck = variant.deck(rules)
        cards = [deck.by_code[m.value] for m in moves]
        best = max(range(len(moves)), key=lambda i: (scores.get(cards[i], -math.inf),
                                                     moves[i] == default))  # fmt: skip
        return moves[best]

    def evaluate(
        self,
        view: View,
        variant: TrickPlay[Any],
        rules: Rules,
        sampler: Sampler[Any],
        deadline: float,
    ) -> dict[Any, float] | None:
        """Weighted mean value for the bot's side of each legal card over the sampled deals,
        or None when no deal was drawn (and `delegated` set when the first deal could not be
        solved to the end in time and `deep` is "pimc")."""
        assert view.seat is not None
        deck = variant.deck(rules)
        seat = view.seat
        totals: dict[Any, float] = {}
        weight_sum = 0.0
        horizon: int | None = None
        limit = 0
        count = failures = 0
        per_world = 0.0
        began = time.perf_counter()
        while count < self.max_worlds and failures < 10:
            now = time.perf_counter()
            if count >= self.min_worlds and now + per_world * 1.5 >= deadline:
                break
            if count and now >= deadline:
                break
            state = sampler.sample(view, rules, self.rng)
            if state is None:
                failures += 1
                continue
            aim = objective(rules.variant, deck, view.contract, sampler.team(state), seat)
            if horizon is None and self.deep == "pimc":  # the first deal: solvable in time?
                left = max(deadline - time.perf_counter(), 0.001)
                limit = int(left * NODES_PER_SECOND / PROBE_SHARE)
                horizon = -1
                found = _solve(variant, state, aim, -1, limit, deadline)
                if found is None:
                    self.delegated = True
                    return None
                limit *= PROBE_SHARE
            elif horizon is None:  # the first deal: how deep the others are searched
                horizon, limit, found = self._depth(variant, state, aim, deadline)
            else:
                found = _solve(variant, state, aim, horizon, limit, deadline)
                while (found is None and horizon != 0 and self.deep == "estimate"
                       and time.perf_counter() < deadline):  # fmt: skip
                    horizon = horizon - 1 if horizon > 0 else MAX_HORIZON
                    found = _solve(variant, state, aim, horizon, limit, deadline)
            if found is None:
                if time.perf_counter() >= deadline:
                    break
                failures += 1
                continue
            weight = self.world_weight(state, aim, view) if self.infer else 1.0
            shape = stakes(variant, state, aim) if self.score else None
            for card, value in found[0].items():
                worth = float(value) if shape is None else shape.score(value)
                totals[card] = totals.get(card, 0.0) + weight * for_seat(aim, seat, worth)
            weight_sum += weight
            count += 1
            per_world = (time.perf_counter() - began) / count
        self.worlds_used = count
        self.horizon_used = -1 if horizon is None else horizon
        if not count or weight_sum <= 0:
            return None
        return {c: v / weight_sum for c, v in totals.items()}

    def _depth(
        self, variant: TrickPlay[Any], state: HandState, aim: Objective, deadline: float
    ) -> tuple[int, int, tuple[dict[Card, int], int] | None]:
        """The search depth (tricks after the one in play; -1: to the end), the node limit per
        deal, and this deal's solve at that depth: the deepest depth whose solve of this deal
        takes at most the share of the time left that one of the deals hoped for may use."""
        left = max(deadline - time.perf_counter(), 0.001)
        share = int(left * NODES_PER_SECOND / max(self.min_worlds * 4, 16))
        tricks_left = max(map(len, state.hands))
        chosen, best = 0, None
        for horizon in range(min(MAX_HORIZON, tricks_left) + 1):
            exact = horizon >= tricks_left - 1
            found = _solve(variant, state, aim, -1 if exact else horizon, share, deadline)
            if found is None:
                break
            chosen, best = (-1 if exact else horizon), found
            if exact or found[1] * 4 > share:
                break
        return chosen, share * 4, best

    def world_weight(self, state: HandState, aim: Objective, view: View) -> float:
        """How likely the deal is given the auction: in a contract played for card points, a
        declarer (another seat) holding more taroks than an even share of the unseen ones
        weighs more, one holding fewer less (the played cards are the same in every deal)."""
        declarer = view.declarer
        if declarer is None or declarer == view.seat or aim.scale <= 0 or aim.bonus:
            return 1.0
        others = [s for s in range(len(state.hands)) if s != view.seat]
        taroks = {s: sum(1 for c in state.hands[s] if c.is_tarok) for s in others}
        even = sum(taroks.values()) / len(others)
        surplus = max(-8.0, min(8.0, taroks[declarer] - even))
        return math.exp(TAROK_WEIGHT * surplus)


def _solve(
    variant: TrickPlay[Any],
    state: HandState,
    aim: Objective,
    horizon: int,
    limit: int,
    deadline: float,
) -> tuple[dict[Card, int], int] | None:
    """`solve_state` stopped at the node limit or at the deadline."""
    left = deadline - time.perf_counter()
    if left <= 0:
        return None
    return solve_state(variant, state, aim, horizon, limit, seconds=left)
