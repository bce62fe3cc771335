"""The logs of the players' games in the event store: their ids, entries and appends.

- `history.<player id>`: one TablePlayed per finished table the player sat at;
- `freeratings.<variant>.<players>`: one RatingsUpdated per rated table that finished;
- `matchqueue.<variant>.<players>.<rated|casual>`: the matchmaking tickets and the tables made.

Every replica reads them from the store alone; nothing here lives only in memory.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import matches_pb2 as mt

from ..model.entries import EntryCodec

Body = (
    mt.TablePlayed
    | mt.RatingsUpdated
    | mt.MatchTicketOpened
    | mt.MatchTicketRenewed
    | mt.MatchTicketClosed
    | mt.MatchMade
)
CODEC: EntryCodec[Body] = EntryCodec(Body, "entry")
encode = CODEC.encode
decode = CODEC.decode


def history_log(player_id: str) -> str:
    return f"history.{player_id}"


def ratings_log(variant: str, players: int) -> str:
    return f"freeratings.{variant}.{players}"


def queue_log(variant: str, players: int, rated: bool) -> str:
    return f"matchqueue.{variant}.{players}.{'rated' if rated else 'casual'}"
