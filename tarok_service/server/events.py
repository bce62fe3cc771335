"""Event payloads: protobuf messages stored as (type name, bytes) in the event store."""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp
from tarok_proto.tarok.v1 import events_pb2 as ev

from ..store import NewEvent, StoredEvent

TABLE_CREATED = "TableCreated"
PLAYER_SEATED = "PlayerSeated"
HAND_DEALT = "HandDealt"
MOVE_MADE = "MoveMade"
HAND_SCORED = "HandScored"
TABLE_CLOSED = "TableClosed"
TIMED_OUT = "TimedOut"
PLAYER_LEFT = "PlayerLeft"

Payload = (
    ev.TableCreated
    | ev.PlayerSeated
    | ev.HandDealt
    | ev.MoveMade
    | ev.HandScored
    | ev.TableClosed
    | ev.TimedOut
    | ev.PlayerLeft
)

CLASSES: dict[str, type[Message]] = {
    TABLE_CREATED: ev.TableCreated,
    PLAYER_SEATED: ev.PlayerSeated,
    HAND_DEALT: ev.HandDealt,
    MOVE_MADE: ev.MoveMade,
    HAND_SCORED: ev.HandScored,
    TABLE_CLOSED: ev.TableClosed,
    TIMED_OUT: ev.TimedOut,
    PLAYER_LEFT: ev.PlayerLeft,
}
FIELDS = {
    TABLE_CREATED: "table_created",
    PLAYER_SEATED: "player_seated",
    HAND_DEALT: "hand_dealt",
    MOVE_MADE: "move_made",
    HAND_SCORED: "hand_scored",
    TABLE_CLOSED: "table_closed",
    TIMED_OUT: "timed_out",
    PLAYER_LEFT: "player_left",
}


def type_of(payload: Payload) -> str:
    return payload.DESCRIPTOR.name


def encode(payloads: Sequence[Payload], request_id: str | None = None) -> list[NewEvent]:
    """Store records for `payloads`; only the first carries the request id."""
    return [
        NewEvent(type_of(p), p.SerializeToString(), request_id if i == 0 else None)
        for i, p in enumerate(payloads)
    ]


def decode(stored: StoredEvent) -> Payload:
    """The payload message of a stored event; ValueError for an unknown type."""
    cls = CLASSES.get(stored.type)
    if cls is None:
        raise ValueError(f"unknown event type {stored.type!r} at {stored.table_id}#{stored.seq}")
    message = cls.FromString(stored.payload)
    assert isinstance(message, Payload)
    return message


def timestamp(seconds: float) -> Timestamp:
    whole = int(seconds)
    return Timestamp(seconds=whole, nanos=int((seconds - whole) * 1e9))


def seconds(stamp: Timestamp) -> float:
    """A Timestamp as unix seconds."""
    return stamp.seconds + stamp.nanos / 1e9


def envelope(version: int, time: float, payload: Payload) -> ev.Event:
    """An `Event` log entry wrapping one payload."""
    event = ev.Event(version=version, time=timestamp(time))
    getattr(event, FIELDS[type_of(payload)]).CopyFrom(payload)
    return event
