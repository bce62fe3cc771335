"""Who is calling, the same on both ports: the client's IP address, without its port.

gRPC names a peer `ipv4:10.0.0.7:51234` or `ipv6:[::1]:51234` (sometimes percent-encoded);
the HTTP port's ASGI server gives `10.0.0.7:51234` or `[::1]:51234`. Both become
`ip:10.0.0.7` / `ip:::1` (an IPv4 address mapped into IPv6 as the IPv4 address), so a client
counts once against every per-caller limit whichever port it uses and however many
connections it opens. A peer that is no IP address (a Unix socket) is kept as given, bounded.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import unquote

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
