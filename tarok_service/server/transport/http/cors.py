"""CORS for the browser protocols: allowed origins answered, preflights handled, others refused.

A request without an `Origin` header (curl, servers) or from the page's own origin passes
unchanged. A cross-origin request from an allowed origin gets the CORS response headers; one
from any other origin is refused with 403 and no CORS headers (the browser blocks it too).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .asgi import App, Receive, Scope, Send, header, respond

ALLOW_METHODS = "GET, POST, OPTIONS"
# What Connect-ES and gRPC-Web clients send (headers a preflight may ask for).
ALLOW_HEADERS = (
    "content-type, connect-protocol-version, connect-timeout-ms, connect-content-encoding, "
    "connect-accept-encoding, grpc-timeout, grpc-accept-encoding, grpc-encoding, x-grpc-web, "
    "x-user-agent, x-request-id, authorization"
)
# What the browser may show the page (status and error details live in headers / trailers).
EXPOSE_HEADERS = (
    "grpc-status, grpc-message, grpc-status-details-bin, grpc-encoding, connect-content-encoding"
)
MAX_AGE = "7200"


class Cors:
    """ASGI middleware: `origins` are exact origins ("http://localhost:5173") or "*" for any."""

    def __init__(self, app: App, origins: Iterable[str]) -> None:
        self.app = app
        self.origins = frozenset(o.rstrip("/") for o in origins if o)

    def allowed(self, origin: str) -> bool:
        return "*" in self.origins or origin in self.origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = header(scope, "origin")
        if origin is None or origin == _own_origin(scope):
            await self.app(scope, receive, send)
            return
        if not self.allowed(origin):
            await respond(send, 403, b"origin not allowed\n")
            return
        if scope["method"] == "OPTIONS" and header(scope, "access-control-request-method"):
            await respond(send, 204, b"", _preflight_headers(origin, scope))
            return

        async def send_with_cors(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", ())
                    if k.lower() not in (b"access-control-allow-origin", b"vary")
                ]
                headers += [
                    (b"access-control-allow-origin", origin.encode()),
                    (b"access-control-expose-headers", EXPOSE_HEADERS.encode()),
                    (b"vary", b"Origin"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cors)


def _preflight_headers(origin: str, scope: Scope) -> list[tuple[bytes, bytes]]:
    asked = header(scope, "access-control-request-headers")
    return [
        (b"access-control-allow-origin", origin.encode()),
        (b"access-control-allow-methods", ALLOW_METHODS.encode()),
        (b"access-control-allow-headers", (asked or ALLOW_HEADERS).encode()),
        (b"access-control-max-age", MAX_AGE.encode()),
        (b"vary", b"Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
    ]


def _own_origin(scope: Scope) -> str | None:
    host = header(scope, "host")
    return f"{scope.get('scheme', 'http')}://{host}" if host else None
