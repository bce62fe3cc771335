"""Tournament logs in the event store: the events, the state folded from them, and appends.

A tournament is a log like a table's (key `(id, seq)`), so every replica rebuilds it from the
store. Two more logs are shared by all tournaments: the registry of running tournaments
(`REGISTRY`), which every replica's supervisor follows, and one ratings log per variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...competition import Game, GameRecord, schedule
from .. import errors as e
from ..model.entries import EntryCodec
from ..usecases.context import Context
from ..usecases.write import Append, Decision, Done, always, save

REGISTRY = "tournaments"
APPEND_RETRIES = 16

Body = (
    tm.TournamentCreated
    | tm.GameStarted
    | tm.GameFinished
    | tm.EntrantForfeited
    | tm.TournamentFinished
    | tm.TournamentListed
    | tm.TournamentEnded
    | tm.RatingsRecorded
    | tm.TournamentCancelled
    | tm.EntrantCheckedIn
    | tm.TournamentPaused
)
CODEC: EntryCodec[Body] = EntryCodec(Body, "tournament event")
encode = CODEC.encode
decode = CODEC.decode


def ratings_log(variant: str) -> str:
    return f"ratings.{variant}"


def not_found(tournament_id: str) -> e.ServiceError:
    return e.ServiceError(
        e.NOT_FOUND,
        e.TOURNAMENT_NOT_FOUND,
        f"no tournament {tournament_id!r}",
        {"tournament_id": tournament_id},
    )


@dataclass
class TournamentState:
    """A tournament at `version` (a per-replica cache value, never the truth). A state handed
    out by `TournamentLogs.load` is not changed afterwards: a caller that decides on it
    across awaits (a worker's round, appending at its version) sees one version throughout."""

    tournament_id: str
    version: int
    spec: tm.TournamentSpec
    seed: int
    games: list[Game]
    started: dict[int, str] = field(default_factory=dict)  # game -> table id
    results: dict[int, tm.GameResult] = field(default_factory=dict)
    forfeited: set[int] = field(default_factory=set)
    finished: bool = False
    seed_salt: bytes = b""
    created_at: float = 0.0  # when TournamentCreated was recorded (unix seconds)
    checked_in: set[int] = field(default_factory=set)
    cancelled: bool = False
    cancel_reason: str = ""
    paused: bool = False

    @property
    def names(self) -> list[str]:
        return [x.name for x in self.spec.entrants]

    def in_progress(self) -> list[int]:
        return sorted(g for g in self.started if g not in self.results)

    def unstarted(self) -> list[int]:
        return [g.index for g in self.games if g.index not in self.started]

    def records(self) -> list[GameRecord]:
        """The finished games, for the standings."""
        return [record(self.games[g], r) for g, r in sorted(self.results.items())]

    def copy(self) -> TournamentState:
        """A copy to fold newer events into (the schedule and spec are shared, never changed)."""
        return replace(
            self,
            started=dict(self.started),
            results=dict(self.results),
            forfeited=set(self.forfeited),
            checked_in=set(self.checked_in),
        )

    def apply(self, seq: int, body: Body) -> None:
        """Fold one event (events at or before `version` are ignored)."""
        if seq <= self.version:
            return
        self.version = seq
        if isinstance(body, tm.GameStarted):
            self.started[body.game] = body.table_id
        elif isinstance(body, tm.GameFinished):
            self.results[body.game] = body.result
        elif isinstance(body, tm.EntrantForfeited):
            self.forfeited.add(body.entrant)
        elif isinstance(body, tm.TournamentFinished):
            self.finished = True
        elif isinstance(body, tm.EntrantCheckedIn):
            self.checked_in.add(body.entrant)
        elif isinstance(body, tm.TournamentPaused):
            self.paused = body.paused
        elif isinstance(body, tm.TournamentCancelled):
            self.cancelled = True
            self.cancel_reason = body.reason


def record(game: Game, result: tm.GameResult) -> GameRecord:
    return GameRecord(
        game=game.index,
        deal=game.deal,
        seating=game.seating,
        scores=tuple(result.scores),
        team=tuple(result.team),
        declarer=result.declarer if result.HasField("declarer") else None,
        won=result.won if result.HasField("won") else None,
        timeouts=tuple(result.timeouts),
    )


def created_state(
    tournament_id: str, seq: int, body: tm.TournamentCreated, created_at: float = 0.0
) -> TournamentState:
    spec = body.spec
    games = schedule_of(spec)
    return TournamentState(
        tournament_id, seq, spec, body.seed, games, seed_salt=body.seed_salt, created_at=created_at
    )


def schedule_of(spec: tm.TournamentSpec) -> list[Game]:
    """The tables of a spec: remote entrants play each deal at most once unless the organiser
    chose full rotation (built-in bots, with fresh brains per table, always rotate)."""
    remote = [i for i, x in enumerate(spec.entrants) if not x.bot]
    once = () if spec.full_rotation else remote
    return schedule(len(spec.entrants), spec.players, spec.deals, spec.duplicate, once)


class TournamentLogs:
    """Tournament id -> TournamentState, refreshed by reading only newer events."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._states: dict[str, TournamentState] = {}

    async def load(self, tournament_id: str) -> TournamentState:
        """The tournament at the store's latest version; NOT_FOUND when it has no log. News
        make a new state: one returned earlier stays at its version (see TournamentState)."""
        known = self._states.get(tournament_id)
        stored = await self.ctx.store.read(tournament_id, known.version if known else 0)
        state = self._states.get(tournament_id)  # another call may have loaded it meanwhile
        news = [item for item in stored if state is None or item.seq > state.version]
        for item in news:
            body = decode(item)
            if state is None:
                if not isinstance(body, tm.TournamentCreated):
                    raise not_found(tournament_id)
                state = created_state(tournament_id, item.seq, body, item.created_at)
                continue
            if state is self._states.get(tournament_id):
                state = state.copy()
            state.apply(item.seq, body)
        if state is None:
            raise not_found(tournament_id)
        self._states[tournament_id] = state
        return state

    def peek(self, tournament_id: str) -> TournamentState | None:
        """The cached state, if any (possibly stale)."""
        return self._states.get(tournament_id)

    def forget(self, tournament_id: str) -> None:
        self._states.pop(tournament_id, None)


async def append_once(
    ctx: Context, log_id: str, make: Callable[[list[Body]], Sequence[Body]]
) -> bool:
    """Append `make(log)` at the end of a log (nothing when it returns no events, say because
    they are there already); True when this call appended (retried if another was first)."""

    async def decide(attempt: int) -> Decision[bool]:
        stored = await ctx.store.read(log_id, 0)
        bodies = make([decode(s) for s in stored])
        if not bodies:
            return Done(False)
        version = stored[-1].seq if stored else 0
        return Append(version, encode(bodies), always(True))

    busy = f"log {log_id} is too busy: try again"
    return await save(ctx, log_id, decide, retries=APPEND_RETRIES, busy=busy)


async def running(ctx: Context, after: int, known: set[str]) -> int:
    """Fold registry events after `after` into `known` (running ids); the registry version."""
    stored = await ctx.store.read(REGISTRY, after)
    for item in stored:
        body = decode(item)
        if isinstance(body, tm.TournamentListed):
            known.add(body.tournament_id)
        elif isinstance(body, tm.TournamentEnded):
            known.discard(body.tournament_id)
    return stored[-1].seq if stored else after


def check_room(known: set[str], limit: int) -> None:
    """RESOURCE_EXHAUSTED TOO_MANY_TOURNAMENTS when `known` running ones reach `limit`."""
    if len(known) >= limit:
        raise e.ServiceError(
            e.RESOURCE_EXHAUSTED,
            e.TOO_MANY_TOURNAMENTS,
            f"this server runs {limit} tournaments at most: try again later",
            {"limit": str(limit)},
        )


async def list_within(ctx: Context, tournament_id: str, limit: int) -> None:
    """List a tournament in the registry unless `limit` are running: counted and appended at
    the registry version the count was made on, so two replicas (or two calls) racing for the
    last place cannot both take it - the loser counts again (RESOURCE_EXHAUSTED when full)."""
    listed = encode([tm.TournamentListed(tournament_id=tournament_id)])

    async def decide(attempt: int) -> Decision[None]:
        known: set[str] = set()
        version = await running(ctx, 0, known)
        if tournament_id in known:
            return Done(None)
        check_room(known, limit)
        return Append(version, listed, always(None))

    busy = "the tournament registry is too busy: try again"
    await save(ctx, REGISTRY, decide, retries=APPEND_RETRIES, busy=busy)


async def is_finished(ctx: Context, tournament_id: str) -> bool:
    """Whether the tournament's log ends with TournamentFinished."""
    version = await ctx.store.version(tournament_id)
    if version == 0:
        return True  # no such tournament: nothing to keep sealed
    last = await ctx.store.read(tournament_id, version - 1, 1)
    return bool(last) and last[0].type == tm.TournamentFinished.DESCRIPTOR.name
