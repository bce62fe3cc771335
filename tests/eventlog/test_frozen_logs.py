"""Logs recorded in an earlier format keep replaying to the totals they were recorded with."""

from __future__ import annotations

from pathlib import Path

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.server.model import events
from tarok_service.server.model.cache import apply_stored
from tarok_service.server.model.fold import FINISHED
from tarok_service.server.model.recorded import explains

from .frozen import load, log_id, paths


@pytest.mark.parametrize("directory", sorted({p.parent for p in paths()}), ids=log_id)
def test_every_variant_and_player_count_is_frozen_in_every_format(directory: Path) -> None:
    logs = [load(p) for p in paths() if p.parent == directory]
    covered = {(log.variant, log.players) for log in logs}
    assert covered >= {
        ("slovenian", 3),
        ("slovenian", 4),
        ("double_tarok", 4),
        ("double_tarok", 6),
        ("double_tarok", 8),
        ("tarocco_bolognese", 4),
        ("taroky", 4),
        ("zwanzigerrufen", 4),
    }


@pytest.mark.parametrize("path", paths(), ids=log_id)
def test_frozen_log_replays_to_its_totals(path: Path) -> None:
    log = load(path)
    table, start, seen = None, 0, []
    before: tuple[int, ...] = (0,) * log.players
    for end, item in enumerate(log.stored, start=1):
        if events.name_of(item) == events.HAND_SCORED:
            table = apply_stored(table, item.table_id, log.stored[start:end])
            assert table is not None and table.last_settled is not None
            assert explains(table.last_settled, before, table.match.totals)
            if "@" in item.type:  # written with settlements: each hand recorded its own
                scored = events.decode(item)
                assert isinstance(scored, ev.HandScored)
                assert scored.result.settled.amounts == list(table.last_settled.amounts)
            before = table.match.totals
            seen.append(list(before))
            start = end
    table = apply_stored(table, log.stored[0].table_id, log.stored[start:])
    assert table is not None and table.match.settled is not None
    assert explains(table.match.settled, before, table.match.totals)
    assert seen == log.hand_totals
    assert table.status == FINISHED
    assert list(table.match.totals) == log.final_totals
