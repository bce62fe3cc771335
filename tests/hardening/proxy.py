"""A local TCP proxy that can be cut and restored: a database outage on demand."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class TcpProxy:
    """Forwards 127.0.0.1:`port` to (host, target_port) from its own event loop thread.

    `cut()` closes the listening socket and aborts every open connection (clients see the
    connection drop and new connections refused); `restore()` listens on the same port again.
    """

    def __init__(self, host: str, target_port: int) -> None:
        self.host = host
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self.port = self._run(self._listen(0))

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    async def _listen(self, port: int) -> int:
        self._server = await asyncio.start_server(
            self._handle, "127.0.0.1", port, reuse_address=True
        )
        return int(self._server.sockets[0].getsockname()[1])

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._open.update((writer, up_writer))
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        self._open.difference_update((writer, up_writer))

    def cut(self) -> None:
        self._run(self._cut())

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    def restore(self) -> None:
        self._run(self._listen(self.port))

    def restore_quietly(self) -> None:
        """Listen again unless already listening."""
        if self._server is None:
            self.restore()

    def close(self) -> None:
        self._run(self._cut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.CancelledError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.transport.abort()
