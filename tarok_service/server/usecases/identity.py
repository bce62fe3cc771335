"""Who is signed in on this call: the caller's verified player (None when anonymous).

The call hook (`transport/observe.py`) reads `authorization: Bearer <token>` from every call
on both ports (gRPC metadata; the HTTP port's headers), has `Context.authenticate` verify it
and sets `CALLER` for the rest of the call, streams included. A token that is present but
not valid ends the call UNAUTHENTICATED before any use case runs: a bad token never falls
back to anonymous. Use cases ask `player_id()` (None: anonymous) or `signed_in()` (the
caller, or UNAUTHENTICATED SIGN_IN_REQUIRED).

`Context.authenticate` is installed by the players feature (`server/players/`); a server
without it refuses every bearer token (`no_sign_in`), so nothing is ever trusted unverified.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass

from .. import errors as e

PLAY = "play"  # tables: join, rejoin, moves, watch
TOURNAMENTS = "tournaments"
SCOPES = (PLAY, TOURNAMENTS)
ALL_SCOPES = frozenset(SCOPES)
# The scope a token needs for any call of a service (services not listed: none).
SERVICE_SCOPES = {"/tarok.v1.TarokService/": PLAY, "/tarok.v1.TournamentService/": TOURNAMENTS}


@dataclass(frozen=True, slots=True)
class Caller:
    """A verified caller: its player, how it signed in, what its token may do."""

    player_id: str
    via: str  # "session" (this server's session token), "oidc" (an IdP token), "api"
    scopes: frozenset[str] = ALL_SCOPES
    token_id: str = ""  # an API token's id ("" for the others)


Authenticator = Callable[[str], Awaitable[Caller]]

CALLER: ContextVar[Caller | None] = ContextVar("tarok_caller", default=None)


async def no_sign_in(token: str) -> Caller:
    """The authenticator of a server without the players feature: every token refused."""
    raise e.ServiceError(
        e.UNAUTHENTICATED, e.BAD_TOKEN, "this server signs no players in: send no bearer token"
    )


def caller() -> Caller | None:
    """The verified caller of this call (None: anonymous)."""
    return CALLER.get()


def player_id(scope: str = PLAY) -> str | None:
    """The signed-in caller's player id (None: anonymous); PERMISSION_DENIED SCOPE_DENIED
    when its token does not allow `scope`."""
    who = CALLER.get()
    if who is None:
        return None
    if scope is not None:
        check_scope(who, scope)
    return who.player_id


def signed_in(scope: str | None = PLAY) -> Caller:
    """The signed-in caller; UNAUTHENTICATED SIGN_IN_REQUIRED when anonymous (and
    PERMISSION_DENIED SCOPE_DENIED when its token does not allow `scope`; None: any)."""
    who = CALLER.get()
    if who is None:
        raise e.ServiceError(
            e.UNAUTHENTICATED,
            e.SIGN_IN_REQUIRED,
            "sign in first: send authorization: Bearer <token> (see docs/identity.md)",
        )
    if scope is not None:
        check_scope(who, scope)
    return who


def check_scope(who: Caller, scope: str) -> None:
    if scope not in who.scopes:
        raise e.ServiceError(
            e.PERMISSION_DENIED,
            e.SCOPE_DENIED,
            f"this token's scopes do not include {scope!r}",
            {"scope": scope},
        )


def check_method(who: Caller, method: str) -> None:
    """PERMISSION_DENIED SCOPE_DENIED when `who`'s token may not call `method` at all (an API
    token made for tournaments calling TarokService, say)."""
    for prefix, scope in SERVICE_SCOPES.items():
        if method.startswith(prefix):
            check_scope(who, scope)


def principal(peer: str) -> str:
    """The principal of per-caller limits: the signed-in player, else the client address."""
    who = CALLER.get()
    return f"player:{who.player_id}" if who is not None else peer
