"""What every application-layer use case shares: store, cache, tokens, clock, shuffle."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..store import EventStore
from . import errors as e
from .cache import TableCache
from .commands import Shuffler, secure_shuffle
from .config import ServerConfig
from .tokens import Claim, TokenSigner

MAX_REQUEST_ID = 128
CLAIM_CACHE_SIZE = 10_000


@dataclass
class Context:
    """Dependencies of the application layer (passed explicitly, replaceable in tests)."""

    store: EventStore
    config: ServerConfig
    clock: Callable[[], float] = time.time
    shuffle: Shuffler = secure_shuffle
    cache: TableCache = field(init=False)
    tokens: TokenSigner = field(init=False)
    _claims: dict[str, Claim] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.cache = TableCache(self.store, self.config.cache_size)
        self.tokens = TokenSigner(self.config.secret, self.config.token_ttl_seconds)

    def claim(self, token: str) -> Claim:
        """The verified claim of a token (UNAUTHENTICATED otherwise).

        Tokens that verified once are remembered (expiry is still checked every time).
        """
        now = self.clock()
        known = self._claims.get(token)
        if known is None or now >= known.expires:
            known = self.tokens.verify(token, now)
            if len(self._claims) >= CLAIM_CACHE_SIZE:
                self._claims.clear()
            self._claims[token] = known
        return known


def request_id(text: str) -> str | None:
    """A request id (None when empty); INVALID_ARGUMENT when too long."""
    if len(text) > MAX_REQUEST_ID:
        raise e.invalid("request_id", f"request_id is longer than {MAX_REQUEST_ID} characters")
    return text or None
