"""API tokens for bots and scripts: long-lived, shown once, kept only as their SHA-256 in the
owner's log, scoped ("play", "tournaments"), listable and revocable by their owner.

Format: `tarok_api_<player id>_<token id>_<secret>` (the secret: 32 random bytes, unpadded
base64url). The player and token ids only find the record; the token is accepted when the
SHA-256 of the whole text equals the recorded one (compared in constant time), the token is
not revoked and its player not suspended - read from the player's log on every use, so a
revocation counts at once on every replica.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import players_pb2 as pl

from .. import errors as e
from ..usecases import identity
from ..usecases.identity import Caller
from ..usecases.limits import check_name
from .log import ApiTokenState, Players, PlayerState

PREFIX = "tarok_api_"
EVER_FACTOR = 50  # tokens a player may make in all (revoked ones included): `limit` times this
TOKEN_ID_BYTES = 6
_SHAPE = re.compile(rf"{PREFIX}([0-9a-f]{{18}})_([0-9a-f]{{12}})_([A-Za-z0-9_-]{{43}})")


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def is_api_token(token: str) -> bool:
    return token.startswith(PREFIX)


async def verify(players: Players, token: str) -> Caller:
    """The caller an API token signs in as (UNAUTHENTICATED BAD_TOKEN / TOKEN_REVOKED /
    PLAYER_SUSPENDED otherwise)."""
    shape = _SHAPE.fullmatch(token)
    if shape is None:
        raise _bad("an API token is tarok_api_<player>_<id>_<secret>")
    player = await players.load(shape[1])
    known = player.tokens.get(shape[2]) if player is not None else None
    if player is None or known is None or not hmac.compare_digest(known.sha256, digest(token)):
        raise _bad("the API token is not valid")
    if known.revoked:
        raise e.ServiceError(e.UNAUTHENTICATED, e.TOKEN_REVOKED, "the API token was revoked")
    check_active(player)
    return Caller(player.player_id, "api", known.scopes, known.token_id)


def check_active(player: PlayerState) -> None:
    if player.suspended:
        raise e.ServiceError(
            e.UNAUTHENTICATED, e.PLAYER_SUSPENDED, "this player is suspended by an operator"
        )


def scopes_of(requested: list[str]) -> list[str]:
    """The scopes asked for (default "play"); INVALID_ARGUMENT for an unknown one."""
    out = sorted(set(requested or [identity.PLAY]))
    for scope in out:
        if scope not in identity.SCOPES:
            raise e.invalid("scopes", f"scopes are {', '.join(identity.SCOPES)}")
    return out


async def create(
    players: Players, owner: Caller, request: ps.CreateApiTokenRequest, limit: int, now: float
) -> ps.CreateApiTokenResponse:
    if owner.via == "api":
        raise e.ServiceError(
            e.PERMISSION_DENIED, e.SCOPE_DENIED, "an API token cannot make API tokens"
        )
    name = check_name(request.name) or "token"
    scopes = scopes_of(list(request.scopes))
    token_id = secrets.token_hex(TOKEN_ID_BYTES)
    token = f"{PREFIX}{owner.player_id}_{token_id}_{secrets.token_urlsafe(32)}"
    body = pl.ApiTokenCreated(token_id=token_id, sha256=digest(token), scopes=scopes, name=name)
    body.created.FromSeconds(int(now))

    def make(state: PlayerState) -> list[pl.ApiTokenCreated]:
        live = sum(not t.revoked for t in state.tokens.values())
        if live >= limit or len(state.tokens) >= limit * EVER_FACTOR:
            raise e.ServiceError(
                e.RESOURCE_EXHAUSTED,
                e.TOO_MANY_TOKENS,
                f"a player holds at most {limit} live API tokens: revoke one first",
            )
        return [body]

    after = await players.append(owner.player_id, make)
    return ps.CreateApiTokenResponse(token=token, info=token_msg(after.tokens[token_id]))


async def revoke(players: Players, owner: Caller, token_id: str, now: float) -> None:
    def make(state: PlayerState) -> list[pl.ApiTokenRevoked]:
        known = state.tokens.get(token_id)
        if known is None:
            raise e.ServiceError(
                e.NOT_FOUND,
                e.TOKEN_NOT_FOUND,
                "you have no API token with this id",
                {"token_id": e.shown(token_id)},
            )
        if known.revoked:
            return []
        body = pl.ApiTokenRevoked(token_id=token_id)
        body.at.FromSeconds(int(now))
        return [body]

    await players.append(owner.player_id, make)


def token_msg(token: ApiTokenState) -> ps.ApiToken:
    out = ps.ApiToken(
        token_id=token.token_id, name=token.name, scopes=sorted(token.scopes), revoked=token.revoked
    )
    out.created.FromSeconds(token.created)
    return out


def _bad(message: str) -> e.ServiceError:
    return e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, message)
