"""Seat tokens: HMAC-SHA256 over (table, seat or spectator, expiry), base64url.

Any replica holding the shared secret can verify a token; signatures are compared in
constant time (`hmac.compare_digest`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from . import errors as e

SPECTATOR = "s"
_VERSION = "1"


@dataclass(frozen=True, slots=True)
class Claim:
    """What a valid token grants: a table, a seat (None for a spectator) and an expiry."""

    table_id: str
    seat: int | None
    expires: int
    generation: int = 1  # the seat's generation it was issued for (see `seats.py`)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Issues and verifies seat tokens with one secret."""

    def __init__(self, secret: bytes, ttl_seconds: int) -> None:
        if not secret:
            raise ValueError("token secret must not be empty")
        self._secret = secret
        self._ttl = ttl_seconds

    def _sign(self, body: bytes) -> bytes:
        return hmac.new(self._secret, body, hashlib.sha256).digest()

    def issue(
        self, table_id: str, seat: int | None, now: float, generation: int = 1
    ) -> tuple[str, int]:
        """(token, expiry as unix seconds); `generation` > 1 is carried as a fifth field."""
        expires = int(now) + self._ttl
        who = SPECTATOR if seat is None else str(seat)
        later = f"|{generation}" if generation > 1 else ""
        body = f"{_VERSION}|{table_id}|{who}|{expires}{later}".encode()
        return f"{_b64(body)}.{_b64(self._sign(body))}", expires

    def verify(self, token: str, now: float) -> Claim:
        """The token's claim; BAD_TOKEN / TOKEN_EXPIRED (UNAUTHENTICATED) otherwise."""
        body = self._checked_body(token)
        try:
            version, table_id, who, expires_text, *later = body.decode().split("|")
            seat = None if who == SPECTATOR else int(who)
            expires = int(expires_text)
            generation = int(later[0]) if len(later) == 1 else 1
        except ValueError:
            raise _bad("token payload is malformed") from None
        if version != _VERSION or (seat is not None and seat < 0) or len(later) > 1:
            raise _bad("token payload is malformed")
        if now >= expires:
            raise e.ServiceError(e.UNAUTHENTICATED, e.TOKEN_EXPIRED, "the token has expired")
        return Claim(table_id, seat, expires, generation)

    def _checked_body(self, token: str) -> bytes:
        if not token:
            raise _bad("a token is required (JoinTable returns one)")
        body_text, dot, sig_text = token.partition(".")
        try:
            body, sig = _unb64(body_text), _unb64(sig_text)
        except (ValueError, UnicodeEncodeError):
            raise _bad("token is not base64url") from None
        if not dot or not hmac.compare_digest(sig, self._sign(body)):
            raise _bad("token signature is invalid")
        return body


def _bad(message: str) -> e.ServiceError:
    return e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, message)
