"""Server configuration: one value passed explicitly (no hidden reads of the environment)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

DEFAULT_STORE = "sqlite:///tarok.db"
DEFAULT_PORT = 50051
SECRET_ENV = "TAROK_SECRET"
ORGANISER_KEY_ENV = "TAROK_ORGANISER_KEY"
OPERATOR_KEY_ENV = "TAROK_OPERATOR_KEY"


@dataclass(frozen=True)
class OidcIssuer:
    """An identity provider whose tokens the server accepts (docs/identity.md)."""

    issuer: str  # exactly the tokens' `iss` (the discovery document is under it)
    audience: str  # the tokens' `aud` must name it


@dataclass(frozen=True)
class ServerConfig:
    """Everything `create_server` needs."""

    store_url: str = DEFAULT_STORE
    sqlite_sync: str = "full"  # "normal": survives a process crash but not a power loss
    host: str = "[::]"
    port: int = DEFAULT_PORT
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    previous_secrets: tuple[bytes, ...] = field(default=(), repr=False)  # still accepted
    # No secret given: use the key kept in the store (created there once, shared by every
    # replica on that store), so tokens survive restarts. `secret` is then replaced at start.
    secret_from_store: bool = False
    token_ttl_seconds: int = 7 * 24 * 3600
    heartbeat_seconds: float = 10.0
    max_watchers: int = 1000
    max_watchers_per_principal: int = 32  # one seat, or one client address for spectators
    max_log_calls_per_principal: int = 2  # concurrent GetTableLog calls
    log_page_size: int = 1000  # GetTableLog's default and maximum page size
    store_timeout_seconds: float = 3.0  # longest wait for a store connection or lock
    nats_url: str | None = None  # the cross-replica bus (PostgreSQL); None: LISTEN/NOTIFY
    # How long a busy thread (a log being built) may hold the interpreter before the event
    # loop gets it back (sys.setswitchinterval; Python's default is 0.005).
    switch_interval_seconds: float = 0.001
    cache_size: int = 4096
    max_message_bytes: int = 1 << 20
    max_hands: int = 1000
    # Free tables, per caller (client address); 0 turns a limit off. See usecases/quotas.py.
    max_bot_tables_per_caller: int = 16  # unfinished free tables with bots
    max_bot_hands: int = 100  # hands of a free table with bots
    min_time_per_move_seconds: float = 1.0  # the shortest clock of a free table
    move_retries: int = 8
    metrics_port: int = 0  # Prometheus /metrics on its own port; 0 = disabled
    metrics_host: str = "0.0.0.0"
    log_format: str = "console"  # "json" (production) or "console" (development)
    drain_seconds: float = 0.0  # on SIGTERM: report NOT_SERVING this long before stopping
    grace_seconds: float = 10.0  # then: time in-flight calls get to finish
    organiser_key: str = field(default="", repr=False)  # CreateTournament needs it ("": none)
    max_tournaments: int = 8  # tournaments running at once
    max_tournament_tables: int = 50_000  # tables in one tournament's schedule
    tournament_bot_share: float = 0.25  # share of wall time one tournament's bots may use
    # Players (docs/identity.md): sessions, identity providers, operators.
    session_ttl_seconds: int = 15 * 60  # a session token (SignIn*, RefreshSession)
    refresh_ttl_seconds: int = 30 * 24 * 3600  # its refresh token
    oidc_issuers: tuple[OidcIssuer, ...] = ()
    oidc_clock_skew_seconds: int = 60  # leeway for exp / nbf / iat of IdP tokens
    jwks_cache_seconds: float = 3600.0  # an issuer's keys are fetched again after this long
    jwks_min_refetch_seconds: float = 30.0  # an unknown kid refetches at most this often
    operator_key: str = field(default="", repr=False)  # SuspendPlayer etc. need it ("": none)
    max_api_tokens: int = 20  # live API tokens per player
    guest_sign_ins_per_minute: int = 30  # SignInGuest calls per client address and replica
    http_port: int | None = None  # Connect / gRPC-Web / gRPC over HTTP; None = off, 0 = any
    http_host: str = "[::]"
    cors_origins: tuple[str, ...] = ()  # origins browsers may call from ("*": any)
    static_dir: str | None = None  # files served on the HTTP port (the web frontend)
    http_body_timeout_seconds: float = 10.0  # a request body stalled this long is refused
    http_idle_timeout_seconds: float = 20.0  # an idle connection (or a stalled head) is closed
    http_connections_per_address: int = 64  # open HTTP connections one client address may hold
    open_table_ttl_seconds: float = 24 * 3600.0  # an open table idle this long expires; 0: never
    # Listen with SO_REUSEPORT (gRPC and HTTP ports): set for the workers of `--workers N`,
    # which share their ports and let the kernel spread connections over them.
    reuse_port: bool = False
    worker: int | None = None  # this process's index among `--workers N` (on every log line)
    # A worker of `--workers N` with metrics on: /metrics on a free port of `metrics_host`,
    # which the parent gathers into its one endpoint (`ops/gathered.py`).
    metrics_any_port: bool = False

    @property
    def accepted_secrets(self) -> tuple[bytes, ...]:
        """Every secret a token or a derived id is checked under: the current one first, then
        the previous ones still accepted (a rotation)."""
        return (self.secret, *self.previous_secrets)


def resolve_secret(
    given: str | None, environ: dict[str, str] | None = None, key_file: str | None = None
) -> bytes | None:
    """The token secret: --secret, else $TAROK_SECRET, else the key file (created on first
    start); None when none is given (the server then keeps its key in the store)."""
    env = os.environ if environ is None else environ
    text = given or env.get(SECRET_ENV, "")
    if text:
        return text.encode()
    if key_file:
        from .keyfile import load_or_create

        return load_or_create(key_file)
    return None


STORE_SECRET_NAME = "token-signing-key"


def store_secret() -> bytes:
    """A fresh key, offered to the store; the one stored first is the one every replica uses."""
    return secrets.token_hex(32).encode()
