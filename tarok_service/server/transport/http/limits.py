"""Request bodies limited while they are read, not after.

`BodyLimits` stands between the ASGI server and the RPC application and hands it a `receive`
that refuses (raises a `ConnectError`, which the Connect runtime answers in the call's
protocol) as soon as a limit is passed:

- a `Content-Length` over `max_body` is refused before any of the body is read;
- a body without a length (chunked, HTTP/2) is counted as it arrives and refused when the
  count passes `max_body`;
- in an enveloped body (gRPC, gRPC-Web, Connect streaming) each envelope's length prefix is
  checked against `max_message` before its bytes are buffered, and a compressed flag on a
  request that named no encoding is MALFORMED_REQUEST;
- a body that stops arriving for `body_timeout` seconds is refused (DEADLINE_EXCEEDED
  REQUEST_STALLED): a client cannot hold a request open by sending headers and then nothing.

When the application answers before the whole body was read (a refusal, or an early
error), the rest is read and dropped before the answer starts, so that an HTTP/1.1 client
still sending it receives the answer rather than a closed connection - but only up to
`DRAIN_FACTOR` times `max_body` bytes in all, each chunk within `body_timeout`, and after a
refusal only a body of a declared length within that bound (never a stalled one). Dropped
bytes are not kept: memory stays bounded whatever the client sends.
"""

from __future__ import annotations

import asyncio
from typing import Any

from connectrpc.errors import ConnectError

from ... import errors as e
from ..grpc_status import malformed
from .asgi import App, Receive, Scope, Send, header
from .bridge import connect_error
from .decode import too_large

ENVELOPED = ("application/grpc", "application/connect+")  # gRPC and gRPC-Web; Connect streams
ENCODING_HEADERS = ("grpc-encoding", "connect-content-encoding")
PREFIX = 5  # an envelope's flags byte and 4-byte length
COMPRESSED = 0x01
DRAIN_FACTOR = 8  # a body is drained up to this many times `max_body`


def stalled(timeout: float) -> ConnectError:
    return connect_error(
        e.ServiceError(
            e.DEADLINE_EXCEEDED,
            e.REQUEST_STALLED,
            f"no request data for {timeout:g} seconds",
        )
    )


class Envelopes:
    """Follows the envelopes of a body chunk by chunk, checking each prefix as it completes."""

    def __init__(self, max_message: int, compressed_allowed: bool) -> None:
        self.max_message = max_message
        self.compressed_allowed = compressed_allowed
        self.prefix = bytearray()
        self.remaining = 0  # payload bytes of the current envelope still to come

    def feed(self, chunk: bytes) -> None:
        view = memoryview(chunk)
        while view:
            if self.remaining:
                step = min(self.remaining, len(view))
                self.remaining -= step
                view = view[step:]
                continue
            need = PREFIX - len(self.prefix)
            self.prefix += view[:need]
            view = view[need:]
            if len(self.prefix) == PREFIX:
                self._check(self.prefix[0], int.from_bytes(self.prefix[1:], "big"))
                self.prefix.clear()

    def _check(self, flags: int, length: int) -> None:
        if length > self.max_message:
            raise too_large(self.max_message)
        if flags & COMPRESSED and not self.compressed_allowed:
            raise connect_error(malformed())
        self.remaining = length


class BodyLimits:
    """ASGI middleware: the limits above on every HTTP request's body."""

    def __init__(
        self, app: App, max_message: int, body_timeout: float, max_body: int | None = None
    ) -> None:
        self.app = app
        self.max_message = max_message
        self.max_body = max_body if max_body is not None else max_message + PREFIX
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = Body(self, scope, receive)

        async def draining_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                await body.drain()
            await send(message)

        await self.app(scope, body.receive, draining_send)


class Body:
    """One request's body as the application reads it."""

    def __init__(self, limits: BodyLimits, scope: Scope, receive: Receive) -> None:
        self.limits = limits
        self._receive = receive
        self.done = False
        self.refused = False
        self.stalled = False
        self.read = 0
        length = header(scope, "content-length")
        self.length = int(length) if length is not None and length.isdigit() else None
        kind = (header(scope, "content-type") or "").lower()
        self.envelopes: Envelopes | None = None
        if kind.startswith(ENVELOPED):
            encoding = next(
                (v for h in ENCODING_HEADERS if (v := header(scope, h)) is not None), "identity"
            )
            allowed = encoding.strip().lower() not in ("", "identity")
            self.envelopes = Envelopes(limits.max_message, allowed)

    async def receive(self) -> dict[str, Any]:
        if self.done:
            return await self._receive()  # after the body: disconnect notices
        try:
            if self.length is not None and self.length > self.limits.max_body:
                raise too_large(self.limits.max_message)
            return self._checked(await self._next())
        except ConnectError:
            self.refused = True
            raise

    async def _next(self) -> dict[str, Any]:
        try:
            return await asyncio.wait_for(self._receive(), self.limits.body_timeout)
        except TimeoutError:
            self.stalled = True
            raise stalled(self.limits.body_timeout) from None

    def _checked(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] != "http.request":
            self.done = True
            return message
        chunk = message.get("body", b"")
        self.read += len(chunk)
        if self.read > self.limits.max_body:
            raise too_large(self.limits.max_message)
        if self.envelopes is not None:
            self.envelopes.feed(chunk)
        if not message.get("more_body", False):
            self.done = True
        return message

    async def drain(self) -> None:
        """Read and drop what is left of the body, within the bounds above."""
        cap = DRAIN_FACTOR * self.limits.max_body
        if self.refused and self.length is not None and self.length > cap:
            return  # a refused body of too great a declared length is not read on (one of
            # unknown length is, within `cap`: a gRPC client still sending reads its status)
        try:
            while not self.done and not self.stalled and self.read <= cap:
                message = await self._next()
                self.read += len(message.get("body", b""))
                self.done = message["type"] != "http.request" or not message.get("more_body")
        except ConnectError:
            pass
