"""Session and refresh tokens: this server's own, signed with keys derived from the server
secret (`TokenSigner.derived`, one label each), so that neither is ever valid as the other,
as a seat token or as an organiser token, and both stay valid across a secret rotation while
the previous secret is still accepted.

A session token names its player (in the token's id field) and lives `session_ttl_seconds`
(15 minutes by default); its refresh token lives `refresh_ttl_seconds` (30 days) and buys a
new pair with RefreshSession. Both are checked against the player's log on every use: a
suspended player's tokens stop working at once, on every replica.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import player_service_pb2 as ps

from ..usecases.context import Context
from ..usecases.tokens import TokenSigner

SESSION_KEY = b"tarok.v1 player sessions"
REFRESH_KEY = b"tarok.v1 player refresh"


class Sessions:
    def __init__(self, ctx: Context) -> None:
        config = ctx.config
        self.ctx = ctx
        self.session = TokenSigner.derived(
            config.accepted_secrets, SESSION_KEY, config.session_ttl_seconds
        )
        self.refresh = TokenSigner.derived(
            config.accepted_secrets, REFRESH_KEY, config.refresh_ttl_seconds
        )

    def player_of(self, token: str) -> str:
        """The player a session token names (UNAUTHENTICATED BAD_TOKEN / TOKEN_EXPIRED)."""
        self.session.check_shape(token)
        return self.session.verify(token, self.ctx.clock()).table_id

    def refreshed_player(self, token: str) -> str:
        """The player a refresh token names (UNAUTHENTICATED BAD_TOKEN / TOKEN_EXPIRED)."""
        self.refresh.check_shape(token)
        return self.refresh.verify(token, self.ctx.clock()).table_id

    def issue(self, player_id: str, out: ps.Session) -> ps.Session:
        """`out` with a fresh session token and refresh token for `player_id`."""
        now = self.ctx.clock()
        token, expires = self.session.issue(player_id, None, now)
        refresh, refresh_expires = self.refresh.issue(player_id, None, now)
        out.session_token = token
        out.session_expires.FromSeconds(expires)
        out.refresh_token = refresh
        out.refresh_expires.FromSeconds(refresh_expires)
        return out
