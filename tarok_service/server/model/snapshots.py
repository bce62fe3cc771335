"""Snapshots of a table's match state right after a HandScored, kept beside the log.

A snapshot is derivable from the log (it is the state folded up to its HandScored), so it
is an optimisation like the cache: a cold load starts from the latest one and folds only the
events after it, and a missing or unusable snapshot just means a longer replay.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tarok_proto.tarok.v1 import events_pb2 as ev

from . import recorded, wire

if TYPE_CHECKING:
    from .fold import TableState

# The TableSnapshot format (2: bots, generations, commitment; 3: player_ids); a snapshot of
# another format is ignored (the table is replayed instead).
SCHEMA = 3


def snapshot_of(table: TableState) -> ev.TableSnapshot:
    """The snapshot of `table` right after the HandScored at `table.version`."""
    assert table.hand_done and table.last_result is not None
    result = wire.result_msg(table.last_result)
    if table.last_settled is not None:
        result.settled.CopyFrom(recorded.settlement_msg(table.last_settled))
    match = table.match
    return ev.TableSnapshot(
        seq=table.version,
        schema=SCHEMA,
        seats=[name or "" for name in table.seats],
        played=match.played,
        dealer=match.dealer,
        totals=match.totals,
        radelci=match.radelci,
        pot=match.pot,
        deal_number=table.deal_number,
        timeouts=table.timeouts,
        last_result=result,
        bots=table.bots,
        generations=table.generations,
        commitment=table.commitment,
        player_ids=table.player_ids,
    )


def usable(snapshot: ev.TableSnapshot, scored: ev.HandScored, players: int) -> bool:
    """Whether a snapshot fits its table and agrees with the HandScored it follows."""
    return (
        snapshot.schema == SCHEMA
        and len(snapshot.seats) == players
        and len(snapshot.timeouts) == players
        and len(snapshot.bots) == players
        and len(snapshot.generations) == players
        and len(snapshot.player_ids) == players
        and (snapshot.totals, snapshot.radelci, snapshot.pot)
        == (scored.totals, scored.radelci, scored.pot)
    )


def restore(created: TableState, snapshot: ev.TableSnapshot) -> TableState:
    """The table at the snapshot's seq, from its state right after TableCreated."""
    from .fold import PLAYING

    settled = (
        recorded.settlement_of(snapshot.last_result.settled)
        if snapshot.last_result.HasField("settled")
        else None
    )
    match = replace(
        created.match,
        played=snapshot.played,
        dealer=snapshot.dealer,
        totals=tuple(snapshot.totals),
        radelci=tuple(snapshot.radelci),
        pot=snapshot.pot,
        settled=settled,
    )
    return replace(
        created,
        version=snapshot.seq,
        seats=tuple(name or None for name in snapshot.seats),
        match=match,
        status=PLAYING,
        deal_number=snapshot.deal_number,
        last_result=recorded.result_of(snapshot.last_result),
        hand_done=True,
        timeouts=tuple(snapshot.timeouts),
        bots=tuple(snapshot.bots),
        generations=tuple(snapshot.generations),
        player_ids=tuple(snapshot.player_ids),
        commitment=snapshot.commitment,
        last_settled=settled,
        checkpoint=snapshot,
    )
