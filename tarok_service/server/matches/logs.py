"""The logs of the players' games in the event store: their ids, entries and appends.

- `history.<player id>`: one TablePlayed per finished table the player sat at;
- `freeratings.<variant>.<players>`: one RatingsUpdated per rated table that finished;
- `matchqueue.<variant>.<players>.<rated|casual>`: the matchmaking tickets and the tables made.

Every replica reads them from the store alone; nothing here lives only in memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from google.protobuf.message import Message
from tarok_proto.tarok.v1 import matches_pb2 as mt

from ...store import NewEvent, StoredEvent

Body = (
    mt.TablePlayed
    | mt.RatingsUpdated
    | mt.MatchTicketOpened
    | mt.MatchTicketRenewed
    | mt.MatchTicketClosed
    | mt.MatchMade
)
# Every entry type of these logs, by name: the members of `Body`, listed once.
CLASSES: dict[str, type[Message]] = {cls.DESCRIPTOR.name: cls for cls in get_args(Body)}


def history_log(player_id: str) -> str:
    return f"history.{player_id}"


def ratings_log(variant: str, players: int) -> str:
    return f"freeratings.{variant}.{players}"


def queue_log(variant: str, players: int, rated: bool) -> str:
    return f"matchqueue.{variant}.{players}.{'rated' if rated else 'casual'}"


def encode(bodies: Sequence[Body], request_id: str | None = None) -> list[NewEvent]:
    """The entries to append; the first carries `request_id` (a repeat is then refused)."""
    return [
        NewEvent(b.DESCRIPTOR.name, b.SerializeToString(), request_id if i == 0 else None)
        for i, b in enumerate(bodies)
    ]


def decode(stored: StoredEvent) -> Body:
    cls = CLASSES.get(stored.type)
    if cls is None:
        raise ValueError(f"unknown entry {stored.type!r} at {stored.table_id}")
    body = cls.FromString(stored.payload)
    assert isinstance(body, Body)
    return body
