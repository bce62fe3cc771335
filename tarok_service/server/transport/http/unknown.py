"""The answer to a call of a method the server does not have: `unimplemented`, in the protocol
the call was made in (a bare HTTP 404 or 405 would reach an RPC client as `unknown`).

- gRPC and gRPC-Web: HTTP 200 with `grpc-status: 12` in the headers (a trailers-only answer);
- Connect streaming (`application/connect+...`): HTTP 200, one end-of-stream envelope with
  the error;
- Connect unary (anything else): HTTP 404 with the error as JSON, as the Connect protocol
  maps `unimplemented`.

Each carries the same ErrorInfo (reason UNKNOWN_METHOD) as every other error.
"""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import grpc

from ... import errors as e
from ..grpc_status import to_status
from .asgi import Scope, Send, header, respond
from .bridge import status_details

END_STREAM = 0x02


def unknown_method(path: str) -> e.ServiceError:
    return e.ServiceError(
        e.UNIMPLEMENTED,
        e.UNKNOWN_METHOD,
        f"unknown method {e.shown(path, 96)!r}",
    )


def is_rpc(scope: Scope) -> bool:
    """A request that can only be an RPC call: a POST (static files answer GET and HEAD)."""
    return bool(scope["method"] == "POST")


async def answer_unimplemented(scope: Scope, send: Send) -> None:
    status = to_status(unknown_method(scope["path"]))
    kind = (header(scope, "content-type") or "").lower()
    message = status.details
    if kind.startswith("application/grpc"):
        fields = [
            (b"grpc-status", str(status.code.value[0]).encode()),
            (b"grpc-message", quote(message).encode()),
        ]
        fields += [
            (k.encode(), base64.b64encode(v).rstrip(b"=") if isinstance(v, bytes) else v.encode())
            for k, v in status.trailing_metadata
        ]
        start = [(b"content-type", kind.encode())]
        if kind.startswith("application/grpc-web"):  # the status in the headers
            await respond(send, 200, b"", start + fields)
            return
        await send(
            {"type": "http.response.start", "status": 200, "headers": start, "trailers": True}
        )
        await send({"type": "http.response.body", "body": b""})
        await send({"type": "http.response.trailers", "headers": fields, "more_trailers": False})
        return
    error = {"code": "unimplemented", "message": message, "details": _details(status)}
    if kind.startswith("application/connect+"):
        payload = json.dumps({"error": error}).encode()
        body = bytes([END_STREAM]) + len(payload).to_bytes(4, "big") + payload
        await respond(send, 200, body, content_type=kind.encode())
        return
    await respond(send, 404, json.dumps(error).encode(), content_type=b"application/json")


def _details(status: grpc.Status) -> list[dict[str, str]]:
    """Connect's JSON form of the status details (type name and base64 value)."""
    out = []
    for detail in status_details(status.trailing_metadata):
        out.append(
            {
                "type": detail.type_url.rpartition("/")[2],
                "value": base64.b64encode(detail.value).decode().rstrip("="),
            }
        )
    return out
