"""Event types are registered once, in the `Event` oneof of events.proto: the type names,
classes and oneof fields the server uses, the payload type, the fold's table and the
schema versions all cover exactly that list."""

from __future__ import annotations

from typing import get_args

from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.bots import BOT_NAMES
from tarok_service.server.model import events
from tarok_service.server.model.fold import FOLDS
from tarok_service.server.usecases import botseats
from tarok_service.store import StoredEvent

ONEOF = [f.name for f in ev.Event.DESCRIPTOR.oneofs_by_name["body"].fields]


def test_the_registry_is_the_oneof() -> None:
    assert list(events.FIELDS.values()) == ONEOF
    assert set(get_args(events.Payload)) == set(events.CLASSES.values())
    assert set(FOLDS) == set(events.CLASSES.values())
    assert set(events.SCHEMAS) == set(events.CLASSES)


def test_every_event_type_round_trips_through_the_store_and_the_envelope() -> None:
    for name, cls in events.CLASSES.items():
        payload = cls()
        [new] = events.encode([payload])  # type: ignore[list-item]
        stored = StoredEvent("t", 1, new.type, new.payload, None, 0.0)
        assert events.name_of(stored) == name and type(events.decode(stored)) is cls
        wrapped = events.envelope(1, 0.0, payload)  # type: ignore[arg-type]
        assert wrapped.WhichOneof("body") == events.FIELDS[name]


def test_bot_names_come_from_the_bot_registry() -> None:
    assert set(botseats.SHOWN) == set(BOT_NAMES)
    assert botseats.TAKEOVER_BOT in BOT_NAMES
