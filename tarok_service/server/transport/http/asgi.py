"""The few ASGI types and helpers the HTTP transport's own middleware needs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def header(scope: Scope, name: str) -> str | None:
    """The first value of a request header (name in lower case), or None."""
    key = name.encode()
    for k, v in scope.get("headers", ()):
        if k.lower() == key:
            return bytes(v).decode("latin-1")
    return None


async def respond(
    send: Send,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    content_type: bytes = b"text/plain; charset=utf-8",
    head: bool = False,
) -> None:
    """A complete plain HTTP response."""
    all_headers = [(b"content-length", str(len(body)).encode())]
    if body or head:
        all_headers.append((b"content-type", content_type))
    all_headers += headers or []
    await send({"type": "http.response.start", "status": status, "headers": all_headers})
    await send({"type": "http.response.body", "body": b"" if head else body})
