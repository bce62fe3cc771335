"""The logs of the server's features (tournaments, players, matches): entries are protobuf
messages stored as (type name, bytes), like a table's events. One codec serves them all;
each feature lists its entry types once, as a union of message classes.

The stored type name is the message's short name (`name`) or, for logs that began with it,
its full name (`full_name`): what is in the store decides, so a feature keeps its choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar, cast, get_args

from google.protobuf.message import Message

from ...store import NewEvent, StoredEvent

B = TypeVar("B", bound=Message)


class EntryCodec(Generic[B]):
    """Encodes and decodes the entries of one feature's logs (`body`: the union of its
    entry types; `what`: how an unknown entry is named in the error)."""

    def __init__(self, body: Any, what: str, full_names: bool = False) -> None:
        self.what = what
        self.full_names = full_names
        self.classes: dict[str, type[Message]] = {self.name(c): c for c in get_args(body)}

    def name(self, cls: type[Message]) -> str:
        return cls.DESCRIPTOR.full_name if self.full_names else cls.DESCRIPTOR.name

    def encode(self, bodies: Sequence[B], request_id: str | None = None) -> list[NewEvent]:
        """The entries to append; the first carries `request_id` (a repeat is then refused)."""
        return [
            NewEvent(self.name(type(b)), b.SerializeToString(), request_id if i == 0 else None)
            for i, b in enumerate(bodies)
        ]

    def decode(self, stored: StoredEvent) -> B:
        cls = self.classes.get(stored.type)
        if cls is None:
            raise ValueError(f"unknown {self.what} {stored.type!r} at {stored.table_id}")
        return cast(B, cls.FromString(stored.payload))
