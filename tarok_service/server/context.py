"""What every application-layer use case shares: store, cache, tokens, clock, shuffle, metrics."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..store import EventStore
from . import errors as e
from .cache import TableCache
from .commands import Shuffler, secure_shuffle
from .config import ServerConfig
from .metrics import MeteredStore, Metrics
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
    metrics: Metrics = field(default_factory=Metrics)
    cache: TableCache = field(init=False)
    tokens: TokenSigner = field(init=False)
    stopping: bool = field(init=False, default=False)
    _claims: dict[str, Claim] = field(init=False, default_factory=dict)
    _waits: set[asyncio.Timeout] = field(init=False, default_factory=set)

    def __post_init__(self) -> None:
        if not isinstance(self.store, MeteredStore):
            self.store = MeteredStore(self.store, self.metrics)
        self.cache = TableCache(self.store, self.config.cache_size, self.metrics)
        self.tokens = TokenSigner(self.config.secret, self.config.token_ttl_seconds)

    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        """`store.wait_for_change`, but returning `after` at once when the server stops.

        Long-lived streams wait through this, so that `begin_shutdown` ends them cleanly.
        """
        if self.stopping:
            return after
        try:
            async with asyncio.timeout(None) as waiting:
                self._waits.add(waiting)
                try:
                    return await self.store.wait_for_change(table_id, after, timeout)
                finally:
                    self._waits.discard(waiting)
        except TimeoutError:
            if waiting.expired() and self.stopping:
                return after
            raise

    def begin_shutdown(self) -> None:
        """Mark the server as stopping and wake every `wait_for_change` (loop thread only)."""
        self.stopping = True
        now = asyncio.get_running_loop().time()
        for waiting in list(self._waits):
            waiting.reschedule(now)

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
