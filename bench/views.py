"""View benchmark: the cost of building a HandView with ids and labels, per locale.

Builds `codec.hand_view_msg` for every state of seeded random hands of one rule set (as seen by
the seat to move), with no locale (the rule sets' own English labels), then in each locale, and
prints microseconds per view (best of `--repeat` rounds). Usage:
python bench/views.py [--variant slovenian] [--hands 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.engine.state import HandState
from tarok_service.server.present import codec
from tarok_service.server.present.i18n import LOCALES, Labels
from tarok_service.variants.registry import find_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    variant = find_variant(args.variant)
    rules = variant.make_rules(variant.player_counts[0])
    deck = variant.deck(rules)
    states: list[HandState] = []
    rng = random.Random(1)
    for _ in range(args.hands):
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, 0)
        while not state.finished:
            states.append(state)
            state = variant.apply(state, rng.choice(variant.legal_moves(state)))
        states.append(state)
    views = [(s, variant.view(s, s.turn)) for s in states]
    for locale in (None, *LOCALES):
        words = Labels(locale, variant.id) if locale is not None else None
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            for state, view in views:
                codec.hand_view_msg(variant, deck, state, view, words)
            best = min(best, time.perf_counter() - start)
        name = locale or "none"
        print(f"{args.variant} locale={name:<4} {best / len(views) * 1e6:7.0f} us per view")


if __name__ == "__main__":
    main()
