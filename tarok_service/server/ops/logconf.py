"""structlog setup: JSON lines in production, a readable console renderer in development.

Every line carries what the interceptor bound for the current request (request_id, table,
seat, variant, method). The service never logs card codes - moves are logged by kind
only - and as a second line of defence `scrub_cards` masks any card code that slips into
free text (an exception message, say) before a line is rendered.
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
import time
from collections.abc import Callable, MutableMapping
from contextvars import ContextVar
from functools import cache
from typing import Any, TextIO

import structlog

FORMATS = ("json", "console")
CARD_MASK = "<card>"
# Fields whose values are known not to hold card codes (skipped by the scrubber).
SAFE_KEYS = frozenset(
    {"timestamp", "level", "event", "method", "request_id", "table", "seat", "variant",
     "code", "reason", "ms", "move_kind", "logger", "port", "store", "format", "worker"}
)  # fmt: skip
_TOKEN = re.compile(r"[A-Za-z0-9.]+")

# The current call's fields (request_id, table, seat, variant, method, ...), set by the
# interceptor once per call: one ContextVar is much cheaper than binding every key.
request_context: ContextVar[dict[str, Any] | None] = ContextVar("tarok_request", default=None)


def add_request_context(
    _: Any, __: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: the current call's fields (explicit keys win)."""
    fields = request_context.get()
    if fields:
        for key, value in fields.items():
            event.setdefault(key, value)
    return event


@cache
def card_codes() -> frozenset[str]:
    """Every card code of every variant and player count."""
    from ...variants.registry import all_variants

    codes: set[str] = set()
    for variant in all_variants():
        for players in variant.player_counts:
            codes.update(variant.deck(variant.make_rules(players, {})).by_code)
    return frozenset(codes)


def scrub_text(text: str) -> str:
    """`text` with every card code token replaced by CARD_MASK."""
    codes = card_codes()
    return _TOKEN.sub(lambda m: CARD_MASK if m.group(0) in codes else m.group(0), text)


def scrub_cards(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: mask card codes in every free-text field."""
    for key, value in event.items():
        if key not in SAFE_KEYS and isinstance(value, str):
            event[key] = scrub_text(value)
    return event


_second: tuple[int, str] = (-1, "")  # the last whole second stamped, and its text


def add_timestamp(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: "timestamp", the UTC time in ISO 8601 - the same text as
    `TimeStamper(fmt="iso", utc=True)` (microseconds, truncated, and left out when 0;
    a "Z" suffix), formatting each second's date and time only once."""
    global _second
    seconds, nanos = divmod(time.time_ns(), 1_000_000_000)
    known, text = _second  # one tuple: threads never see a second with another's text
    if known != seconds:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _second = (seconds, text)
    micros = nanos // 1000
    event["timestamp"] = f"{text}.{micros:06d}Z" if micros else f"{text}Z"
    return event


_ENCODERS: dict[Any, Callable[[Any], str]] = {}


def _dumps(obj: Any, default: Any = None, **kw: Any) -> str:
    """json.dumps for JSONRenderer, with one encoder reused (not one built per line)."""
    if kw:
        return json.dumps(obj, default=default, **kw)
    encode = _ENCODERS.get(default)
    if encode is None:
        encode = _ENCODERS[default] = json.JSONEncoder(default=default).encode
    return encode(obj)


class AccessLineRenderer:
    """Renders an access line ("rpc" with the call's fields) exactly as the configured JSON
    chain would on the access-log writer thread, without the chain's per-line machinery:
    there the context processors add nothing (no context on that thread, and the fields
    are the call's own), and the fields never hold exc_info."""

    def __init__(
        self, processors: list[Any], level: int, fixed: dict[str, Any] | None = None
    ) -> None:
        self.processors = processors  # the chain this renders like (see `access_renderer`)
        self._fixed = fixed or {}  # the process's own fields (`AddFixed`), on every line
        self._info = level <= logging.INFO
        self._error = level <= logging.ERROR
        self._render = processors[-1]

    def __call__(self, error: bool, fields: dict[str, Any]) -> str | None:
        """The line's text (`fields` is used up), or None when its level is filtered out."""
        if not (self._error if error else self._info):
            return None
        name = "error" if error else "info"
        for key, value in self._fixed.items():
            fields.setdefault(key, value)
        fields["event"] = "rpc"
        fields["level"] = name
        add_timestamp(None, name, fields)
        scrub_cards(None, name, fields)
        return str(self._render(None, name, fields))


class AddFixed:
    """structlog processor: fields fixed for the whole process (the worker's index under
    `tarok serve --workers N`), on every line."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields

    def __call__(
        self, _: Any, __: str, event: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        for key, value in self.fields.items():
            event.setdefault(key, value)
        return event


_access_renderer: AccessLineRenderer | None = None


def access_renderer() -> AccessLineRenderer | None:
    """The fast access-line renderer, when structlog is still configured as
    `configure_logging` left it with JSON lines (else None: use structlog)."""
    renderer = _access_renderer
    if renderer is None or structlog.get_config()["processors"] is not renderer.processors:
        return None
    return renderer


def whole_line_stderr() -> TextIO:
    """Standard error written one whole line per write: a buffered wrapper of descriptor 2
    that flushes at each newline (Python's own stderr writes a line and its newline
    separately). Processes sharing it (the workers of `tarok serve --workers N`) then never
    mix parts of their lines, for lines up to PIPE_BUF (4096) bytes."""
    raw = io.FileIO(2, "w", closefd=False)
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    return io.TextIOWrapper(
        io.BufferedWriter(raw, 1 << 16),
        encoding=encoding,
        errors="backslashreplace",
        line_buffering=True,
    )


def configure_logging(
    fmt: str = "console",
    level: int = logging.INFO,
    stream: TextIO | None = None,
    worker: int | None = None,
) -> None:
    """Configure structlog globally: `fmt` is "json" or "console"; lines go to `stream`;
    `worker`: this process's index under `tarok serve --workers N`, as "worker" on every line."""
    global _access_renderer
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {FORMATS}, not {fmt!r}")
    renderer: Any = (
        structlog.processors.JSONRenderer(serializer=_dumps)
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    fixed = {} if worker is None else {"worker": worker}
    processors = [
        structlog.contextvars.merge_contextvars,
        add_request_context,
        *([AddFixed(fixed)] if fixed else []),
        structlog.processors.add_log_level,
        add_timestamp,
        structlog.processors.format_exc_info,
        scrub_cards,
        renderer,
    ]
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(stream or sys.stderr),
        processors=processors,
        cache_logger_on_first_use=False,
    )
    _access_renderer = AccessLineRenderer(processors, level, fixed) if fmt == "json" else None
