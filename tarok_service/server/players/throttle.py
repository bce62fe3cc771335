"""Guest sign-ins per client address: at most `limit` a minute on one replica (a sliding
window), so that one client cannot mint guests - and with them fresh shares of every
per-player limit - without bound. In memory, per replica: a bound on the rate, not an
account of who signed in (that is in the store)."""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable

from .. import errors as e

WINDOW_SECONDS = 60.0
MAX_ADDRESSES = 10_000  # addresses remembered at once (the least recently seen dropped)


class SignInThrottle:
    def __init__(self, limit: int, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.clock = clock
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def admit(self, address: str) -> None:
        """Count one sign-in of `address`; RESOURCE_EXHAUSTED TOO_MANY_REQUESTS over the limit
        (a limit of 0 admits everything)."""
        if self.limit <= 0:
            return
        now = self.clock()
        times = self._seen.pop(address, None) or deque()
        while times and times[0] <= now - WINDOW_SECONDS:
            times.popleft()
        self._seen[address] = times
        while len(self._seen) > MAX_ADDRESSES:
            self._seen.popitem(last=False)
        if len(times) >= self.limit:
            raise e.ServiceError(
                e.RESOURCE_EXHAUSTED,
                e.TOO_MANY_REQUESTS,
                f"at most {self.limit} guest sign-ins a minute from one address: wait a little",
            )
        times.append(now)
