"""The features' logs share one codec; the type names they store must not change (logs
already written are read by them)."""

from __future__ import annotations

import pytest
from tarok_proto.tarok.v1 import matches_pb2 as mt
from tarok_proto.tarok.v1 import players_pb2 as pl
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.server.matches import logs as matches
from tarok_service.server.players import log as players
from tarok_service.server.tournaments import log as tournaments
from tarok_service.store import StoredEvent


def stored(event_type: str, payload: bytes) -> StoredEvent:
    return StoredEvent("some.log", 1, event_type, payload, None, 0.0)


def test_each_feature_keeps_the_type_names_its_logs_were_written_with() -> None:
    [entry] = tournaments.encode([tm.TournamentPaused()])
    assert entry.type == "TournamentPaused"
    [entry] = matches.encode([mt.MatchMade(table_id="t1")], "made:t1")
    assert (entry.type, entry.request_id) == ("MatchMade", "made:t1")
    [entry] = players.encode([pl.PlayerSuspended()])
    assert entry.type == "tarok.v1.PlayerSuspended"


def test_entries_round_trip_and_only_the_first_carries_the_request_id() -> None:
    bodies: list[matches.Body] = [
        mt.MatchTicketOpened(ticket_id="a"),
        mt.MatchTicketClosed(ticket_id="a"),
    ]
    encoded = matches.encode(bodies, "req")
    assert [e.request_id for e in encoded] == ["req", None]
    assert [matches.decode(stored(e.type, e.payload)) for e in encoded] == bodies


def test_an_entry_of_another_feature_is_refused() -> None:
    [entry] = tournaments.encode([tm.TournamentPaused()])
    with pytest.raises(ValueError, match="unknown player event"):
        players.decode(stored(entry.type, entry.payload))
