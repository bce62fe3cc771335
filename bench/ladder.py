"""The strength ladder: duplicate duels between every pair of bot levels (easy, medium, hard,
expert), each deal played twice with the seats swapped (`tarok_service.bots.arena`).

Prints, per pairing, the first level's mean edge in points per seat-hand over the second's
with its 95% confidence interval, and the time of each level's card decisions (mean, p99,
max) against its budget. Results are appended to `--json` after every pairing, so a run cut
short keeps what it measured.

Usage: python bench/ladder.py [--variant slovenian] [--players 4] [--deals 40]
           [--pairs expert:hard ...] [--seconds 600] [--jobs 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarok_service.bots.arena import DuelStats, duel
from tarok_service.bots.base import Bot, make_bot
from tarok_service.bots.levels import LEVELS
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.state import TRICKS
from tarok_service.engine.variant import Variant
from tarok_service.engine.view import View

TIMES: dict[str, list[float]] = {}  # each level's card decisions (more than one legal card)
CPU: dict[str, list[float]] = {}  # the same decisions' CPU time (the thread's own)


class Timed:
    """A level's bot whose card decisions are timed into `TIMES`."""

    def __init__(self, level: str, bot: Bot) -> None:
        self.level, self.bot, self.name = level, bot, level

    def choose(self, view: View, variant: Variant[Any], rules: Rules) -> Move:
        start, cpu = time.perf_counter(), time.thread_time()
        move = self.bot.choose(view, variant, rules)
        if view.phase == TRICKS and len(view.legal) > 1:
            TIMES.setdefault(self.level, []).append(time.perf_counter() - start)
            CPU.setdefault(self.level, []).append(time.thread_time() - cpu)
        return move


def factory(level: str) -> Any:
    def make(seed: int) -> Bot:
        return Timed(level, make_bot(level, seed))

    make.__name__ = level
    return make


def timing(level: str) -> dict[str, float]:
    found = sorted(TIMES.get(level, []))
    if not found:
        return {}
    cpu = sorted(CPU[level])
    return {"decisions": len(found), "mean": statistics.fmean(found), "p99": _p99(found),
            "max": found[-1], "cpu_p99": _p99(cpu), "cpu_max": cpu[-1]}  # fmt: skip


def _p99(found: list[float]) -> float:
    return found[min(len(found) - 1, int(0.99 * len(found)))]


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as the table of docs/bots.md."""
    lines = [
        "| rule set | A - B | points per seat-hand (95% CI) | duplicate deals | A's card "
        "decisions: wall p99 / CPU p99 |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        t = r["timing"].get(r["a"], {})
        timing = f"{t['p99'] * 1000:.0f} / {t['cpu_p99'] * 1000:.0f} ms" if t else "-"
        lines.append(
            f"| {r['variant']} {r['players']}p | {r['a']} - {r['b']} | "
            f"{r['mean']:+.2f} ± {r['ci95']:.2f} | {r['deals']} | {timing} |"
        )
    return "\n".join(lines)


def merged(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the same pairing (rule set, players, A, B) that keep their per-deal differences
    become one: the mean and 95% CI of all their deals; timing p99s: the largest of the runs'
    (a bound, not the p99 of the union). Rows without differences stay as they are."""
    out: list[dict[str, Any]] = []
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        if "diffs" not in row:
            out.append(row)
            continue
        key = (row["variant"], row["players"], row["a"], row["b"])
        into = groups.get(key)
        if into is None:
            groups[key] = into = {**row, "diffs": list(row["diffs"]), "timing": dict(row["timing"])}
            out.append(into)
            continue
        into["diffs"] += row["diffs"]
        into["seconds"] += row["seconds"]
        for level, t in row["timing"].items():
            mine = into["timing"].get(level) or {}
            into["timing"][level] = {k: max(v, mine.get(k, v)) for k, v in t.items()}
    for into in groups.values():
        diffs = into["diffs"]
        into["deals"] = len(diffs)
        into["mean"] = statistics.fmean(diffs) if diffs else 0.0
        into["ci95"] = (
            1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="slovenian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40, help="duplicate deals per pairing")
    parser.add_argument("--pairs", nargs="*", default=None, help="a:b pairs (default: all)")
    parser.add_argument("--seconds", type=float, default=None, help="cap per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--table", type=Path, nargs="*", default=None,
        help="print the results in these --json files as a markdown table (runs of one pairing "
        "merged), and stop",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.table is not None:
        print(
            markdown(merged([row for path in args.table for row in json.loads(path.read_text())]))
        )
        return 0
    pairs = (
        [tuple(p.split(":", 1)) for p in args.pairs]
        if args.pairs
        else list(itertools.combinations(reversed(LEVELS), 2))
    )
    rows: list[dict[str, Any]] = []
    for a, b in pairs:
        TIMES.clear()
        CPU.clear()
        stats: DuelStats = duel(
            args.variant, args.players, factory(a), factory(b), args.deals, args.seed,
            args.seconds,
        )  # fmt: skip
        row = {
            "variant": args.variant, "players": args.players, "a": a, "b": b,
            "deals": stats.deals, "mean": stats.mean, "ci95": stats.ci95,
            "seconds": stats.seconds, "timing": {a: timing(a), b: timing(b)},
            "diffs": stats.diffs,
        }  # fmt: skip
        rows.append(row)
        print(stats.summary(), flush=True)
        for level in (a, b):
            t = timing(level)
            if t:
                print(f"  {level}: {t['decisions']:.0f} card decisions, mean "
                      f"{t['mean'] * 1000:.0f} ms, p99 {t['p99'] * 1000:.0f} ms, "
                      f"max {t['max'] * 1000:.0f} ms; CPU p99 {t['cpu_p99'] * 1000:.0f} ms, "
                      f"max {t['cpu_max'] * 1000:.0f} ms", flush=True)  # fmt: skip
        if args.json is not None:
            args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
