"""Who is calling, the same on both ports: the client's IP address, without its port.

gRPC names a peer `ipv4:10.0.0.7:51234` or `ipv6:[::1]:51234` (sometimes percent-encoded);
the HTTP port's ASGI server gives `10.0.0.7:51234` or `[::1]:51234`. Both become
`ip:10.0.0.7` / `ip:::1` (an IPv4 address mapped into IPv6 as the IPv4 address), so a client
counts once against every per-caller limit whichever port it uses and however many
connections it opens. A peer that is no IP address (a Unix socket) is kept as given, bounded.
A signed-in caller is its player instead (`player:<id>`, see `usecases/identity.py`).

The bearer token of a call (`bearer_of`) is read here too, from the same metadata on both
ports; the call hook (`observe.py`) has it verified before the call runs.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import unquote

from .. import errors as e
from ..usecases.limits import MAX_BEARER

MAX_PEER = 128


def caller_of(peer: str) -> str:
    """The principal of a transport's peer text ("" when unknown)."""
    if not peer:
        return ""
    text = unquote(peer[: 4 * MAX_PEER])
    for scheme in ("ipv4:", "ipv6:"):
        if text.startswith(scheme):
            text = text[len(scheme) :]
    if text.startswith("["):  # [v6]:port
        host = text[1 : text.find("]")] if "]" in text else text[1:]
    elif text.count(":") == 1:  # v4:port
        host = text.partition(":")[0]
    else:  # a bare address
        host = text
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return peer[:MAX_PEER]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return f"ip:{address}"


AUTHORIZATION = "authorization"
_SCHEME = "bearer "


def bearer_of(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of the call's `authorization: Bearer <token>` (gRPC metadata or HTTP headers,
    both lower-case keys), None when there is none; UNAUTHENTICATED BAD_TOKEN when the header
    is there but is not one bearer token (another scheme, empty, repeated, over-long)."""
    found: str | None = None
    for key, value in metadata or ():
        if key.lower() != AUTHORIZATION:
            continue
        if found is not None:
            raise _bad("send one authorization header")
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        if len(text) > MAX_BEARER + len(_SCHEME) or text[: len(_SCHEME)].lower() != _SCHEME:
            raise _bad("authorization must be 'Bearer <token>'")
        found = text[len(_SCHEME) :].strip()
        if not found:
            raise _bad("authorization must be 'Bearer <token>'")
    return found


def _bad(message: str) -> e.ServiceError:
    return e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, message)
