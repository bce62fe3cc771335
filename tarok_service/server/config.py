"""Server configuration: one value passed explicitly (no hidden reads of the environment)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

import structlog

DEFAULT_STORE = "sqlite:///tarok.db"
DEFAULT_PORT = 50051
SECRET_ENV = "TAROK_SECRET"


@dataclass(frozen=True)
class ServerConfig:
    """Everything `create_server` needs."""

    store_url: str = DEFAULT_STORE
    host: str = "[::]"
    port: int = DEFAULT_PORT
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    token_ttl_seconds: int = 7 * 24 * 3600
    heartbeat_seconds: float = 10.0
    max_watchers: int = 1000
    cache_size: int = 4096
    max_message_bytes: int = 1 << 20
    max_hands: int = 1000
    move_retries: int = 8
    metrics_port: int = 0  # Prometheus /metrics on its own port; 0 = disabled
    metrics_host: str = "0.0.0.0"
    log_format: str = "console"  # "json" (production) or "console" (development)
    drain_seconds: float = 0.0  # on SIGTERM: report NOT_SERVING this long before stopping
    grace_seconds: float = 10.0  # then: time in-flight calls get to finish
    http_port: int | None = None  # Connect / gRPC-Web / gRPC over HTTP; None = off, 0 = any
    http_host: str = "[::]"
    cors_origins: tuple[str, ...] = ()  # origins browsers may call from ("*": any)
    static_dir: str | None = None  # files served on the HTTP port (the web frontend)
    open_table_ttl_seconds: float = 24 * 3600.0  # an open table idle this long expires; 0: never


def resolve_secret(
    given: str | None, environ: dict[str, str] | None = None, key_file: str | None = None
) -> bytes:
    """The token secret: --secret, else $TAROK_SECRET, else the key file (created on first
    start), else random for this process (warned)."""
    env = os.environ if environ is None else environ
    text = given or env.get(SECRET_ENV, "")
    if text:
        return text.encode()
    if key_file:
        from .keyfile import load_or_create

        return load_or_create(key_file)
    structlog.get_logger("tarok").warning(
        "no token secret given (--secret, TAROK_SECRET or --secret-file): using a random one; "
        "tokens will not survive a restart nor work on other replicas"
    )
    return secrets.token_bytes(32)
