"""Markdown tables for docs/performance.md from the benchmarks' JSON summaries.

    .venv/bin/python bench/tables.py bench/results/service.json bench/results/watch.json \
        bench/results/overhead.json

Each argument is a summary written with `--json` by bench/service.py, bench/watch.py or
bench/overhead.py (recognised by its "benchmark" field); the tables go to stdout.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def service(d: dict[str, Any]) -> list[str]:
    out = [
        f"`bench/service.py` ({d['date']}; medians of {d['repetitions']} repetitions; load "
        f"average {d['load_before']} before, {d['load_after']} after; {d['cpus']} CPUs):",
        "",
        "| store | callers | moves/s | echo/s | throughput ratio | p50 ms (echo) | p50 ratio "
        "| p99 ms (echo) | p99 ratio | server CPU per call, us (echo) | CPU ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for store, by_c in d["results"].items():
        for c, r in by_c.items():
            cpu_ratio = r.get("cpu_ratio", r["cpu_us"] / r["echo_cpu_us"])
            out.append(
                f"| {store} | {c} | {r['rps']:.0f} | {r['echo_rps']:.0f} | {r['rps_ratio']:.2f} "
                f"| {r['p50_ms']:.2f} ({r['echo_p50_ms']:.2f}) | {r['p50_ratio']:.2f} "
                f"| {r['p99_ms']:.1f} ({r['echo_p99_ms']:.1f}) | {r['p99_ratio']:.2f} "
                f"| {r['cpu_us']:.0f} ({r['echo_cpu_us']:.0f}) | {cpu_ratio:.2f} |"
            )
    return out + floor_table(d["results"]) + plain_floor_table(d["results"])


def floor_table(results: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """SubmitMove against the durable echo, where the run measured it (else nothing)."""
    intro = (
        "Against the durable echo (`bench/echo_server.py --store`: grpc.aio and one append to "
        "the same kind of store per call, nothing else), in the same rounds:"
    )
    return _echo_floor(results, "floor", intro, "durable echo", "durable")


def plain_floor_table(results: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """SubmitMove against the independent durable echo, where the run measured it."""
    intro = (
        "Against the independent durable echo (`bench/echo_server.py --plain-sqlite`: grpc.aio "
        "and a plain sqlite3 writer thread, group commit, WAL; none of our store), in the same "
        "rounds:"
    )
    return _echo_floor(results, "plain", intro, "plain durable echo", "plain")


def _echo_floor(
    results: dict[str, dict[str, dict[str, Any]]], key: str, intro: str, name: str, short: str
) -> list[str]:
    """SubmitMove against one kind of echo floor (the `<key>_*` figures of each round)."""
    floors = [(s, c, r) for s, by_c in results.items() for c, r in by_c.items()
              if f"{key}_rps" in r]  # fmt: skip
    if not floors:
        return []
    out = [
        "",
        intro,
        "",
        f"| store | callers | moves/s | {name}/s | {short} / bare echo | moves / {short} "
        f"echo | p50 ms ({short} echo) | p50 ratio | server CPU per call, us ({short} echo) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for store, c, r in floors:
        out.append(
            f"| {store} | {c} | {r['rps']:.0f} | {r[f'{key}_rps']:.0f} "
            f"| {r[f'{key}_echo_ratio']:.2f} | {r[f'{key}_rps_ratio']:.2f} "
            f"| {r['p50_ms']:.2f} ({r[f'{key}_p50_ms']:.2f}) | {r[f'{key}_p50_ratio']:.2f} "
            f"| {r['cpu_us']:.0f} ({r[f'{key}_cpu_us']:.0f}) |"
        )
    return out


def watch(d: dict[str, Any]) -> list[str]:
    out = [
        f"`bench/watch.py` ({d['date']}; moves {d['interval_s'] * 1000:.0f} ms apart; medians "
        f"of {d['repetitions']} repetitions; load average {d['load_before']} before, "
        f"{d['load_after']} after; {d['cpus']} CPUs):",
        "",
        "| watchers | delivery p50 ms | delivery p99 ms | mover p50 ms (unwatched) | mover ratio |",
        "|---|---|---|---|---|",
    ]
    for n, r in d["results"].items():
        out.append(
            f"| {n} | {r['delivery_p50_ms']:.1f} | {r['delivery_p99_ms']:.1f} "
            f"| {r['mover_p50_ms']:.2f} ({r['mover_alone_p50_ms']:.2f}) "
            f"| {r['mover_ratio']:.2f} |"
        )
    return out


def overhead(d: dict[str, Any]) -> list[str]:
    return [
        f"`bench/overhead.py` (median of {d['repetitions']} x {d['calls']} calls; load "
        f"average {d['load']}): interceptor + access log **{d['on_loop_us']:.1f} us per call "
        f"on the event loop**, {d['total_cpu_us']:.1f} us of CPU per call in all (the log "
        "writer thread included)."
    ]


KINDS = {"service": service, "watch": watch, "overhead": overhead}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summaries", nargs="+")
    args = parser.parse_args()
    for path in args.summaries:
        data = json.loads(Path(path).read_text())
        kind = data.get("benchmark") if isinstance(data, dict) else None
        if kind not in KINDS:  # another script's results (the ladder's, bench/memory.py's)
            print(f"{path}: not a service, watch or overhead summary; skipped\n")
            continue
        print("\n".join(KINDS[kind](data)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
