"""Perft for the rule sets: the number of distinct legal move sequences from a position.

A golden file per rule set (tests/data/perft/<variant>.txt) holds a few fixed positions, each
a written-out deal, the moves played before counting and, per depth, the count. Any change to
what is legal changes a count. Lines:

    <players> | <dealer> | <deal order, card codes> | <moves before, ids> | <depth>:<count> ...

Regenerate (only after a deliberate rule change, and say so in the commit):

    .venv/bin/python -m tests.engine.perft --write
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import all_variants

DATA = Path(__file__).resolve().parent.parent / "data" / "perft"
DEPTHS = {"auction": (1, 2, 3, 4, 5), "play": (1, 2, 3, 4, 5)}


@dataclass(frozen=True)
class Position:
    players: int
    dealer: int
    order: tuple[str, ...]
    before: tuple[str, ...]
    counts: tuple[tuple[int, int], ...]  # (depth, count)

    def state(self, variant: Variant[Any]) -> HandState:
        rules = variant.make_rules(self.players)
        deck = variant.deck(rules)
        state: HandState = variant.deal(rules, [deck.card(c) for c in self.order], self.dealer)
        for move_id in self.before:
            state = variant.apply(state, Move.parse(move_id))
        return state

    def line(self) -> str:
        counts = " ".join(f"{d}:{n}" for d, n in self.counts)
        fields = (str(self.players), str(self.dealer), " ".join(self.order), " ".join(self.before))
        return " | ".join((*fields, counts))

    @staticmethod
    def parse(line: str) -> Position:
        players, dealer, order, before, counts = (f.strip() for f in line.split("|"))
        pairs = tuple(tuple(int(x) for x in c.split(":")) for c in counts.split())
        return Position(
            int(players),
            int(dealer),
            tuple(order.split()),
            tuple(before.split()),
            tuple((d, n) for d, n in pairs),
        )


def perft(variant: Variant[Any], state: HandState, depth: int) -> int:
    """Distinct legal move sequences of length `depth`; a finished hand ends a sequence."""
    if depth == 0 or state.finished:
        return 1
    return sum(
        perft(variant, variant.apply(state, move, check=False), depth - 1)
        for move in variant.legal_moves(state)
    )


def load(variant_id: str) -> list[Position]:
    text = (DATA / f"{variant_id}.txt").read_text(encoding="utf-8")
    return [Position.parse(x) for x in text.splitlines() if x.strip() and not x.startswith("#")]


def _prefix(variant: Variant[Any], state: HandState, rng: random.Random) -> tuple[str, ...]:
    """Moves to a position a few cards into trick play: passes where allowed, else random."""
    moves: list[str] = []
    plays = 0
    while not state.finished and plays < 3:
        legal = variant.legal_moves(state)
        passes = [mv for mv in legal if mv.kind == "pass"]
        move = passes[0] if passes else rng.choice(legal)
        plays += move.kind == "play"
        moves.append(move.id)
        state = variant.apply(state, move)
    return tuple(moves)


def generate(variant: Variant[Any]) -> list[Position]:
    """Two deals per player count: counted from the deal, and from a few cards into play."""
    out: list[Position] = []
    for players in variant.player_counts:
        rules = variant.make_rules(players)
        deck = variant.deck(rules)
        for seed in range(2):
            rng = random.Random(f"{variant.id}-{players}-{seed}")
            cards = list(deck.cards)
            dealer = rng.randrange(players)
            while True:
                rng.shuffle(cards)
                state = variant.deal(rules, cards, dealer)
                if not state.finished:
                    break
            before = _prefix(variant, state, rng) if seed else ()
            start = state
            for move_id in before:
                start = variant.apply(start, Move.parse(move_id))
            depths = DEPTHS["play" if seed else "auction"]
            counts = tuple((d, perft(variant, start, d)) for d in depths)
            order = tuple(deck.codes[c] for c in cards)
            out.append(Position(players, dealer, order, before, counts))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    args = parser.parse_args()
    for variant in all_variants():
        positions = generate(variant)
        text = "# players | dealer | deal order | moves before | depth:count ...\n"
        text += "".join(p.line() + "\n" for p in positions)
        if args.write:
            (DATA / f"{variant.id}.txt").write_text(text, encoding="utf-8")
        print(variant.id, [p.counts for p in positions])


if __name__ == "__main__":
    main()
