"""Input limits, checked at the edge before any work: lengths and characters of every string.

Every check raises INVALID_ARGUMENT reason INVALID_FIELD naming the field. Nothing a client
sent is echoed back or logged except through `shown` / `log_text`: a short prefix with
anything unprintable escaped, so an error or a log line never grows with the input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from .. import errors as e
from ..errors import shown

MAX_ID = 64  # table and tournament ids
MAX_REQUEST_ID = 128
MAX_NAME = 40  # a player's or an entrant's name (after trimming spaces)
MAX_DISPLAY_NAME = 60  # a table's name in the lobby
MAX_REASON = 200  # why an organiser cancelled a tournament
MAX_OPTION_NAME = 40
MAX_OPTION_VALUE = 40
MAX_OPTIONS = 32
MAX_TOKEN = 512  # characters of a seat, spectator or entrant token
MAX_BEARER = 8192  # characters of a bearer token (identity provider tokens can be long)
MIN_SECRET, MAX_SECRET = 22, 128  # a guest's device secret (22: 128 bits of base64url)
MAX_PAGE_TOKEN = 64
LOG_TEXT = 128  # characters of client input a log line may carry

_ID = re.compile(r"[A-Za-z0-9_.-]+")  # "." joins a tournament id and a table number
_REQUEST_ID = re.compile(r"[\x21-\x7e]+")  # printable ASCII without spaces
_OPTION = re.compile(r"[A-Za-z0-9_.+-]+")


def log_text(value: object, limit: int = LOG_TEXT) -> object:
    """Client input made safe for a log line (bounded, escaped); other values unchanged."""
    return shown(value, limit) if isinstance(value, str) else value


def too_long(field: str, limit: int) -> e.ServiceError:
    return e.invalid(field, f"{field} is longer than {limit} characters")


def check_id(field: str, value: str) -> str:
    """A required id: 1..MAX_ID characters of A-Z a-z 0-9 _ - and "." (tournament tables)."""
    if not value:
        raise e.invalid(field, f"{field} is required")
    if len(value) > MAX_ID:
        raise too_long(field, MAX_ID)
    if not _ID.fullmatch(value):
        raise e.invalid(field, f"{field} may hold only letters, digits, '_', '-' and '.'")
    return value


def check_request_id(value: str, field: str = "request_id") -> str | None:
    """An optional request id (None when empty): printable ASCII, no spaces, bounded."""
    if not value:
        return None
    if len(value) > MAX_REQUEST_ID:
        raise too_long(field, MAX_REQUEST_ID)
    if not _REQUEST_ID.fullmatch(value):
        raise e.invalid(field, f"{field} may hold only printable ASCII without spaces")
    return value


def check_text(value: str, field: str, limit: int) -> str:
    """A text a person reads (a name, a table's name, a reason): trimmed, at most `limit`
    characters, no control, format (bidi overrides), unassigned or separator characters
    other than the plain space. Every name and free text of every RPC goes through here."""
    text = value.strip()
    if len(text) > limit:
        raise too_long(field, limit)
    if any(unicodedata.category(c)[0] in "CZ" and c != " " for c in text):
        raise e.invalid(field, f"{field} may not hold control characters or line breaks")
    return text


def check_secret(value: str, field: str) -> str:
    """A secret a client chose (a guest's device secret): MIN_SECRET..MAX_SECRET printable
    ASCII characters without spaces."""
    if not MIN_SECRET <= len(value) <= MAX_SECRET:
        raise e.invalid(field, f"{field} is {MIN_SECRET} to {MAX_SECRET} characters")
    if not _REQUEST_ID.fullmatch(value):
        raise e.invalid(field, f"{field} is printable ASCII without spaces")
    return value


def check_name(value: str, field: str = "name") -> str:
    """A player's or an entrant's name (`check_text`, at most MAX_NAME characters)."""
    return check_text(value, field, MAX_NAME)


def check_options(options: Mapping[str, str], field: str = "options") -> dict[str, str]:
    """Option names and values: bounded in number, length and characters."""
    if len(options) > MAX_OPTIONS:
        raise e.invalid(field, f"at most {MAX_OPTIONS} options may be given")
    for name, value in options.items():
        if not name or len(name) > MAX_OPTION_NAME or not _OPTION.fullmatch(name):
            raise e.invalid(field, f"option names are 1..{MAX_OPTION_NAME} of A-Z a-z 0-9 _ . + -")
        where = f"{field}.{name}"
        if len(value) > MAX_OPTION_VALUE or (value and not _OPTION.fullmatch(value)):
            raise e.invalid(
                where, f"option values are 0..{MAX_OPTION_VALUE} of A-Z a-z 0-9 _ . + -"
            )
    return dict(options)


def check_token_size(value: str, field: str = "token") -> None:
    """Reject an oversized token before any decoding (the token checks the rest)."""
    if len(value) > MAX_TOKEN:
        raise e.ServiceError(
            e.UNAUTHENTICATED, e.BAD_TOKEN, f"{field} is longer than {MAX_TOKEN} characters"
        )
