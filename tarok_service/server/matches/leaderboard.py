"""Leaderboards: the ratings of rated free tables of one variant and player count, best
ordinal first, paged as AIP-158 (a page token is a rank to continue after, bound to the
variant and player count)."""

from __future__ import annotations

from tarok_proto.tarok.v1 import match_service_pb2 as ms

from .. import errors as e
from ..model.events import timestamp
from ..usecases import lobby
from .ratings import RatingBook, skill

DEFAULT_PAGE = 50
MAX_PAGE = 200


def page_kind(variant: str, players: int) -> str:
    return f"leaderboard:{variant}:{players}"


async def list_leaderboard(
    book: RatingBook, variant: str, players: int, request: ms.ListLeaderboardRequest
) -> ms.ListLeaderboardResponse:
    """One page of the leaderboard (`variant` and `players` already checked)."""
    if request.page_size < 0:
        raise e.invalid("page_size", "page_size must not be negative")
    size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
    kind = page_kind(variant, players)
    start = lobby.read_token(request.page_token, kind)
    known = await book.load(variant, players)
    ranked = known.best_first()
    out = ms.ListLeaderboardResponse()
    if known.updated:
        out.updated.CopyFrom(timestamp(known.updated))
    for rank, pid in enumerate(ranked[start : start + size], start + 1):
        out.entries.add(
            rank=rank, player_id=pid, name=known.names.get(pid, ""), rating=skill(known.rated[pid])
        )
    if start + size < len(ranked):
        out.next_page_token = lobby.page_token(start + size, kind)
    return out
