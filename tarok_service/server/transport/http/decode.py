"""Request bytes to messages on the HTTP port, with the gRPC port's answers to bad input.

Two things the Connect runtime would otherwise do its own way:

- **Decoding.** Bytes that are not a valid message (bad JSON, wrong field types, unknown JSON
  fields, deep nesting, bad UTF-8, corrupt protobuf) answer `invalid_argument` with the
  reason MALFORMED_REQUEST (`grpc_status.malformed`, the gRPC port's answer), not
  `unknown`. The runtime looks its codecs up in one table by content type; `guard_codecs`
  puts a guarded codec in front of each entry (once; the runtime is pinned in pyproject).
- **Inflating.** `BoundedGzip` inflates a gzip request in steps and refuses it with
  RESOURCE_EXHAUSTED MESSAGE_TOO_LARGE as soon as the output passes `limit` bytes, so a
  small compressed body never becomes a large buffer; a corrupt stream is MALFORMED_REQUEST.
"""

from __future__ import annotations

import zlib
from typing import Any

from connectrpc import _codec
from connectrpc.compression import Compression
from connectrpc.compression.gzip import GzipCompression
from connectrpc.errors import ConnectError

from ... import errors as e
from ..grpc_status import malformed
from .bridge import connect_error

STEP = 64 << 10  # bytes inflated per step


def too_large(limit: int) -> ConnectError:
    """The answer to a request (or its inflated message) over `limit` bytes."""
    return connect_error(
        e.ServiceError(
            e.RESOURCE_EXHAUSTED,
            e.MESSAGE_TOO_LARGE,
            f"the request message is larger than the limit of {limit} bytes",
            {"limit": str(limit)},
        )
    )


class GuardedCodec:
    """A Connect codec whose decoding failures are MALFORMED_REQUEST."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def name(self) -> str:
        return str(self.inner.name())

    def encode(self, message: Any) -> bytes:
        return bytes(self.inner.encode(message))

    def decode(self, data: bytes | bytearray, message: Any) -> Any:
        try:
            return self.inner.decode(data, message)
        except ConnectError:
            raise
        except Exception as exc:  # ParseError, DecodeError, UnicodeError, RecursionError, ...
            raise connect_error(malformed()) from exc


def guard_codecs() -> None:
    """Guard every codec of the Connect runtime's table (idempotent)."""
    table: dict[str, Any] = _codec._codecs
    for name, codec in list(table.items()):
        if not isinstance(codec, GuardedCodec):
            table[name] = GuardedCodec(codec)


class BoundedGzip(GzipCompression):
    """gzip whose decompression stops, refused, once the output passes `limit` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def decompress(self, data: bytes | bytearray | memoryview) -> bytes:
        return inflate(bytes(data), self.limit)


def inflate(data: bytes, limit: int) -> bytes:
    """One gzip member of `data` inflated, at most `limit` bytes of it, in `STEP`s."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = bytearray()
    pending = data
    try:
        while True:
            chunk = inflater.decompress(pending, STEP)
            out += chunk
            if len(out) > limit:
                raise too_large(limit)
            pending = inflater.unconsumed_tail
            if not pending and len(chunk) < STEP:
                break
        out += inflater.flush()
    except zlib.error as exc:
        raise connect_error(malformed()) from exc
    if len(out) > limit:
        raise too_large(limit)
    if not inflater.eof:  # a truncated stream
        raise connect_error(malformed())
    return bytes(out)


def compressions(limit: int) -> list[Compression]:
    """The request encodings the HTTP port accepts (identity is always accepted too)."""
    return [BoundedGzip(limit)]
