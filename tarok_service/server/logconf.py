"""structlog setup: JSON lines in production, a readable console renderer in development.

Every line carries what the interceptor bound for the current request (request_id, table,
seat, variant, method). The service never logs card codes - moves are logged by kind
only - and as a second line of defence `scrub_cards` masks any card code that slips into
free text (an exception message, say) before a line is rendered.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from contextvars import ContextVar
from functools import cache
from typing import Any, TextIO

import structlog

FORMATS = ("json", "console")
CARD_MASK = "<card>"
# Fields whose values are known not to hold card codes (skipped by the scrubber).
SAFE_KEYS = frozenset(
    {"timestamp", "level", "event", "method", "request_id", "table", "seat", "variant",
     "code", "reason", "ms", "move_kind", "logger", "port", "store", "format"}
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
    from ..variants.registry import all_variants

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


def configure_logging(
    fmt: str = "console", level: int = logging.INFO, stream: TextIO | None = None
) -> None:
    """Configure structlog globally: `fmt` is "json" or "console"; lines go to `stream`."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {FORMATS}, not {fmt!r}")
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(stream or sys.stderr),
        processors=[
            structlog.contextvars.merge_contextvars,
            add_request_context,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            scrub_cards,
            renderer,
        ],
        cache_logger_on_first_use=False,
    )
