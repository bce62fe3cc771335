"""Helpers of the players' games tests: guests signed in, MatchService stubs, Connect calls."""

from __future__ import annotations

import base64
import http.client
import json
import secrets
from typing import Any

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from tarok_proto.tarok.v1 import match_service_pb2_grpc as ms_grpc
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc

from tarok_service.server.main import running

from ..service.harness import ServerThread

Metadata = tuple[tuple[str, str], ...]


def sign_in(channel: grpc.Channel, name: str) -> tuple[str, Metadata]:
    """A new guest: its player id and the call metadata that signs a call in as it."""
    stub = ps_grpc.PlayerServiceStub(channel)
    reply = stub.SignInGuest(
        ps.SignInGuestRequest(device_secret=secrets.token_urlsafe(24), display_name=name)
    )
    session = reply.session
    return session.player.player_id, (("authorization", f"Bearer {session.session_token}"),)


def matches(server: ServerThread) -> ms_grpc.MatchServiceStub:
    return ms_grpc.MatchServiceStub(server.channel)


def connect(
    server: ServerThread, rpc: str, payload: dict[str, Any], bearer: str = ""
) -> tuple[int, dict[str, Any]]:
    """A Connect JSON call of MatchService on the HTTP port: (HTTP status, JSON body)."""
    port = running(server.server).http
    assert port is not None
    headers = {"content-type": "application/json"}
    if bearer:
        headers["authorization"] = f"Bearer {bearer}"
    conn = http.client.HTTPConnection("127.0.0.1", port.port, timeout=30)
    try:
        conn.request("POST", f"/tarok.v1.MatchService/{rpc}", json.dumps(payload), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def connect_reason(body: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    """(code, ErrorInfo reason, metadata) of a Connect error body."""
    [detail] = body["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    return body["code"], info.reason, dict(info.metadata)


def bearer(metadata: Metadata) -> str:
    return metadata[0][1].removeprefix("Bearer ")
