"""Clients for the players tests: any service's stub on the gRPC port or the HTTP port, with
or without `authorization: Bearer <token>`."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

import grpc
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.main import running

from ..browser_protocols.harness import HttpStub
from ..service.harness import ServerThread

PLAYERS = "tarok.v1.PlayerService"
TAROK = "tarok.v1.TarokService"
# the gRPC port; the HTTP port spoken Connect (JSON), gRPC-Web and native gRPC
PORTS = ("grpc", "connect-json", "grpc-web", "grpc-http")
_HTTP_CHANNELS: dict[int, grpc.Channel] = {}


class BearerStub:
    """A gRPC stub whose every call carries `authorization: Bearer <token>`."""

    def __init__(self, inner: Any, token: str | None) -> None:
        self.inner = inner
        self.token = token

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.inner, name)

        def call(request: Any, timeout: float | None = 30, **kwargs: Any) -> Any:
            if self.token is not None:
                kwargs["metadata"] = (("authorization", f"Bearer {self.token}"),)
            return method(request, timeout=timeout, **kwargs)

        return call


def http_url(server: ServerThread) -> str:
    http = running(server.server).http
    assert http is not None
    return f"http://127.0.0.1:{http.port}"


def stub(server: ServerThread, port: str, service: str, token: str | None = None) -> Any:
    """A stub of `service` ("tarok.v1.PlayerService", ...) on `port` ("grpc" or a browser
    protocol of the HTTP port), sending `token` as bearer when given."""
    if port in ("grpc", "grpc-http"):
        channel = server.channel if port == "grpc" else http_channel(server)
        inner: Any = (
            ps_grpc.PlayerServiceStub(channel)
            if service == PLAYERS
            else svc_grpc.TarokServiceStub(channel)
        )
        return BearerStub(inner, token)
    headers = {"authorization": f"Bearer {token}"} if token is not None else None
    return HttpStub(http_url(server), port, service, headers)


def http_channel(server: ServerThread) -> grpc.Channel:
    """A gRPC channel to the server's HTTP port (one per server, closed with the process)."""
    http = running(server.server).http
    assert http is not None
    known = _HTTP_CHANNELS.get(http.port)
    if known is None:
        known = _HTTP_CHANNELS[http.port] = grpc.insecure_channel(f"127.0.0.1:{http.port}")
    return known


def device_secret() -> str:
    return secrets.token_urlsafe(24)


def guest(server: ServerThread, port: str = "grpc", name: str = "Guest") -> ps.Session:
    players = stub(server, port, PLAYERS)
    reply: ps.SignInGuestResponse = players.SignInGuest(
        ps.SignInGuestRequest(device_secret=device_secret(), display_name=name)
    )
    return reply.session


def drain(items: Iterator[Any], count: int) -> list[Any]:
    out = []
    for item in items:
        out.append(item)
        if len(out) == count:
            break
    return out
