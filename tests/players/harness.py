"""Clients for the players tests: any service's stub on the gRPC port or the HTTP port, with
or without `authorization: Bearer <token>`."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.main import running

from ..browser_protocols.harness import HttpStub
from ..service.harness import ServerThread

PLAYERS = "tarok.v1.PlayerService"
TAROK = "tarok.v1.TarokService"
PORTS = ("grpc", "connect-json", "grpc-web")


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
    if port == "grpc":
        inner: Any = (
            ps_grpc.PlayerServiceStub(server.channel)
            if service == PLAYERS
            else svc_grpc.TarokServiceStub(server.channel)
        )
        return BearerStub(inner, token)
    headers = {"authorization": f"Bearer {token}"} if token is not None else None
    return HttpStub(http_url(server), port, service, headers)


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
