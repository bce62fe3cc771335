"""Tokens: HMAC-SHA256 signed claims (table, seat or spectator, expiry) with a key id.

Any replica holding the secret can verify a token; signatures are compared in constant time.

Format: `<body>.<signature>`, both unpadded base64url (RFC 4648 section 5, no "="), where
`body` is the UTF-8 text `2|<key id>|<table id>|<seat or "s">|<expires, unix seconds>`, followed
by `|<seat generation>` when the seat has been taken more than once (see `seats.py`)
and `signature` is HMAC-SHA256(key, body) (43 characters). There is exactly one encoding
of a token: any other character, padding, a non-canonical base64 tail, a wrong length or a
token over `MAX_TOKEN` characters is BAD_TOKEN, checked before any other work.

Rotation: a signer holds several keys, newest first. It signs with the newest and verifies
with the key the token's key id names, so an old secret can stay accepted for a while.

Extending the payload: add the new value at the END of the body, bump `VERSION` and let
`_parse` accept both versions (older tokens get the new field's default in `Claim`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from .. import errors as e
from .limits import MAX_TOKEN

SPECTATOR = "s"
VERSION = "2"
SIGNATURE_CHARS = 43  # 32 bytes of HMAC-SHA256, unpadded base64url
_SHAPE = re.compile(rf"([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{{{SIGNATURE_CHARS}}})")
_KEY_ID = b"tarok.v1 key id"


@dataclass(frozen=True, slots=True)
class Claim:
    """What a valid token grants: a table, a seat (None for a spectator) and an expiry."""

    table_id: str
    seat: int | None
    expires: int
    generation: int = 1  # the seat's generation it was issued for (see `seats.py`)


def key_id(secret: bytes) -> str:
    """The public id of a signing key (8 characters; reveals nothing about the key)."""
    return _b64(hashlib.sha256(_KEY_ID + secret).digest()[:6])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """Strict decoding of canonical unpadded base64url (`text` matched `_SHAPE` already)."""
    if len(text) % 4 == 1:
        raise _bad("token is not base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:  # unused low bits set: another spelling of the same bytes
        raise _bad("token is not canonical base64url")
    return data


class TokenSigner:
    """Issues tokens with the newest key; verifies tokens of any of its keys."""

    def __init__(self, secret: bytes | Sequence[bytes], ttl_seconds: int) -> None:
        keys = [secret] if isinstance(secret, bytes) else list(secret)
        if not keys or not all(keys):
            raise ValueError("token secrets must not be empty")
        self._keys = {key_id(k): k for k in reversed(keys)}  # the newest wins a clash
        self._kid = key_id(keys[0])
        self._ttl = ttl_seconds

    @classmethod
    def derived(cls, secrets: Sequence[bytes], label: bytes, ttl_seconds: int) -> TokenSigner:
        """A signer whose keys are derived from `secrets` (newest first) for one kind of
        token (`label`), so that its tokens are valid as no other kind; tokens signed under
        a previous secret still verify after a rotation."""
        keys = [hmac.new(s, label, hashlib.sha256).digest() for s in secrets]
        return cls(keys, ttl_seconds)

    def issue(
        self, table_id: str, seat: int | None, now: float, generation: int = 1
    ) -> tuple[str, int]:
        """(token, expiry as unix seconds), signed with the newest key; a seat `generation`
        above 1 is carried as a sixth field."""
        expires = int(now) + self._ttl
        who = SPECTATOR if seat is None else str(seat)
        later = f"|{generation}" if generation > 1 else ""
        body = f"{VERSION}|{self._kid}|{table_id}|{who}|{expires}{later}".encode()
        return f"{_b64(body)}.{_b64(self._sign(self._kid, body))}", expires

    def verify(self, token: str, now: float) -> Claim:
        """The token's claim; BAD_TOKEN / TOKEN_EXPIRED (UNAUTHENTICATED) otherwise."""
        claim = _parse(self._checked_body(token))
        if now >= claim.expires:
            raise e.ServiceError(e.UNAUTHENTICATED, e.TOKEN_EXPIRED, "the token has expired")
        return claim

    def _sign(self, kid: str, body: bytes) -> bytes:
        return hmac.new(self._keys[kid], body, hashlib.sha256).digest()

    @staticmethod
    def check_shape(token: str) -> re.Match[str]:
        """BAD_TOKEN unless `token` is non-empty, short enough and shaped like a token
        (the cheap checks, made before anything else looks at it)."""
        if not token:
            raise _bad("a token is required (JoinTable returns one)")
        if len(token) > MAX_TOKEN:
            raise _bad(f"a token is at most {MAX_TOKEN} characters")
        shape = _SHAPE.fullmatch(token)
        if shape is None:
            raise _bad("a token is two unpadded base64url parts joined by '.'")
        return shape

    def _checked_body(self, token: str) -> bytes:
        shape = self.check_shape(token)
        body, sig = _unb64(shape[1]), _unb64(shape[2])
        kid = body.split(b"|", 2)[1].decode("ascii", "replace") if body.count(b"|") >= 2 else ""
        if kid not in self._keys:
            raise _bad("token signature is invalid")  # unknown (or retired) key
        if not hmac.compare_digest(sig, self._sign(kid, body)):
            raise _bad("token signature is invalid")
        return body


def _parse(body: bytes) -> Claim:
    """The claim of a correctly signed body (still checked: an old format is refused)."""
    try:
        version, _kid, table_id, who, expires_text, *later = body.decode().split("|")
        seat = None if who == SPECTATOR else int(who)
        expires = int(expires_text)
        generation = int(later[0]) if len(later) == 1 else 1
    except ValueError:
        raise _bad("token payload is malformed") from None
    if version != VERSION or (seat is not None and seat < 0) or len(later) > 1:
        raise _bad("token payload is malformed")
    if later and (generation < 2 or later[0] != str(generation)):
        raise _bad("token payload is malformed")  # one spelling: absent means 1
    return Claim(table_id, seat, expires, generation)


class ClaimCache:
    """Verified claims by token text (at most `MAX_TOKEN` characters: a str keeps its hash,
    no digest to compute per call), least recently used first out; bounded by entries and
    by (estimated) bytes, so no sequence of tokens can grow it without limit."""

    ENTRY_BYTES = 256  # key object, claim and dict slot, roughly (plus the texts' lengths)

    def __init__(self, max_entries: int = 10_000, max_bytes: int = 4 << 20) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[str, Claim] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> Claim | None:
        claim = self._items.get(key)
        if claim is not None:
            self._items.move_to_end(key)
        return claim

    def put(self, key: str, claim: Claim) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= self._size(key, old)
        self._items[key] = claim
        self.bytes += self._size(key, claim)
        while self._items and (len(self._items) > self.max_entries or self.bytes > self.max_bytes):
            dropped_key, dropped = self._items.popitem(last=False)
            self.bytes -= self._size(dropped_key, dropped)

    def _size(self, key: str, claim: Claim) -> int:
        return self.ENTRY_BYTES + len(key) + len(claim.table_id)


def _bad(message: str) -> e.ServiceError:
    return e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, message)
