"""Players in the event store: each player's log (`player.<id>`), the state folded from it,
the sign-in keys (`signin.<digest>`: the one player a guest's device secret or an identity
provider account signs in as) and a per-replica cache that is never stale.

Every replica serves every player: the truth is the log. The cache holds folded states and
asks the store for the log's version on every load (one cheap read), folding only what was
appended since, so a suspension or a revoked API token written by any replica counts at once.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from tarok_proto.tarok.v1 import players_pb2 as pl

from ...store import NewEvent, StoredEvent
from .. import errors as e
from ..model.entries import EntryCodec
from ..usecases.context import Context
from ..usecases.write import Append, Decision, Done, always, save

APPEND_RETRIES = 16
PLAYER_ID_BYTES = 9  # 18 hexadecimal digits, like a table id
CACHE_ENTRIES = 10_000
BUSY = "the player is too busy: try again"

Body = (
    pl.PlayerCreated
    | pl.IdentityLinked
    | pl.ApiTokenCreated
    | pl.ApiTokenRevoked
    | pl.PlayerSuspended
    | pl.PlayerReinstated
)
CODEC: EntryCodec[Body] = EntryCodec(Body, "player event", full_names=True)
encode = CODEC.encode
decode = CODEC.decode
CLAIMED = pl.SignInClaimed.DESCRIPTOR.full_name


def player_log(player_id: str) -> str:
    return f"player.{player_id}"


def signin_log(kind: str, key: str) -> str:
    """The log naming the player a sign-in key belongs to (`kind`: "guest", "oidc")."""
    digest = hashlib.sha256(f"tarok.v1 {kind}\0{key}".encode()).hexdigest()[:40]
    return f"signin.{digest}"


def new_player_id() -> str:
    return secrets.token_hex(PLAYER_ID_BYTES)


@dataclass(frozen=True)
class ApiTokenState:
    token_id: str
    sha256: bytes
    scopes: frozenset[str]
    name: str
    created: int
    revoked: bool = False


@dataclass(frozen=True)
class PlayerState:
    """A player at `version` of its log (a cache value, never the truth)."""

    player_id: str
    version: int
    display_name: str
    locale: str
    created: int
    kind: str
    identities: tuple[tuple[str, str], ...] = ()  # (issuer, subject)
    tokens: dict[str, ApiTokenState] = field(default_factory=dict)
    suspended: bool = False


def fold(state: PlayerState | None, player_id: str, stored: Sequence[StoredEvent]) -> PlayerState:
    for item in stored:
        body = decode(item)
        if isinstance(body, pl.PlayerCreated):
            state = PlayerState(
                player_id=player_id,
                version=item.seq,
                display_name=body.display_name,
                locale=body.locale,
                created=body.created.seconds,
                kind=body.kind,
            )
            continue
        if state is None:
            raise ValueError(f"player {player_id}: {item.type} before PlayerCreated")
        state = _apply(replace(state, version=item.seq), body)
    assert state is not None
    return state


def _apply(state: PlayerState, body: Body) -> PlayerState:
    if isinstance(body, pl.IdentityLinked):
        return replace(state, identities=(*state.identities, (body.issuer, body.subject)))
    if isinstance(body, pl.ApiTokenCreated):
        token = ApiTokenState(
            body.token_id, body.sha256, frozenset(body.scopes), body.name, body.created.seconds
        )
        return replace(state, tokens={**state.tokens, body.token_id: token})
    if isinstance(body, pl.ApiTokenRevoked):
        known = state.tokens.get(body.token_id)
        if known is None:
            return state
        return replace(state, tokens={**state.tokens, body.token_id: replace(known, revoked=True)})
    if isinstance(body, pl.PlayerSuspended):
        return replace(state, suspended=True)
    if isinstance(body, pl.PlayerReinstated):
        return replace(state, suspended=False)
    return state


def not_found(player_id: str) -> e.ServiceError:
    return e.ServiceError(
        e.NOT_FOUND,
        e.PLAYER_NOT_FOUND,
        f"no player {e.shown(player_id)!r}",
        {"player_id": e.shown(player_id)},
    )


MakeBodies = Callable[[PlayerState], Sequence[Body]]


class Players:
    """Players read from the store, with a bounded cache checked against the log's version."""

    def __init__(self, ctx: Context, max_entries: int = CACHE_ENTRIES) -> None:
        self.ctx = ctx
        self.max_entries = max_entries
        self._states: OrderedDict[str, PlayerState] = OrderedDict()

    async def load(self, player_id: str) -> PlayerState | None:
        """The player as its log stands now (None when there is no such player)."""
        log = player_log(player_id)
        version = await self.ctx.store.version(log)
        if version == 0:
            return None
        known = self._states.get(player_id)
        if known is not None and known.version == version:
            self._states.move_to_end(player_id)
            return known
        after = known.version if known is not None and known.version < version else 0
        stored = await self.ctx.store.read(log, after)
        state = fold(known if after else None, player_id, stored)
        self._remember(state)
        return state

    async def get(self, player_id: str) -> PlayerState:
        """The player, or NOT_FOUND PLAYER_NOT_FOUND."""
        state = await self.load(player_id)
        if state is None:
            raise not_found(player_id)
        return state

    def _remember(self, state: PlayerState) -> None:
        self._states[state.player_id] = state
        self._states.move_to_end(state.player_id)
        while len(self._states) > self.max_entries:
            self._states.popitem(last=False)

    async def append(self, player_id: str, make: MakeBodies) -> PlayerState:
        """Append what `make(state)` decides to the player's log (decided again when another
        writer was first); the player after it. `make` returns () for nothing to write."""

        async def decide(attempt: int) -> Decision[PlayerState]:
            state = await self.get(player_id)
            bodies = make(state)
            if not bodies:
                return Done(state)

            async def saved(version: int) -> PlayerState:
                stored = await self.ctx.store.read(player_log(player_id), state.version)
                after = fold(state, player_id, stored)
                self._remember(after)
                return after

            return Append(state.version, encode(bodies), saved)

        return await save(
            self.ctx, player_log(player_id), decide, retries=APPEND_RETRIES, busy=BUSY
        )

    async def create(self, player_id: str, created: pl.PlayerCreated) -> None:
        """Write the player's first entry unless it has one already."""
        log = player_log(player_id)

        async def decide(attempt: int) -> Decision[None]:
            if await self.ctx.store.version(log) > 0:
                return Done(None)  # created before (or by another call just now)
            return Append(0, encode([created]), always(None))

        await save(self.ctx, log, decide, retries=APPEND_RETRIES, busy=BUSY)

    async def claim(self, log: str, player_id: str) -> tuple[str, bool]:
        """(the player `log`'s sign-in key belongs to, whether this call claimed it for
        `player_id`): the first claim of a key wins, on every replica."""
        event = NewEvent(CLAIMED, pl.SignInClaimed(player_id=player_id).SerializeToString())

        async def decide(attempt: int) -> Decision[tuple[str, bool]]:
            known = await self.claimed(log)
            if known is not None:
                return Done((known, False))
            return Append(0, [event], always((player_id, True)))

        return await save(self.ctx, log, decide, retries=APPEND_RETRIES, busy=BUSY)

    async def claimed(self, log: str) -> str | None:
        """The player a sign-in key belongs to (None: not claimed yet)."""
        stored = await self.ctx.store.read(log, 0, 1)
        return pl.SignInClaimed.FromString(stored[0].payload).player_id if stored else None
