"""The cross-node bus: "table X is at version N" on core NATS, between server replicas.

After each append a replica publishes `table.<id>` with the new version (a decimal text).
A replica subscribes to the subject of each table it has waiters for (a live watch feed,
a bot driver, a long poll) and wakes them with the version heard. Messages are hints,
never data: the events themselves are always read from the store, so a waiter that is told
about version N reads every event after its own, and a message that is lost (a NATS node
stopped, a reconnect, a slow consumer) only delays a waiter until its next recheck of the
store. After a reconnect every waiter re-reads its table's version at once.

A table's subscription is taken when its first waiter comes, confirmed by the server (a
PING round trip) before the waiter reads the store's version, so a commit after that read
always reaches it; it is kept `LINGER_SECONDS` after the last waiter leaves, so a feed that
waits again and again does not subscribe again and again.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg

from ._wakeup import TableSignals

PREFIX = "table."
LINGER_SECONDS = 30.0
_SAFE = re.compile(r"[A-Za-z0-9_:-]{1,200}")
logger = structlog.get_logger("tarok.bus")


def subject(table_id: str) -> str:
    """The subject of a table: its id when that is one plain token, else its hex (a subject
    must not hold dots, wildcards or blanks)."""
    if _SAFE.fullmatch(table_id):
        return PREFIX + table_id
    return PREFIX + "x" + table_id.encode().hex()


def servers(url: str) -> list[str]:
    """`nats://a:4222,nats://b:4222` (or `nats://a:4222,b:4222`) as a list of URLs."""
    out = []
    for part in url.split(","):
        part = part.strip()
        if part:
            out.append(part if "://" in part else "nats://" + part)
    if not out:
        raise ValueError(f"bus URL {url!r} names no NATS server")
    return out


class NatsBus:
    """One replica's link to the bus (see module docstring). Event-loop use only."""

    def __init__(self, url: str, signals: TableSignals, timeout: float = 2.0) -> None:
        self.url = url
        self._servers = servers(url)
        self._signals = signals
        self._timeout = timeout
        self._nc: Client | None = None
        self._subs: dict[str, Any] = {}  # table id -> its subscription
        self._users: dict[str, int] = {}  # table id -> waiters now
        self._linger: dict[str, asyncio.TimerHandle] = {}
        self._later: asyncio.Task[None] | None = None  # connecting after a failed start
        self._unsubscribing: set[asyncio.Task[None]] = set()  # held until done (not collected)
        self.reconnects = 0

    async def open(self) -> None:
        """Connect; if no server answers, go on without the bus (waiters recheck the store)
        and keep trying in the background: the bus is never needed to serve a call."""
        try:
            self._nc = await self._connect()
        except Exception as exc:
            logger.warning("bus unreachable, retrying in the background", error=repr(exc))
            self._later = asyncio.get_running_loop().create_task(self._connect_later())

    async def _connect_later(self) -> None:
        delay = 0.5
        while True:
            await asyncio.sleep(delay)  # back off between connection attempts
            try:
                nc = await self._connect()
            except Exception:
                delay = min(2 * delay, 10.0)
                continue
            subs = {}
            with contextlib.suppress(Exception):
                for table_id in list(self._users):
                    subs[table_id] = await nc.subscribe(subject(table_id), cb=self._heard)
                await nc.flush(timeout=self._timeout)  # type: ignore[arg-type]
            self._nc = nc
            self._subs.update(subs)
            logger.info("bus connected")
            self._signals.wake_all()  # the waiters re-read: nothing heard before counts
            return

    async def _connect(self) -> Client:
        """A connected client, or an error after a few seconds (a client that keeps
        reconnecting forever once connected would also try forever to connect at first)."""
        nc = Client()
        try:
            async with asyncio.timeout(4 * self._timeout):
                await self._start(nc)
        except BaseException:
            with contextlib.suppress(Exception):
                await nc.close()
            raise
        return nc

    async def _start(self, nc: Client) -> None:
        await nc.connect(
            servers=self._servers,
            name="tarok",
            no_echo=True,  # this replica's own appends wake its waiters directly
            connect_timeout=max(1, round(self._timeout)),
            reconnect_time_wait=0.25,  # type: ignore[arg-type]  # a float works
            max_reconnect_attempts=-1,
            ping_interval=2,
            max_outstanding_pings=2,
            reconnected_cb=self._reconnected,
            disconnected_cb=self._disconnected,
            error_cb=self._error,
        )

    async def close(self) -> None:
        if self._later is not None:
            self._later.cancel()
            with contextlib.suppress(BaseException):
                await self._later
        for handle in self._linger.values():
            handle.cancel()
        self._linger.clear()
        nc, self._nc = self._nc, None
        self._subs.clear()
        self._users.clear()
        if nc is not None:
            with contextlib.suppress(Exception):
                await nc.close()

    async def publish(self, table_id: str, version: int) -> None:
        """Tell the other replicas `table_id` is at `version` (best effort: buffered while
        the link is down; dropped if that buffer is full)."""
        nc = self._nc
        if nc is None:
            return
        try:
            await nc.publish(subject(table_id), str(version).encode())
        except Exception as exc:  # a hint: never fail the append that was committed
            logger.debug("bus publish dropped", table=table_id, error=repr(exc))

    async def watch(self, table_id: str) -> None:
        """A waiter for `table_id` starts: subscribe (confirmed by the server) if needed.
        A bus that is down costs nothing here: the waiter rechecks the store."""
        self._users[table_id] = self._users.get(table_id, 0) + 1
        handle = self._linger.pop(table_id, None)
        if handle is not None:
            handle.cancel()
        nc = self._nc
        if nc is None or table_id in self._subs:
            return
        try:
            self._subs[table_id] = await nc.subscribe(subject(table_id), cb=self._heard)
            await nc.flush(timeout=self._timeout)  # type: ignore[arg-type]
        except Exception as exc:
            logger.debug("bus subscribe not confirmed", table=table_id, error=repr(exc))

    def unwatch(self, table_id: str) -> None:
        """A waiter for `table_id` is done; the last one lets the subscription linger."""
        left = self._users.get(table_id, 0) - 1
        if left > 0:
            self._users[table_id] = left
            return
        self._users.pop(table_id, None)
        if table_id in self._subs and table_id not in self._linger:
            loop = asyncio.get_running_loop()
            self._linger[table_id] = loop.call_later(LINGER_SECONDS, self._drop, table_id)

    def subscribed(self) -> int:
        """Tables this replica holds a subscription for."""
        return len(self._subs)

    def _drop(self, table_id: str) -> None:
        self._linger.pop(table_id, None)
        if self._users.get(table_id):
            return
        sub = self._subs.pop(table_id, None)
        if sub is not None:
            task = asyncio.get_running_loop().create_task(_unsubscribe(sub))
            self._unsubscribing.add(task)
            task.add_done_callback(self._unsubscribing.discard)

    async def _heard(self, msg: Msg) -> None:
        name = msg.subject[len(PREFIX) :]
        try:
            version: int | None = int(msg.data)
        except ValueError:
            version = None
        for known in (name, _unhex(name)):
            if known is not None and known in self._users:
                self._signals.wake(known, version)

    async def _reconnected(self) -> None:
        self.reconnects += 1
        logger.info("bus reconnected", server=str(self._nc and self._nc.connected_url))
        self._signals.wake_all()  # messages may have been missed meanwhile

    async def _disconnected(self) -> None:
        logger.info("bus disconnected")

    async def _error(self, exc: Exception) -> None:
        logger.debug("bus error", error=repr(exc))


def _unhex(name: str) -> str | None:
    """The table id of a hex-encoded subject token, None if it is not one."""
    if not name.startswith("x"):
        return None
    try:
        return bytes.fromhex(name[1:]).decode()
    except ValueError:
        return None


async def _unsubscribe(sub: Any) -> None:
    with contextlib.suppress(Exception):
        await sub.unsubscribe()
