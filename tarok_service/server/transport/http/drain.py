"""Read the rest of a refused request's body before answering (HTTP/1.1 clients need it).

When a call is refused before its body was read (e.g. a message over the size limit), an
HTTP/1.1 client still sending the body would see the connection closed instead of the
answer. `DrainBody` reads and discards what is left - up to `cap` bytes - before the
response starts, so the client receives the RESOURCE_EXHAUSTED (or other) error.
"""

from __future__ import annotations

from typing import Any

from .asgi import App, Receive, Scope, Send


class DrainBody:
    """ASGI middleware: drain the unread request body (at most `cap` bytes) before answering."""

    def __init__(self, app: App, cap: int) -> None:
        self.app = app
        self.cap = cap

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        done = False

        async def tracked_receive() -> dict[str, Any]:
            nonlocal done
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                done = True
            return message

        async def draining_send(message: dict[str, Any]) -> None:
            nonlocal done
            if message["type"] == "http.response.start" and not done:
                drained = 0
                while not done and drained <= self.cap:
                    drained += len((await tracked_receive()).get("body", b""))
            await send(message)

        await self.app(scope, tracked_receive, draining_send)
