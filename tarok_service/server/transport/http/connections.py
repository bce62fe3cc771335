"""Connections per client address on the HTTP port, capped where they are accepted.

The ASGI server has no such setting, so the listening socket does it: `CappedListener.accept`
closes a new connection at once when its address already holds `per_address` open ones,
and the accepted sockets it hands out give their slot back when they are closed (or
collected). One client, however many connections it opens, is one address.

A slot is only as good as the server's closing of a connection its client has left. Hypercorn
(pinned in pyproject) keeps an idle connection whose client has closed it open until its
keep-alive timeout ends; `PromptClose`, installed as the TCP server `worker_serve` builds,
closes it as soon as the client's end of the stream is read.
"""

from __future__ import annotations

import socket
import threading
import weakref
from collections import Counter

from hypercorn.asyncio import run as hypercorn_run
from hypercorn.asyncio.tcp_server import TCPServer


class Slots:
    """Open connections by address (thread-safe; accept and close run on the loop)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.open: Counter[str] = Counter()
        self.refused = 0
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        with self._lock:
            if self.open[address] >= self.per_address:
                self.refused += 1
                return False
            self.open[address] += 1
            return True

    def give_back(self, address: str) -> None:
        with self._lock:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


class Accepted(socket.socket):
    """An accepted connection that gives its slot back once, when closed or collected."""

    slot_release: weakref.finalize | None = None  # type: ignore[type-arg]

    def close(self) -> None:
        if self.slot_release is not None:
            self.slot_release()
        super().close()


class CappedListener(socket.socket):
    """A listening socket that accepts at most `slots.per_address` connections per address."""

    slots: Slots

    @classmethod
    def wrap(cls, sock: socket.socket, slots: Slots) -> CappedListener:
        listener = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        listener.slots = slots
        return listener

    def accept(self) -> tuple[socket.socket, object]:
        while True:  # BlockingIOError ends the loop when nothing is left to accept
            fd, address = self._accept()  # type: ignore[attr-defined]
            host = str(address[0])
            if not self.slots.take(host):
                socket.close(fd)
                continue
            conn = Accepted(self.family, self.type, self.proto, fileno=fd)
            conn.slot_release = weakref.finalize(conn, self.slots.give_back, host)
            if socket.getdefaulttimeout() is None and self.gettimeout():
                conn.setblocking(True)  # as socket.accept does
            return conn, address


class PromptClose(TCPServer):
    """Hypercorn's TCP server, closing a connection when its client has closed it."""

    async def _read_data(self) -> None:
        await super()._read_data()
        await self.idle_task.stop()  # the client is gone: no keep-alive wait before closing


def install_prompt_close() -> None:
    """Make `worker_serve` build `PromptClose` servers (idempotent)."""
    hypercorn_run.TCPServer = PromptClose  # type: ignore[attr-defined]
