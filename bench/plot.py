"""Plot a bench/service.py JSON summary: latency percentiles against concurrency, per store.

    .venv/bin/python bench/plot.py bench/results/service.json docs/img/performance.png

One column per store. Top: SubmitMove p50 and p99 (solid), the bare echo server's p50 and
p99 measured in the same rounds (dashed) and, where the run measured it, the durable echo's
p50 (dotted: grpc.aio plus one append to the same kind of store), in milliseconds on a log
scale. Bottom: calls per second of each. The title carries the machine load the run saw.
Needs matplotlib (`make bench-deps`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def plot(summary: dict[str, Any], out: Path) -> None:
    import matplotlib  # a benchmark-only dependency (`make bench-deps`)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results: dict[str, dict[str, dict[str, float]]] = summary["results"]
    columns = len(results)
    fig, grid = plt.subplots(2, columns, figsize=(4.2 * columns, 6.6), sharey="row", squeeze=False)
    highest = 0.0
    for column, (store, by_c) in enumerate(results.items()):
        levels = sorted(by_c, key=int)
        xs = [int(c) for c in levels]
        top, bottom = grid[0][column], grid[1][column]
        for ax, lines in (
            (top, (
                ("p50_ms", "SubmitMove p50", "-o", "C0"),
                ("p99_ms", "SubmitMove p99", "-s", "C0"),
                ("echo_p50_ms", "bare echo p50", "--o", "C1"),
                ("echo_p99_ms", "bare echo p99", "--s", "C1"),
                ("floor_p50_ms", "durable echo p50", ":^", "C2"),
            )),
            (bottom, (
                ("rps", "SubmitMove", "-o", "C0"),
                ("echo_rps", "bare echo", "--o", "C1"),
                ("floor_rps", "durable echo", ":^", "C2"),
            )),
        ):  # fmt: skip
            for key, label, style, color in lines:
                if all(key in by_c[c] for c in levels):
                    values = [by_c[c][key] for c in levels]
                    ax.plot(xs, values, style, label=label, color=color)
                    if ax is bottom:
                        highest = max(highest, *values)
            ax.set_xscale("log", base=2)
            ax.set_xticks(xs, [str(x) for x in xs])
            ax.grid(True, which="both", alpha=0.3)
        top.set_title(store)
        top.set_yscale("log")
        bottom.set_xlabel("concurrent callers")
    grid[1][0].set_ylim(0, highest * 1.08)  # shared by the row
    grid[0][0].set_ylabel("latency (ms)")
    grid[1][0].set_ylabel("calls per second")
    grid[0][0].legend(fontsize="small")
    grid[1][0].legend(fontsize="small")
    fig.suptitle(
        f"SubmitMove vs bare and durable echo, medians of {summary['repetitions']} repetitions "
        f"({summary['cpus']} CPUs, load {summary['load_before']})",
        fontsize="medium",
    )
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary", help="JSON written by bench/service.py --json")
    parser.add_argument("out", nargs="?", default="docs/img/performance.png")
    args = parser.parse_args()
    plot(json.loads(Path(args.summary).read_text()), Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
