"""Event payloads: protobuf messages stored as (type name, bytes) in the event store."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...store import NewEvent, StoredEvent


def _body() -> list[tuple[str, str, type[Message]]]:
    """(type name, oneof field, message class) of each message of `Event.body`: the event
    types of a table's log are registered once, in events.proto, and read from there."""
    out = []
    for field in ev.Event.DESCRIPTOR.oneofs_by_name["body"].fields:
        message = field.message_type
        assert message is not None
        out.append((message.full_name, field.name, getattr(ev, message.name)))
    return out


_BODY = _body()
CLASSES: dict[str, type[Message]] = {name: cls for name, _, cls in _BODY}
FIELDS: dict[str, str] = {name: field for name, field, _ in _BODY}

TABLE_CREATED = ev.TableCreated.DESCRIPTOR.full_name
PLAYER_SEATED = ev.PlayerSeated.DESCRIPTOR.full_name
HAND_DEALT = ev.HandDealt.DESCRIPTOR.full_name
MOVE_MADE = ev.MoveMade.DESCRIPTOR.full_name
HAND_SCORED = ev.HandScored.DESCRIPTOR.full_name
TABLE_CLOSED = ev.TableClosed.DESCRIPTOR.full_name
TIMED_OUT = ev.TimedOut.DESCRIPTOR.full_name
PLAYER_LEFT = ev.PlayerLeft.DESCRIPTOR.full_name
SEAT_HANDED_TO_BOT = ev.SeatHandedToBot.DESCRIPTOR.full_name

# The payload type for the type checker (a test holds it equal to CLASSES).
Payload = (
    ev.TableCreated
    | ev.PlayerSeated
    | ev.HandDealt
    | ev.MoveMade
    | ev.HandScored
    | ev.TableClosed
    | ev.TimedOut
    | ev.PlayerLeft
    | ev.SeatHandedToBot
)

# The schema version each event type is written with today. Raise it when the meaning of a
# recorded field changes, and register an upcaster from the old version in UPCASTERS.
SCHEMAS: dict[str, int] = {name: 1 for name in CLASSES}
SCHEMAS[HAND_SCORED] = 2  # 2: result.settled (what the hand credited, line by line)
SCHEMAS[TABLE_CLOSED] = 3  # 2: adjustments (the end-of-match lines); 3: closed_by, reason
SCHEMAS[PLAYER_SEATED] = 2  # 2: player_id (the signed-in player of the seat)

Upcaster = Callable[[bytes], bytes]


def _unchanged(payload: bytes) -> bytes:
    """An upcast that only adds optional fields: the old bytes read as the new version, the
    fields missing (the fold derives a missing settlement on replay)."""
    return payload


# (type name, version) -> the function that turns that version's payload into the next one's.
UPCASTERS: dict[tuple[str, int], Upcaster] = {
    (HAND_SCORED, 1): _unchanged,
    (TABLE_CLOSED, 1): _unchanged,
    (TABLE_CLOSED, 2): _unchanged,  # closed at its end, not by an operator
    (PLAYER_SEATED, 1): _unchanged,  # a seat of before sign-in: anonymous ("")
}
# Logs written before full names and versions stored the message's short name (version 1).
LEGACY_NAMES = {name.rsplit(".", 1)[1]: name for name in CLASSES}
_SEPARATOR = "@"


def stored_type(name: str) -> str:
    """The type column for an event type written today: full name @ schema version."""
    return f"{name}{_SEPARATOR}{SCHEMAS[name]}"


def parse_type(stored: str) -> tuple[str, int]:
    """(full type name, schema version) of a type column, old short names included."""
    name, sep, version = stored.partition(_SEPARATOR)
    if not sep:
        return LEGACY_NAMES.get(name, name), 1
    return name, int(version) if version.isdigit() else 0


def name_of(stored: StoredEvent) -> str:
    """The full type name of a stored event (whatever format it was written in)."""
    return parse_type(stored.type)[0]


def type_of(payload: Payload) -> str:
    return payload.DESCRIPTOR.full_name


def encode(payloads: Sequence[Payload], request_id: str | None = None) -> list[NewEvent]:
    """Store records for `payloads`; only the first carries the request id."""
    return [
        NewEvent(stored_type(type_of(p)), p.SerializeToString(), request_id if i == 0 else None)
        for i, p in enumerate(payloads)
    ]


def upcast(name: str, version: int, payload: bytes) -> bytes:
    """The payload of a `version` event of type `name` brought up to today's version."""
    current = SCHEMAS[name]
    if not 1 <= version <= current:
        raise ValueError(f"{name} version {version} is not readable (current: {current})")
    while version < current:
        payload = UPCASTERS[(name, version)](payload)
        version += 1
    return payload


def decode(stored: StoredEvent) -> Payload:
    """The payload message of a stored event, upcast to today's version; ValueError for an
    unknown type or a version this server cannot read."""
    name, version = parse_type(stored.type)
    cls = CLASSES.get(name)
    if cls is None:
        raise ValueError(f"unknown event type {stored.type!r} at {stored.table_id}#{stored.seq}")
    message = cls.FromString(upcast(name, version, stored.payload))
    assert isinstance(message, Payload)
    return message


def timestamp(seconds: float) -> Timestamp:
    whole = int(seconds)
    return Timestamp(seconds=whole, nanos=int((seconds - whole) * 1e9))


def stamp(field: Timestamp, seconds: float) -> None:
    """Set a message's Timestamp field to `seconds` in place: the same field as assigning
    `timestamp(seconds)` (present even at zero), without building and copying a message."""
    whole = int(seconds)
    field.seconds = whole
    field.nanos = int((seconds - whole) * 1e9)


def seconds(stamp: Timestamp) -> float:
    """A Timestamp as unix seconds."""
    return stamp.seconds + stamp.nanos / 1e9


def envelope(version: int, time: float, payload: Payload) -> ev.Event:
    """An `Event` log entry wrapping one payload."""
    event = ev.Event(version=version, time=timestamp(time))
    getattr(event, FIELDS[type_of(payload)]).CopyFrom(payload)
    return event
