"""Raw HTTP/1.1 requests to the HTTP port and the status a call got, whatever its protocol.

The tests of the HTTP port's limits need what a client library hides: a head sent without its
body, a body sent slowly or never finished, an envelope prefix that lies. `exchange` writes
bytes on a socket and reads one response; `outcome` reads the gRPC status (code name and
ErrorInfo reason) out of a Connect unary, Connect streaming, gRPC-Web or plain HTTP answer.
"""

from __future__ import annotations

import base64
import http.client
import json
import socket
from dataclasses import dataclass
from urllib.parse import unquote

from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

PING = "/tarok.v1.TarokService/Ping"
CODES = {  # gRPC code numbers to the Connect names
    0: "ok", 1: "canceled", 2: "unknown", 3: "invalid_argument", 4: "deadline_exceeded",
    5: "not_found", 6: "already_exists", 7: "permission_denied", 8: "resource_exhausted",
    9: "failed_precondition", 10: "aborted", 11: "out_of_range", 12: "unimplemented",
    13: "internal", 14: "unavailable", 15: "data_loss", 16: "unauthenticated",
}  # fmt: skip


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def head(path: str, headers: dict[str, str], method: str = "POST") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def connect(port: int, timeout: float = 30) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout)


def read_answer(sock: socket.socket) -> Answer:
    response = http.client.HTTPResponse(sock)
    response.begin()
    body = response.read()
    return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)


def exchange(port: int, data: bytes, timeout: float = 30) -> Answer:
    """Send `data` (a head and whatever body) and read one response."""
    with connect(port, timeout) as sock:
        sock.sendall(data)
        return read_answer(sock)


def post(port: int, path: str, body: bytes, content_type: str, **extra: str) -> Answer:
    headers = {"Content-Type": content_type, "Content-Length": str(len(body)), **extra}
    return exchange(port, head(path, headers) + body)


def envelope(payload: bytes, flags: int = 0) -> bytes:
    return bytes([flags]) + len(payload).to_bytes(4, "big") + payload


def _reason_of_details(details: list[any_pb2.Any]) -> str:
    for detail in details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return str(info.reason)
    return ""


def _b64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def _from_grpc_fields(fields: dict[str, str]) -> tuple[str, str]:
    code = CODES.get(int(fields.get("grpc-status", "2")), "unknown")
    reason = ""
    if "grpc-status-details-bin" in fields:
        status = status_pb2.Status.FromString(_b64(fields["grpc-status-details-bin"]))
        reason = _reason_of_details(list(status.details))
    return code, reason


def _from_connect_json(error: dict[str, object]) -> tuple[str, str]:
    details = []
    for d in error.get("details", []) or []:  # type: ignore[attr-defined]
        detail = any_pb2.Any(type_url=f"type.googleapis.com/{d['type']}", value=_b64(d["value"]))
        details.append(detail)
    return str(error.get("code", "unknown")), _reason_of_details(details)


def outcome(answer: Answer, content_type: str) -> tuple[str, str]:
    """(code, ErrorInfo reason) of a call's answer: ("ok", "") when it succeeded."""
    kind = content_type.lower()
    if kind.startswith("application/grpc-web"):
        if "grpc-status" in answer.headers:
            return _from_grpc_fields(answer.headers)
        body = answer.body
        while len(body) >= 5:
            flags, length = body[0], int.from_bytes(body[1:5], "big")
            frame, body = body[5 : 5 + length], body[5 + length :]
            if flags & 0x80:
                fields = {}
                for line in frame.decode().split("\r\n"):
                    name, _, value = line.partition(":")
                    fields[name.strip().lower()] = unquote(value.strip())
                return _from_grpc_fields(fields)
        return ("unknown", "") if answer.status != 200 else ("ok", "")
    if kind.startswith("application/connect+"):
        body = answer.body
        while len(body) >= 5:
            flags, length = body[0], int.from_bytes(body[1:5], "big")
            frame, body = body[5 : 5 + length], body[5 + length :]
            if flags & 0x02:
                end = json.loads(frame)
                return _from_connect_json(end["error"]) if "error" in end else ("ok", "")
        return "unknown", ""
    if answer.status == 200:
        return "ok", ""
    try:
        return _from_connect_json(json.loads(answer.body))
    except ValueError:
        return f"http {answer.status}", ""
