"""StreamMyTurns: one stream telling a bot where it must move next, across all its tables.

Tokens are seat tokens (one table) or entrant tokens (every table of that entrant in its
tournament, including tables started later). Nothing is kept between calls: each round reads
the tournament logs and tables (through the cache: only newer events) and sends a turn for
every table where one of the bot's seats is to move at a version the bot has not been sent
yet. Waiting uses the store's per-table change signal, which works across replicas
(PostgreSQL notifications), so the stream may be served by any replica.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from .. import errors as e
from ..model.events import timestamp
from ..model.fold import FINISHED, TableState
from ..present.views import table_view
from ..usecases.context import Context
from ..usecases.seats import check_holder
from ..usecases.tokens import Claim, TokenSigner
from . import log
from .log import TournamentLogs
from .worker import wait_any

ENTRANT_KEY = b"tarok.v1 entrant tokens"
MAX_TOKENS = 256


def entrant_signer(ctx: Context) -> TokenSigner:
    """Signs entrant tokens with a key derived from the server secret, so that an entrant
    token is never valid as a seat token (nor the other way round)."""
    config = ctx.config
    return TokenSigner.derived(config.accepted_secrets, ENTRANT_KEY, config.token_ttl_seconds)


@dataclass
class Followed:
    """A table the bot plays at: its seats there, each with the seat token the bot gave and
    its claim (checked against the table every round: a seat taken again stops the stream),
    or None for an entrant's seat (a token is issued for the seat as it is at each turn)."""

    table_id: str
    seats: dict[int, tuple[str, Claim] | None]
    tournament_id: str = ""
    game: int = -1


@dataclass
class TurnFinder:
    """The tables of one StreamMyTurns call and the turns already sent."""

    ctx: Context
    logs: TournamentLogs
    seen: dict[str, int]
    followed: dict[str, Followed] = field(default_factory=dict)
    entrants: list[tuple[str, int]] = field(default_factory=list)
    closed: set[str] = field(default_factory=set)
    tournaments_done: set[str] = field(default_factory=set)

    def add_token(self, token: str, signer: TokenSigner) -> None:
        """Follow a seat token's table, or an entrant token's tournament."""
        try:
            claim = self.ctx.claim(token)
        except e.ServiceError as err:
            try:
                entrant = signer.verify(token, self.ctx.clock())
            except e.ServiceError:
                raise err from None
            assert entrant.seat is not None
            self.entrants.append((entrant.table_id, entrant.seat))
            return
        if claim.seat is None:
            raise e.ServiceError(
                e.PERMISSION_DENIED, e.SPECTATOR_CANNOT_MOVE, "a spectator token has no turns"
            )
        known = self.followed.setdefault(claim.table_id, Followed(claim.table_id, {}))
        known.seats[claim.seat] = (token, claim)

    async def check_in(self) -> None:
        """Record that each entrant is here (once; the first tables wait for it)."""
        for tournament_id, entrant in self.entrants:
            state = await self.logs.load(tournament_id)
            if state.finished or entrant in state.checked_in or state.started:
                continue

            def checked_in(bodies: list[log.Body], entrant: int = entrant) -> list[log.Body]:
                done = any(
                    (isinstance(b, tm.EntrantCheckedIn) and b.entrant == entrant)
                    or isinstance(b, tm.TournamentFinished)
                    for b in bodies
                )
                return [] if done else [tm.EntrantCheckedIn(entrant=entrant)]

            await log.append_once(self.ctx, tournament_id, checked_in)

    async def refresh(self) -> None:
        """Follow the started, unfinished tables of each entrant."""
        for tournament_id, entrant in self.entrants:
            state = await self.logs.load(tournament_id)
            if state.finished:
                self.tournaments_done.add(tournament_id)
            if state.cancelled:  # its unfinished tables are abandoned
                for table_id in [
                    t for t, f in self.followed.items() if f.tournament_id == tournament_id
                ]:
                    del self.followed[table_id]
                    self.closed.add(table_id)
                continue
            for game, table_id in state.started.items():
                if table_id in self.followed or table_id in self.closed:
                    continue
                if game in state.results:
                    continue
                seats = [s for s, x in enumerate(state.games[game].seating) if x == entrant]
                if seats:
                    self.followed[table_id] = self._seats(table_id, seats, tournament_id, game)

    def _seats(self, table_id: str, seats: list[int], tournament_id: str, game: int) -> Followed:
        return Followed(table_id, dict.fromkeys(seats), tournament_id, game)

    async def turns(self) -> list[ts.MyTurn]:
        """A turn for each table where a followed seat is to move at a version not yet sent."""
        out = []
        for table_id, followed in list(self.followed.items()):
            table = await self._load(table_id)
            if table is None:
                continue
            if table.status == FINISHED:
                del self.followed[table_id]
                self.closed.add(table_id)
                continue
            for given in followed.seats.values():
                if given is not None:
                    check_holder(given[1], table)  # revoked: the stream ends, as WatchTable
            seat = table.hand.turn if table.hand is not None else None
            if seat in followed.seats and table.version > self.seen.get(table_id, 0):
                assert seat is not None
                self.seen[table_id] = table.version
                out.append(_turn(followed, seat, table, self.ctx.clock(), self.ctx.tokens))
        return out

    async def _load(self, table_id: str) -> TableState | None:
        try:
            return await self.ctx.cache.load(table_id)
        except e.ServiceError as err:
            if err.reason == e.TABLE_NOT_FOUND:
                return None  # a started game whose table is being created
            raise

    def done(self) -> bool:
        entrants_done = all(t in self.tournaments_done for t, _ in self.entrants)
        return not self.followed and entrants_done

    def targets(self) -> dict[str, int]:
        """Log id -> known version, for waiting on any change."""
        out = {t: self.seen.get(t, 0) for t in self.followed}
        for table_id in self.followed:
            cached = self.ctx.cache.get(table_id)
            if cached is not None:
                out[table_id] = cached.version
        for tournament_id, _ in self.entrants:
            if tournament_id not in self.tournaments_done:
                out[tournament_id] = self._tournament_version(tournament_id)
        return out

    def _tournament_version(self, tournament_id: str) -> int:
        state = self.logs.peek(tournament_id)
        return state.version if state is not None else 0


