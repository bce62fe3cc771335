"""The players application layer: sign-in, the caller's player, API tokens, its tables,
and the authenticator every call's bearer token goes through (installed on the Context)."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict

from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import players_pb2 as pl

from .. import errors as e
from ..usecases import identity, mytables
from ..usecases.context import Context
from ..usecases.identity import Caller
from ..usecases.limits import MAX_BEARER, MAX_NAME, check_id, check_name, check_secret, check_text
from . import apitokens, operators
from .log import Body, MakeBodies, Players, PlayerState, new_player_id, signin_log
from .oidc import Identity, Oidc
from .sessions import Sessions
from .throttle import SignInThrottle

MAX_LOCALE = 35
IDENTITY_CACHE = 10_000


class PlayersApp:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.players = Players(ctx)
        self.sessions = Sessions(ctx)
        self.oidc = Oidc(ctx.config, ctx.clock)
        self.throttle = SignInThrottle(ctx.config.guest_sign_ins_per_minute, time.monotonic)
        # (issuer, subject) -> player: a sign-in key's player never changes once claimed
        self._identity_players: OrderedDict[tuple[str, str], str] = OrderedDict()

    # -- every call's bearer token --------------------------------------------------------

    async def authenticate(self, token: str) -> Caller:
        """The caller a bearer token signs in as; UNAUTHENTICATED with its reason otherwise:
        an API token, an identity provider's JWT (three parts) or a session token."""
        if apitokens.is_api_token(token):
            return await apitokens.verify(self.players, token)
        if token.count(".") == 2:
            found = await self._identity(token)
            key = (found.issuer, found.subject)
            player_id = self._identity_players.get(key)
            if player_id is None:  # first seen on this replica: its player (created once)
                player_id, _ = await self._player_of(found, "", "")
                self._identity_players[key] = player_id
                while len(self._identity_players) > IDENTITY_CACHE:
                    self._identity_players.popitem(last=False)
            apitokens.check_active(await self.players.get(player_id))
            return Caller(player_id, "oidc")
        player = await self.players.load(self.sessions.player_of(token))
        if player is None:
            raise e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, "the token's player is unknown")
        apitokens.check_active(player)
        return Caller(player.player_id, "session")

    # -- sign-in --------------------------------------------------------------------------

    async def sign_in_guest(self, request: ps.SignInGuestRequest, address: str = "") -> ps.Session:
        """`address`: the client's (per-address rate of guest sign-ins; "" when unknown)."""
        secret = check_secret(request.device_secret, "device_secret")
        self.throttle.admit(address)
        name = check_name(request.display_name, "display_name") or "Guest"
        locale = check_text(request.locale, "locale", MAX_LOCALE)
        key = hashlib.sha256(secret.encode()).hexdigest()
        player_id, created = await self.players.claim(signin_log("guest", key), new_player_id())
        await self.players.create(player_id, self._created(player_id, name, locale, "guest"))
        return await self._signed_in(player_id, created)

    async def refresh_session(self, request: ps.RefreshSessionRequest) -> ps.Session:
        player_id = self.sessions.refreshed_player(request.refresh_token)
        return await self._signed_in(player_id, False)

    async def _signed_in(self, player_id: str, created: bool) -> ps.Session:
        player = await self.players.load(player_id)
        if player is None:
            raise e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, "the token's player is unknown")
        apitokens.check_active(player)
        out = ps.Session(player=player_msg(player), created=created)
        return self.sessions.issue(player_id, out)

    def _created(self, player_id: str, name: str, locale: str, kind: str) -> pl.PlayerCreated:
        body = pl.PlayerCreated(player_id=player_id, display_name=name, locale=locale, kind=kind)
        body.created.FromSeconds(int(self.ctx.clock()))
        return body

    # -- the caller's player ----------------------------------------------------------------

    async def get_me(self, request: ps.GetMeRequest) -> ps.GetMeResponse:
        who = identity.signed_in(None)
        return ps.GetMeResponse(player=player_msg(await self.players.get(who.player_id)))

    async def list_my_tables(self, request: ps.ListMyTablesRequest) -> ps.ListMyTablesResponse:
        who = identity.signed_in(identity.PLAY)
        out = ps.ListMyTablesResponse()
        for table, seat in await mytables.open_tables(self.ctx, who.player_id):
            out.tables.append(
                ps.MyTable(
                    table_id=table.table_id,
                    seat=seat,
                    variant=table.variant.id,
                    players=table.players,
                    status=table.status,
                    version=table.version,
                )
            )
        return out

    # -- API tokens -------------------------------------------------------------------------

    async def create_api_token(
        self, request: ps.CreateApiTokenRequest
    ) -> ps.CreateApiTokenResponse:
        owner = identity.signed_in(None)
        limit = self.ctx.config.max_api_tokens
        return await apitokens.create(self.players, owner, request, limit, self.ctx.clock())

    async def list_api_tokens(self, request: ps.ListApiTokensRequest) -> ps.ListApiTokensResponse:
        owner = identity.signed_in(None)
        player = await self.players.get(owner.player_id)
        tokens = sorted(player.tokens.values(), key=lambda t: (t.created, t.token_id))
        return ps.ListApiTokensResponse(tokens=[apitokens.token_msg(t) for t in tokens])

    async def revoke_api_token(
        self, request: ps.RevokeApiTokenRequest
    ) -> ps.RevokeApiTokenResponse:
        owner = identity.signed_in(None)
        token_id = check_id("token_id", request.token_id)
        await apitokens.revoke(self.players, owner, token_id, self.ctx.clock())
        return ps.RevokeApiTokenResponse()

    # -- identity providers ------------------------------------------------------------------

    async def sign_in(self, request: ps.SignInRequest) -> ps.Session:
        name = check_name(request.display_name, "display_name")
        locale = check_text(request.locale, "locale", MAX_LOCALE)
        found = await self._identity(request.id_token)
        player_id, created = await self._player_of(found, name, locale)
        return await self._signed_in(player_id, created)

    async def link_identity(self, request: ps.LinkIdentityRequest) -> ps.LinkIdentityResponse:
        who = identity.signed_in(None)
        if who.via == "api":
            raise e.ServiceError(
                e.PERMISSION_DENIED, e.SCOPE_DENIED, "an API token cannot link identities"
            )
        found = await self._identity(request.id_token)
        owner, _ = await self.players.claim(_identity_log(found), who.player_id)
        if owner != who.player_id:
            raise e.precondition(
                e.IDENTITY_TAKEN, "this account already signs in as another player"
            )
        player = await self.players.append(who.player_id, _linked(found, self.ctx.clock()))
        return ps.LinkIdentityResponse(player=player_msg(player))

    async def _identity(self, token: str) -> Identity:
        if not self.oidc.configured:
            raise e.ServiceError(
                e.UNAUTHENTICATED,
                e.WRONG_ISSUER,
                "this server trusts no identity provider (--oidc-issuer)",
            )
        if not token:
            raise e.invalid("id_token", "id_token is required")
        if len(token) > MAX_BEARER:
            raise e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, "the token is too long")
        return await self.oidc.verify(token)

    async def _player_of(self, found: Identity, name: str, locale: str) -> tuple[str, bool]:
        """The player an identity signs in as, created (with the identity linked) the first
        time: the identity's sign-in key is claimed first, so one identity is one player."""
        player_id, created = await self.players.claim(_identity_log(found), new_player_id())
        shown = name or _shown_name(found.name) or "Player"
        await self.players.create(player_id, self._created(player_id, shown, locale, "oidc"))
        await self.players.append(player_id, _linked(found, self.ctx.clock()))
        return player_id, created

    # -- operators ----------------------------------------------------------------------------

    async def suspend_player(self, request: ps.SuspendPlayerRequest) -> ps.SuspendPlayerResponse:
        player = await operators.suspend(self.ctx, self.players, request)
        return ps.SuspendPlayerResponse(player=player_msg(player))

    async def close_table(self, request: ps.CloseTableRequest) -> ps.CloseTableResponse:
        return await operators.close_table(self.ctx, request)

    async def list_audit_events(
        self, request: ps.ListAuditEventsRequest
    ) -> ps.ListAuditEventsResponse:
        return await operators.list_audit(self.ctx, request)


def _shown_name(claimed: str) -> str:
    """The provider's name for the account, if it is a name this server would take."""
    try:
        return check_name(claimed[:MAX_NAME])
    except e.ServiceError:
        return ""


def _identity_log(found: Identity) -> str:
    return signin_log("oidc", f"{found.issuer}\0{found.subject}")


def _linked(found: Identity, now: float) -> MakeBodies:
    """The IdentityLinked entry, unless the player has that identity already."""

    def make(state: PlayerState) -> list[Body]:
        if (found.issuer, found.subject) in state.identities:
            return []
        body = pl.IdentityLinked(issuer=found.issuer, subject=found.subject)
        body.at.FromSeconds(int(now))
        return [body]

    return make


def player_msg(player: PlayerState) -> ps.Player:
    out = ps.Player(
        player_id=player.player_id,
        display_name=player.display_name,
        locale=player.locale,
        guest=not player.identities,
        suspended=player.suspended,
    )
    out.created.FromSeconds(player.created)
    for issuer, subject in player.identities:
        out.identities.append(ps.LinkedIdentity(issuer=issuer, subject=subject))
    return out
