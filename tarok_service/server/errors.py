"""Transport-neutral service errors with stable reason codes.

The application layer raises `ServiceError`s; each transport maps `kind` to its own status
(gRPC: `server/transport/grpc_status.py`). Reason codes are stable strings; the engine's move
reasons (`engine/moves.py`) are reused as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

SHOWN = 32  # characters of client input an error message may quote

# Error kinds (one per status a transport may answer with).
INVALID_ARGUMENT = "invalid_argument"
FAILED_PRECONDITION = "failed_precondition"
ABORTED = "aborted"
NOT_FOUND = "not_found"
UNAUTHENTICATED = "unauthenticated"
PERMISSION_DENIED = "permission_denied"
RESOURCE_EXHAUSTED = "resource_exhausted"
INTERNAL = "internal"
UNAVAILABLE = "unavailable"
UNIMPLEMENTED = "unimplemented"
DEADLINE_EXCEEDED = "deadline_exceeded"

# Service reason codes.
INVALID_FIELD = "INVALID_FIELD"
UNKNOWN_VARIANT = "UNKNOWN_VARIANT"
BAD_OPTION = "BAD_OPTION"
BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
BAD_DEAL = "BAD_DEAL"
MALFORMED_MOVE = "MALFORMED_MOVE"
STALE_VERSION = "STALE_VERSION"
TABLE_NOT_FOUND = "TABLE_NOT_FOUND"
TABLE_FINISHED = "TABLE_FINISHED"
TABLE_NOT_STARTED = "TABLE_NOT_STARTED"
SEAT_TAKEN = "SEAT_TAKEN"
TABLE_FULL = "TABLE_FULL"
BAD_TOKEN = "BAD_TOKEN"
TOKEN_EXPIRED = "TOKEN_EXPIRED"
SPECTATOR_CANNOT_MOVE = "SPECTATOR_CANNOT_MOVE"
TOO_MANY_WATCHERS = "TOO_MANY_WATCHERS"
CONTENTION = "CONTENTION"
REPLAY_MISMATCH = "REPLAY_MISMATCH"
INTERNAL_ERROR = "INTERNAL_ERROR"
ENGINE_BUG = "ENGINE_BUG"  # the rules reached a state that cannot arise (never a client's fault)
STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
TOKEN_REVOKED = "TOKEN_REVOKED"
TABLE_STARTED = "TABLE_STARTED"
TABLE_EXPIRED = "TABLE_EXPIRED"
MALFORMED_REQUEST = "MALFORMED_REQUEST"  # the request's bytes are not a valid message
REQUEST_ID_REUSED = "REQUEST_ID_REUSED"  # a request id already used for another request
ALREADY_JOINED = "ALREADY_JOINED"  # a repeated JoinTable: its token is not sent again
SEAT_RESERVED = "SEAT_RESERVED"  # a rematch seat: only its player takes it (Rematch)
TOO_MANY_REQUESTS = "TOO_MANY_REQUESTS"  # one caller's share of expensive calls is in use
MESSAGE_TOO_LARGE = "MESSAGE_TOO_LARGE"  # a request (or its inflated message) over the limit
UNKNOWN_METHOD = "UNKNOWN_METHOD"  # no such RPC method
REQUEST_STALLED = "REQUEST_STALLED"  # a request body that stopped arriving
NO_MATCH = "NO_MATCH"  # FindMatch: nobody to play with within the wait (docs/players.md)
NOT_YOUR_TABLE = "NOT_YOUR_TABLE"  # a finished table that is not in the caller's history
SERVER_STOPPING = "SERVER_STOPPING"  # a stream ended by the server's shutdown: call again


# Tournaments, rematches (kept here with every other reason: errors are mapped in one place)
TOURNAMENT_NOT_FOUND = "TOURNAMENT_NOT_FOUND"
ORGANISER_KEY_REQUIRED = "ORGANISER_KEY_REQUIRED"
BAD_ORGANISER_KEY = "BAD_ORGANISER_KEY"
WRONG_TOURNAMENT = "WRONG_TOURNAMENT"
TOURNAMENT_SEALED = "TOURNAMENT_SEALED"
TOURNAMENT_OVER = "TOURNAMENT_OVER"
TOO_MANY_TOURNAMENTS = "TOO_MANY_TOURNAMENTS"
TOO_MANY_TABLES = "TOO_MANY_TABLES"
TABLE_NOT_FINISHED = "TABLE_NOT_FINISHED"
NOT_ANALYSABLE = "NOT_ANALYSABLE"

# Players and sign-in (docs/identity.md)
SIGN_IN_REQUIRED = "SIGN_IN_REQUIRED"  # the call needs a signed-in caller (a bearer token)
WRONG_ISSUER = "WRONG_ISSUER"  # an identity provider token of an issuer not configured
WRONG_AUDIENCE = "WRONG_AUDIENCE"  # an identity provider token for another audience
UNKNOWN_KEY = "UNKNOWN_KEY"  # signed with a key id its issuer does not publish
PLAYER_SUSPENDED = "PLAYER_SUSPENDED"  # an operator suspended the token's player
IDP_UNAVAILABLE = "IDP_UNAVAILABLE"  # the identity provider's keys could not be fetched
IDENTITY_TAKEN = "IDENTITY_TAKEN"  # the account already signs in as another player
SCOPE_DENIED = "SCOPE_DENIED"  # the token's scopes do not allow this call
TOO_MANY_TOKENS = "TOO_MANY_TOKENS"  # a player's limit of live API tokens
TOKEN_NOT_FOUND = "TOKEN_NOT_FOUND"  # no API token with this id
OPERATOR_KEY_REQUIRED = "OPERATOR_KEY_REQUIRED"
BAD_OPERATOR_KEY = "BAD_OPERATOR_KEY"
PLAYER_NOT_FOUND = "PLAYER_NOT_FOUND"
ALREADY_SEATED = "ALREADY_SEATED"  # the caller's player already holds a seat of the table
NOT_YOUR_SEAT = "NOT_YOUR_SEAT"  # the caller's player holds no seat of the table


def shown(value: str, limit: int = SHOWN) -> str:
    """A short quotable prefix of client input: printable ASCII as is, the rest escaped."""
    if len(value) <= limit and value.isascii() and value.isprintable():
        return value  # the common case (ids, tokens): nothing to escape or cut
    text = value[:limit].encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    return text + ("..." if len(value) > limit else "")


class ServiceError(Exception):
    """A request the service refuses: a kind (status), a stable reason, a sentence, metadata."""

    def __init__(
        self, kind: str, reason: str, message: str, metadata: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.reason = reason
        self.message = message
        self.metadata: dict[str, str] = dict(metadata or {})

    def __repr__(self) -> str:
        return f"ServiceError({self.kind}, {self.reason}, {self.message!r}, {self.metadata})"


def invalid(field: str, message: str, reason: str = INVALID_FIELD) -> ServiceError:
    """INVALID_ARGUMENT naming the offending request field."""
    return ServiceError(INVALID_ARGUMENT, reason, message, {"field": field})


def precondition(reason: str, message: str, **metadata: str) -> ServiceError:
    return ServiceError(FAILED_PRECONDITION, reason, message, metadata)


def sealed(tournament_id: str, what: str, whose: str = "for its organiser only") -> ServiceError:
    """PERMISSION_DENIED: `what` is the organiser's until the tournament is over."""
    return ServiceError(
        PERMISSION_DENIED,
        TOURNAMENT_SEALED,
        f"{what} of a running tournament are {whose}",
        {"tournament_id": tournament_id},
    )


def not_found(table_id: str) -> ServiceError:
    return ServiceError(
        NOT_FOUND, TABLE_NOT_FOUND, f"no table {shown(table_id)!r}", {"table_id": shown(table_id)}
    )


def stale(expected: int, current: int) -> ServiceError:
    """ABORTED: the client's expected_version is not the table's version."""
    return ServiceError(
        ABORTED,
        STALE_VERSION,
        f"expected version {expected}, table is at version {current}",
        {"expected_version": str(expected), "current_version": str(current)},
    )


class ReplayMismatch(ServiceError):
    """A recorded derived fact (HandScored, TableClosed) differs from its re-derivation."""

    def __init__(self, table_id: str, version: int, what: str) -> None:
        super().__init__(
            INTERNAL,
            REPLAY_MISMATCH,
            f"table {table_id} event {version}: recorded {what} differs from its replay",
            {"table_id": table_id, "version": str(version)},
        )