def _turn(
    followed: Followed, seat: int, table: TableState, now: float, tokens: TokenSigner
) -> ts.MyTurn:
    given = followed.seats[seat]
    if given is not None:
        token = given[0]
    else:
        token = tokens.issue(table.table_id, seat, now, max(1, table.generations[seat]))[0]
    return ts.MyTurn(
        table_id=table.table_id,
        seat=seat,
        token=token,
        view=table_view(table, seat, now=now),
        tournament_id=followed.tournament_id,
        game=followed.game,
    )


async def stream_my_turns(
    ctx: Context, logs: TournamentLogs, signer: TokenSigner, request: ts.StreamMyTurnsRequest
) -> AsyncIterator[ts.StreamMyTurnsResponse]:
    """Turns as they come, idle beats while nothing happens, and `done` at the end."""
    if not request.tokens or len(request.tokens) > MAX_TOKENS:
        raise e.invalid("tokens", f"give 1 to {MAX_TOKENS} tokens")
    finder = TurnFinder(ctx, logs, dict(request.seen))
    for token in request.tokens:
        finder.add_token(token, signer)
    await finder.check_in()
    beat = ctx.config.heartbeat_seconds
    while not ctx.stopping:
        await finder.refresh()
        for turn in await finder.turns():
            yield ts.StreamMyTurnsResponse(turn=turn)
        if finder.done():
            yield ts.StreamMyTurnsResponse(done=ts.TurnsDone(tables=len(finder.closed)))
            return
        if not await wait_any(ctx, finder.targets(), beat) and not ctx.stopping:
            idle = ts.TurnsIdle(time=timestamp(ctx.clock()), tables=len(finder.followed))
            yield ts.StreamMyTurnsResponse(idle=idle)
