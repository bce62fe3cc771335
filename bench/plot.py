"""Plot a bench/service.py JSON summary: latency percentiles against concurrency, per store.

    .venv/bin/python bench/plot.py bench/results/service.json docs/img/performance.png

One panel per store: SubmitMove p50 and p99 (solid) and the bare echo server's p50 and p99
measured in the same rounds (dashed), in milliseconds on a log scale; the title carries the
machine load the run saw. Needs matplotlib (`make bench-deps`).
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
    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.8), sharey=True)
    axes = axes if len(results) > 1 else [axes]
    for ax, (store, by_c) in zip(axes, results.items(), strict=True):
        levels = sorted(by_c, key=int)
        xs = [int(c) for c in levels]
        for key, label, style in (
            ("p50_ms", "SubmitMove p50", "-o"),
            ("p99_ms", "SubmitMove p99", "-s"),
            ("echo_p50_ms", "echo p50", "--o"),
            ("echo_p99_ms", "echo p99", "--s"),
        ):
            ax.plot(xs, [by_c[c][key] for c in levels], style, label=label)
        ax.set_title(store)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.set_xlabel("concurrent callers")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("latency (ms)")
    axes[0].legend(fontsize="small")
    fig.suptitle(
        f"SubmitMove vs bare echo, medians of {summary['repetitions']} repetitions "
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
