"""The versioning policy: wording is free, results of older rules are taken as recorded,
event types carry full names and versions, and old versions are upcast on reading."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.engine.outcome import HandResult, ScoreLine
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.server import errors as e
from tarok_service.server.model import events
from tarok_service.server.model.cache import apply_stored
from tarok_service.server.model.fold import FINISHED, TableState
from tarok_service.store import StoredEvent
from tarok_service.variants.registry import all_variants, find_variant

from .freeze import SPECS, Spec, play
from .frozen import FrozenLog, from_dict, load, log_id, paths


def replay(log: FrozenLog) -> TableState:
    table = apply_stored(None, log.stored[0].table_id, log.stored)
    assert table is not None
    return table


Scorer = Callable[[Variant[Any], HandState], HandResult | None]


def patch_results(
    monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """Make every variant's `result` reword its lines ("wording") or change its scores
    ("scores": a rule fix that moves points)."""
    for variant in all_variants():
        cls = type(variant)
        original = cls.result

        def result(
            self: Variant[Any], state: HandState, _orig: Scorer = original
        ) -> HandResult | None:
            out = _orig(self, state)
            if out is None:
                return None
            if change == "wording":
                lines = tuple(
                    ScoreLine(f"Reworded: {x.item.upper()}!", x.points, x.seats)
                    for x in out.lines
                )
                return replace(out, lines=lines)
            return replace(out, scores=tuple(2 * s + 1 for s in out.scores))

        monkeypatch.setattr(cls, "result", result)


def fresh(spec: Spec) -> FrozenLog:
    """A log played now, under the engine's current rules (so its results are re-derived)."""
    return from_dict(play(spec), "current")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_rewording_score_lines_keeps_current_logs_replaying(
    spec: Spec, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = fresh(spec)
    patch_results(monkeypatch, "wording")
    table = replay(log)
    assert table.status == FINISHED
    assert list(table.match.totals) == log.final_totals
    if table.last_result is not None and table.last_result.lines:
        assert table.last_result.lines[0].item.startswith("Reworded: ")


def test_a_rule_change_that_moves_points_is_caught_for_current_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = fresh(SPECS[0])
    patch_results(monkeypatch, "scores")
    with pytest.raises(e.ReplayMismatch):
        replay(log)


@pytest.fixture
def newer_rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every variant one rules version on, so that the frozen logs are older."""
    versions = {type(v): v.rules_version for v in all_variants()}
    for cls, version in versions.items():
        monkeypatch.setattr(cls, "rules_version", version + 1)
    yield


@pytest.mark.usefixtures("newer_rules")
@pytest.mark.parametrize("path", paths(), ids=log_id)
def test_tables_of_older_rules_replay_with_their_recorded_results(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = load(path)
    patch_results(monkeypatch, "scores")  # the new rules would score every hand differently
    table = replay(log)
    assert table.rules_version == log.rules_version and not table.rules_current
    assert table.status == FINISHED
    assert list(table.match.totals) == log.final_totals
    assert table.last_settled is not None
    assert table.match.played == sum(1 for _ in log.hand_totals) - redeals(log)


def redeals(log: FrozenLog) -> int:
    scored = [events.decode(s) for s in log.stored if events.name_of(s) == events.HAND_SCORED]
    return sum(1 for p in scored if isinstance(p, ev.HandScored) and p.result.redeal)


def test_a_table_created_under_a_fake_older_rules_version_still_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = play(Spec("old-rules", "slovenian", 4, 6, 77))
    pairs = cast(list[list[str]], raw["events"])
    stored = [
        StoredEvent("old-rules", seq, kind, base64.b64decode(data), None, 0.0)
        for seq, (kind, data) in enumerate(pairs, start=1)
    ]
    created = events.decode(stored[0])
    assert isinstance(created, ev.TableCreated)
    created.rules_version = find_variant("slovenian").rules_version - 1
    stored[0] = replace(stored[0], payload=created.SerializeToString())
    totals = raw["final_totals"]
    patch_results(monkeypatch, "scores")
    table = apply_stored(None, "old-rules", stored)
    assert table is not None and not table.rules_current
    assert list(table.match.totals) == totals
    with pytest.raises(e.ReplayMismatch):  # the same log under today's version is checked
        apply_stored(None, "old-rules", [_today(stored[0]), *stored[1:]])


def _today(first: StoredEvent) -> StoredEvent:
    created = ev.TableCreated.FromString(first.payload)
    created.rules_version = find_variant(created.variant).rules_version
    return replace(first, payload=created.SerializeToString())


def test_events_are_written_with_full_names_and_versions() -> None:
    written = events.encode([ev.HandScored(), ev.MoveMade(), ev.TableClosed()])
    assert [w.type for w in written] == [
        "tarok.v1.HandScored@2",
        "tarok.v1.MoveMade@1",
        "tarok.v1.TableClosed@3",
    ]
    assert events.parse_type("HandScored") == ("tarok.v1.HandScored", 1)
    assert events.parse_type("tarok.v1.MoveMade@1") == ("tarok.v1.MoveMade", 1)


def test_an_upcaster_turns_an_old_version_into_the_current_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A made-up version 2 of MoveMade that moved the label into the move id's place."""

    def v1_to_v2(payload: bytes) -> bytes:
        old = ev.MoveMade.FromString(payload)
        new = ev.MoveMade(seat=old.seat, move_id=old.move_id, label=f"[{old.label}]")
        return new.SerializeToString()

    monkeypatch.setitem(events.SCHEMAS, events.MOVE_MADE, 2)
    monkeypatch.setitem(events.UPCASTERS, (events.MOVE_MADE, 1), v1_to_v2)
    old = ev.MoveMade(seat=1, move_id="play:T1", label="Play I").SerializeToString()
    for kind in ("MoveMade", "tarok.v1.MoveMade@1"):
        payload = events.decode(StoredEvent("t", 1, kind, old, None, 0.0))
        assert isinstance(payload, ev.MoveMade)
        assert payload.label == "[Play I]"
    current = events.decode(StoredEvent("t", 1, "tarok.v1.MoveMade@2", old, None, 0.0))
    assert isinstance(current, ev.MoveMade) and current.label == "Play I"
    with pytest.raises(ValueError, match="not readable"):
        events.decode(StoredEvent("t", 1, "tarok.v1.MoveMade@3", old, None, 0.0))


def test_a_recorded_settlement_is_checked_on_replay() -> None:
    log = fresh(SPECS[0])
    stored = list(log.stored)
    at = next(i for i, s in enumerate(stored) if events.name_of(s) == events.HAND_SCORED)
    scored = events.decode(stored[at])
    assert isinstance(scored, ev.HandScored) and scored.result.HasField("settled")
    line = scored.result.settled.lines[0]
    line.id = "radelc_double" if line.id != "radelc_double" else "hand_score"
    stored[at] = replace(stored[at], payload=scored.SerializeToString())
    with pytest.raises(e.ReplayMismatch, match="settlement"):
        apply_stored(None, stored[0].table_id, stored)
