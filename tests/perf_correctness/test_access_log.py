"""The background access-log writer: every line is written, in order, with its level."""

from __future__ import annotations

import io
import json

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
