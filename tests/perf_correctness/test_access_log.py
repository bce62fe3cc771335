"""The background access-log writer: every line is written, in order, with its level."""

from __future__ import annotations

import datetime
import io
import json
import logging
import re
import time

import pytest
import structlog

from tarok_service.server.ops.accesslog import AccessLog
from tarok_service.server.ops.logconf import CARD_MASK


def _lines(buffer: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_every_line_is_written_in_order_after_flush(captured: io.StringIO) -> None:
    writer = AccessLog()
    for i in range(500):
        writer.write(i % 100 == 0, {"request_id": f"r{i}", "code": "OK", "ms": 0.1})
    assert writer.flush(30)
    lines = _lines(captured)
    assert [x["request_id"] for x in lines] == [f"r{i}" for i in range(500)]
    assert all(x["event"] == "rpc" for x in lines)
    errors = [x["request_id"] for x in lines if x["level"] == "error"]
    assert errors == [f"r{i}" for i in range(0, 500, 100)]


def test_a_full_queue_writes_on_the_caller(captured: io.StringIO) -> None:
    writer = AccessLog(limit=0)  # always "full": nothing is queued, nothing is lost
    writer.write(False, {"request_id": "a"})
    assert [x["request_id"] for x in _lines(captured)] == ["a"]  # before any flush
    assert writer.flush(30)


def test_lines_are_still_scrubbed(captured: io.StringIO) -> None:
    writer = AccessLog()
    writer.write(True, {"request_id": "x", "error": "bad card T21 in hand"})
    assert writer.flush(30)
    (line,) = _lines(captured)
    assert CARD_MASK in str(line["error"]) and "T21" not in str(line["error"])


def test_flush_without_lines_returns_at_once() -> None:
    assert AccessLog().flush(1)


class _CountingStream(io.StringIO):
    """A stream that counts its flushes (PrintLogger flushes once per call)."""

    flushes = 0

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def _render(lines: list[tuple[bool, dict[str, object]]], batched: bool) -> _CountingStream:
    from tarok_service.server.ops import accesslog
    from tarok_service.server.ops.logconf import configure_logging

    saved = structlog.get_config()
    stream = _CountingStream()
    configure_logging("json", stream=stream)
    try:
        if batched:
            accesslog._write([(e, dict(f)) for e, f in lines])
        else:
            for error, fields in lines:
                accesslog._emit(error, dict(fields))
    finally:
        structlog.configure(**saved)
    return stream


def test_a_burst_is_one_write_with_the_same_lines() -> None:
    lines: list[tuple[bool, dict[str, object]]] = [
        (i % 7 == 0, {"request_id": f"r{i}", "code": "OK", "ms": 0.1, "error": "card T21"})
        for i in range(50)
    ]
    one_by_one, batched = _render(lines, False), _render(lines, True)
    assert batched.flushes == 1 and one_by_one.flushes == 50

    def without_time(stream: io.StringIO) -> list[dict[str, object]]:
        out = _lines(stream)
        for line in out:
            line.pop("timestamp")
        return out

    assert without_time(batched) == without_time(one_by_one)
    assert len(batched.getvalue().splitlines()) == 50 and batched.getvalue().endswith("\n")


def test_a_burst_keeps_the_level_filter() -> None:
    from tarok_service.server.ops import accesslog
    from tarok_service.server.ops.logconf import configure_logging

    saved = structlog.get_config()
    stream = io.StringIO()
    configure_logging("json", level=logging.ERROR, stream=stream)
    try:
        accesslog._write([(False, {"request_id": "a"}), (True, {"request_id": "b"})])
    finally:
        structlog.configure(**saved)
    assert [x["request_id"] for x in _lines(stream)] == ["b"]


def _chain_text(error: bool, fields: dict[str, object]) -> str:
    """The line as structlog's configured chain renders it (the pure path)."""
    config = structlog.get_config()
    chain = structlog.wrap_logger(
        structlog.ReturnLogger(),
        processors=config["processors"],
        wrapper_class=config["wrapper_class"],
        context_class=config["context_class"],
    )
    text = chain.error("rpc", **fields) if error else chain.info("rpc", **fields)
    return str(text)


def _untimed(text: str) -> str:
    return re.sub(r'"timestamp": "[^"]*"', '"timestamp": ""', text)


class _Opaque:
    def __repr__(self) -> str:
        return "<opaque T21>"


ACCESS_FIELDS: list[dict[str, object]] = [
    {"request_id": "r1", "table": None, "seat": None, "variant": None,
     "method": "/tarok.v1.TarokService/Ping", "code": "OK", "ms": 0.12},
    {"request_id": "r2", "table": "t-\u00e9\"\\", "seat": 3, "variant": "slovenian",
     "method": "/tarok.v1.TarokService/SubmitMove", "move_kind": "play",
     "code": "FAILED_PRECONDITION", "ms": 12.0, "reason": "NOT_YOUR_TURN"},
    {"request_id": "r3", "error": "bad card T21", "ms": 1e-05, "n": 10**20, "ok": True,
     "odd": ("a", 1), "obj": _Opaque()},
]  # fmt: skip


@pytest.mark.parametrize("error", [False, True])
@pytest.mark.parametrize("fields", ACCESS_FIELDS)
def test_the_fast_renderer_writes_the_chains_text(
    captured: io.StringIO, fields: dict[str, object], error: bool
) -> None:
    from tarok_service.server.ops.logconf import access_renderer

    fast = access_renderer()
    assert fast is not None
    text = fast(error, dict(fields))
    assert text is not None and _untimed(text) == _untimed(_chain_text(error, dict(fields)))
    assert list(json.loads(text)) == [*fields, "event", "level", "timestamp"]


def test_the_fast_renderer_keeps_the_level_filter() -> None:
    from tarok_service.server.ops.logconf import access_renderer, configure_logging

    saved = structlog.get_config()
    configure_logging("json", level=logging.ERROR, stream=io.StringIO())
    try:
        fast = access_renderer()
        assert fast is not None
        assert fast(False, {"request_id": "a"}) is None
        assert fast(True, {"request_id": "b"}) is not None
    finally:
        structlog.configure(**saved)


def test_the_fast_renderer_is_only_for_our_json_chain(captured: io.StringIO) -> None:
    from tarok_service.server.ops.logconf import access_renderer, configure_logging

    saved = structlog.get_config()
    try:
        configure_logging("console", stream=io.StringIO())
        assert access_renderer() is None
        configure_logging("json", stream=io.StringIO())
        structlog.configure(processors=[structlog.processors.JSONRenderer()])
        assert access_renderer() is None  # reconfigured elsewhere: the chain renders
    finally:
        structlog.configure(**saved)


@pytest.mark.parametrize("nanos", [0, 1_000, 999_999_999, 123_456_789])
def test_timestamps_read_as_structlogs_iso_utc(monkeypatch: pytest.MonkeyPatch, nanos: int) -> None:
    from tarok_service.server.ops import logconf

    now = 1_796_000_000 * 1_000_000_000 + nanos
    monkeypatch.setattr(time, "time_ns", lambda: now)
    monkeypatch.setattr(logconf, "_second", (-1, ""))
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
    expected = epoch + datetime.timedelta(microseconds=now // 1000)
    want = expected.isoformat().replace("+00:00", "Z")
    for _ in range(2):  # the second's text computed, then reused
        assert logconf.add_timestamp(None, "info", {})["timestamp"] == want


def test_the_stamper_matches_structlogs_format() -> None:
    from tarok_service.server.ops.logconf import add_timestamp

    ours = str(add_timestamp(None, "info", {})["timestamp"])
    stamper = structlog.processors.TimeStamper(fmt="iso", utc=True)
    theirs = str(stamper(None, "info", {})["timestamp"])
    pattern = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z"
    assert re.fullmatch(pattern, ours) and re.fullmatch(pattern, theirs)
    assert ours[:16] <= theirs[:16]  # same minute, or a later one for structlog
