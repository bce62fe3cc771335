"""Duplicate duels through the engine."""

from __future__ import annotations

import math

from tarok_service.bots import make_bot
from tarok_service.bots.arena import duel, duel_parallel, main


def test_a_bot_against_itself_scores_zero_in_duplicate() -> None:
    """The heuristic is deterministic: both plays of a deal are the same hand with the seats'
    bots swapped, so A and B get exactly the same scores."""
    stats = duel("slovenian", 4, "heuristic", "heuristic", deals=6, seed=3)
    assert stats.deals == 6
    assert stats.diffs == [0.0] * 6
    assert stats.mean == 0.0 and stats.ci95 == 0.0


def test_heuristic_beats_uniform_random() -> None:
    stats = duel("slovenian", 4, "heuristic", "random", deals=12, seed=1)
    assert stats.mean - stats.ci95 > 0
    assert sum(stats.contracts.values()) == 12


def test_three_players_and_factories() -> None:
    stats = duel(
        "slovenian", 3, lambda seed: make_bot("pimc", seed, budget=0.002, max_samples=2),
        "heuristic", deals=2, seed=5,
    )  # fmt: skip
    assert stats.deals == 2 and all(math.isfinite(d) for d in stats.diffs)


def test_other_variants_and_time_limit() -> None:
    for variant, players in (("taroky", 4), ("zwanzigerrufen", 4), ("double_tarok", 6)):
        stats = duel(variant, players, "heuristic", "random", deals=3, seed=1)
        assert stats.deals == 3 and len(stats.diffs) == 3
        stopped = duel(variant, players, "heuristic", "random", deals=50, seed=1, seconds=0.0)
        assert stopped.deals == 0  # the time limit is checked before every deal


def test_command_line(capsys: object) -> None:
    assert (
        main(["--a", "heuristic", "--b", "random", "--b-opt", "pass_bias=0.7", "--deals", "3"]) == 0
    )


def test_parallel_duel_merges_the_jobs() -> None:
    bots: tuple[tuple[str, dict[str, object]], tuple[str, dict[str, object]]] = (
        ("heuristic", {}),
        ("random", {"pass_bias": 0.7}),
    )
    stats = duel_parallel("slovenian", 4, bots, deals=4, seed=2, jobs=2)
    assert stats.deals == 4 and stats.bot_a == "heuristic"
