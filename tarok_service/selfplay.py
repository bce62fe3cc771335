"""`tarok selfplay`: seeded random legal games through the engine, with invariant checks."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine.cards import Card
from .engine.match import MatchState
from .engine.moves import Move, MoveKind
from .engine.outcome import HandResult
from .engine.state import HandState
from .engine.variant import Variant
from .variants.registry import find_variant


def choose(moves: Sequence[Move], rng: random.Random, pass_rate: float) -> Move:
    """A random legal move; in auctions a pass with probability `pass_rate`, so that every
    contract, from the forced forehand ones to valat, is reached over many games."""
    passes = [mv for mv in moves if mv.kind == MoveKind.PASS]
    bids = [mv for mv in moves if mv.kind == MoveKind.BID]
    if bids and passes and rng.random() < pass_rate:
        return passes[0]
    if bids:
        return bids[0] if rng.random() < 0.7 else rng.choice(bids)
    return rng.choice(list(moves))


def card_census(state: HandState) -> Counter[Card]:
    """Every card of the hand, wherever it is now."""
    seen: Counter[Card] = Counter()
    for group in (*state.hands, *state.piles, state.talon, [c for _, c in state.trick]):
        seen.update(group)
    return seen


def check_hand(variant: Variant[Any], state: HandState, result: HandResult) -> list[str]:
    """Invariants every finished hand must keep."""
    errors = []
    if card_census(state) != Counter(variant.deck(state.rules).cards):
        errors.append("cards not conserved")
    if not result.redeal:
        for seat in range(state.players):
            own = sum(line.points for line in result.lines if seat in line.seats)
            team = sum(line.points for line in result.lines if not line.seats)
            expected = own + (team if seat in result.team else 0)
            if result.scores[seat] != expected:
                errors.append(f"seat {seat} score {result.scores[seat]} != lines {expected}")
    errors += variant.invariants(state, result)
    return errors


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    contracts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def play_hand(
    variant: Variant[Any], state: HandState, rng: random.Random, pass_rate: float, tally: Tally
) -> HandResult:
    while not state.finished:
        moves = variant.legal_moves(state)
        if not moves:
            tally.failures.append(f"no legal move in phase {state.phase}")
            break
        state = variant.apply(state, choose(moves, rng, pass_rate))
        tally.moves += 1
    result = variant.result(state)
    assert result is not None
    tally.failures += check_hand(variant, state, result)
    return result


def run(variant: Variant[Any], players: int, games: int, seed: int, pass_rate: float) -> Tally:
    rng = random.Random(seed)
    rules = variant.make_rules(players)
    tally = Tally()
    while tally.games < games:
        match = MatchState.start(players, 1, rng.randrange(players), rules)
        order = list(variant.deck(rules).cards)
        rng.shuffle(order)
        result = play_hand(variant, variant.deal(rules, order, match.dealer), rng, pass_rate, tally)
        variant.close(variant.settle(match, result))
        tally.contracts[result.contract] += 1
        if not result.redeal:
            tally.games += 1
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tarok selfplay", description=__doc__)
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pass-rate", type=float, default=0.6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        variant = find_variant(args.variant)
        variant.make_rules(args.players)
    except (KeyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    tally = run(variant, args.players, args.games, args.seed, args.pass_rate)
    elapsed = time.perf_counter() - start
    summary = {
        "variant": variant.id,
        "players": args.players,
        "games": tally.games,
        "moves": tally.moves,
        "contracts": dict(sorted(tally.contracts.items())),
        "failures": len(tally.failures),
        "games_per_second": round(tally.games / elapsed, 1),
    }
    out = sys.stderr if args.json else sys.stdout  # --json: stdout holds the JSON alone
    print(
        f"{variant.name}, {args.players} players: {tally.games} games, {tally.moves} moves, "
        f"{summary['games_per_second']} games/s",
        file=out,
    )
    for name, count in tally.contracts.most_common():
        print(f"  {name:<16} {count}", file=out)
    for failure in tally.failures[:20]:
        print(f"FAILURE: {failure}", file=out)
    print(f"invariant failures: {len(tally.failures)}", file=out)
    if args.json:
        print(json.dumps(summary))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
