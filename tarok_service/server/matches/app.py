"""The players' games application layer: MatchService's use cases over the table service's
application (its context, its JoinTable)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

from tarok_proto.tarok.v1 import match_service_pb2 as ms

from .. import errors as e
from ..model.fold import TableState
from ..usecases import create, identity
from ..usecases.app import TarokApp
from ..usecases.limits import check_id
from . import find, history, leaderboard
from .ratings import RatingBook

NameOf = Callable[[str], Awaitable[str]]  # a player id -> the player's display name ("": none)


async def no_names(player_id: str) -> str:
    return ""


class MatchApp:
    """FindMatch, history, profile, leaderboards; `table_closed` is the core's hook.
    `name_of` gives a player's display name (the players feature's, wired by the root)."""

    def __init__(self, app: TarokApp, name_of: NameOf = no_names) -> None:
        self.app = app
        self.name_of = name_of
        self.ctx = app.ctx
        self.book = RatingBook(app.ctx)

    async def table_closed(self, table: TableState) -> None:
        await history.record(self.ctx, self.book, table)

    def find_match(self, request: ms.FindMatchRequest) -> AsyncIterator[ms.FindMatchResponse]:
        return find.find_match(self.app, self.book, request)

    async def list_history(self, request: ms.ListHistoryRequest) -> ms.ListHistoryResponse:
        player = identity.signed_in().player_id
        return await history.list_history(self.ctx, player, request)

    async def get_profile(self, request: ms.GetProfileRequest) -> ms.GetProfileResponse:
        player = identity.signed_in().player_id
        return await history.profile(self.ctx, self.book, player, await self._name(player))

    async def list_leaderboard(
        self, request: ms.ListLeaderboardRequest
    ) -> ms.ListLeaderboardResponse:
        variant = create.checked_variant(request.variant)
        find.check(ms.FindMatchRequest(variant=variant.id, players=request.players))
        return await leaderboard.list_leaderboard(self.book, variant.id, request.players, request)

    async def open_played_table(
        self, request: ms.OpenPlayedTableRequest
    ) -> ms.OpenPlayedTableResponse:
        player = identity.signed_in().player_id
        check_id("table_id", request.table_id)
        if not await history.sat_at(self.ctx, player, request.table_id):
            raise e.ServiceError(
                e.PERMISSION_DENIED,
                e.NOT_YOUR_TABLE,
                "the table is not among your finished tables",
                {"table_id": request.table_id},
            )
        token, expires = self.ctx.tokens.issue(request.table_id, None, self.ctx.clock())
        out = ms.OpenPlayedTableResponse(token=token)
        out.expires.FromSeconds(int(expires))
        return out

    async def _name(self, player: str) -> str:
        """The player's display name; else the name it last sat down with."""
        name = await self.name_of(player)
        if name:
            return name
        tables = await history.played_tables(self.ctx, player)
        return tables[-1].seats[tables[-1].seat].name if tables else ""
