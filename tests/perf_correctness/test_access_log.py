"""The background access-log writer: every line is written, in order, with its level."""

from __future__ import annotations

import io
import json
import logging

import structlog

from tarok_service.server.accesslog import AccessLog
from tarok_service.server.logconf import CARD_MASK


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
    from tarok_service.server import accesslog
    from tarok_service.server.logconf import configure_logging

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
    from tarok_service.server import accesslog
    from tarok_service.server.logconf import configure_logging

    saved = structlog.get_config()
    stream = io.StringIO()
    configure_logging("json", level=logging.ERROR, stream=stream)
    try:
        accesslog._write([(False, {"request_id": "a"}), (True, {"request_id": "b"})])
    finally:
        structlog.configure(**saved)
    assert [x["request_id"] for x in _lines(stream)] == ["b"]
