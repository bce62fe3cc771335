"""Hostile requests to the HTTP port, like `test_fuzz.py` does to the gRPC port.

Hypothesis builds requests in Connect JSON, Connect binary and gRPC-Web (binary and JSON):
messages with hostile values in real field names, random and mutated bytes, lying envelope
prefixes, compressed flags with and without an encoding, corrupt gzip. Every answer must be
a status other than `unknown` or `internal` (and never HTTP 500), and the server - a process
of its own, so its memory is its alone - must not grow by more than `GROWTH` while the
examples run.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator

import pytest
from google.protobuf import descriptor_pool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .subprocess_server import ServerProcess
from .wire import envelope, outcome, post

EXAMPLES = int(os.environ.get("TAROK_FUZZ_EXAMPLES", "300"))
GROWTH = 64 << 20  # bytes of resident memory the run may add
FORBIDDEN = {"unknown", "internal"}
SERVICE = descriptor_pool.Default().FindServiceByName("tarok.v1.TarokService")
METHODS = sorted(m.name for m in SERVICE.methods)
PROTOCOLS = {
    "connect-json": "application/json",
    "connect-proto": "application/proto",
    "grpc-web": "application/grpc-web+proto",
    "grpc-web-json": "application/grpc-web+json",
}


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    process = ServerProcess()
    yield process
    process.stop()


def field_names(method: str) -> list[str]:
    message = SERVICE.methods_by_name[method].input_type
    return [f.json_name for f in message.fields] + [f.name for f in message.fields]


JSON_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False),
        st.text(max_size=50),
        st.sampled_from(["", "\u202e", "x" * 5000, "AAAA", "-1", "1e999", "NaN"]),
    ),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)  # fmt: skip


@st.composite
def json_body(draw: st.DrawFn, method: str) -> bytes:
    names = [*field_names(method), "nope", ""]
    body = draw(st.dictionaries(st.sampled_from(names), JSON_VALUE, max_size=5))
    text = json.dumps(body).encode()
    return draw(st.sampled_from([text, text[: len(text) // 2], text + b"}", b"\xff" + text]))


@st.composite
def request(draw: st.DrawFn) -> tuple[str, str, bytes, dict[str, str]]:
    method = draw(st.sampled_from(METHODS))
    protocol = draw(st.sampled_from(sorted(PROTOCOLS)))
    if protocol.endswith("json"):
        message = draw(json_body(method) | st.binary(max_size=200))
    else:
        message = draw(st.binary(max_size=300))
    headers: dict[str, str] = {}
    compress = draw(st.sampled_from(["none", "gzip", "corrupt-gzip", "flag-only"]))
    if compress == "gzip":
        message = gzip.compress(message)
    elif compress == "corrupt-gzip":
        message = gzip.compress(message)[: draw(st.integers(0, 30))] + draw(st.binary(max_size=8))
    if protocol.startswith("grpc-web"):
        if compress in ("gzip", "corrupt-gzip"):
            headers["Grpc-Encoding"] = "gzip"
        flags = 1 if compress != "none" else draw(st.sampled_from([0, 0, 0x80, 0x03]))
        body = envelope(message, flags)
        body = draw(st.sampled_from([body, body[: max(1, len(body) - 3)], body + body]))
    else:
        if compress in ("gzip", "corrupt-gzip"):
            headers["Content-Encoding"] = "gzip"
        body = message
    return f"/tarok.v1.TarokService/{method}", PROTOCOLS[protocol], body, headers


def test_http_port_answers_hostile_requests_without_unknown_or_internal(
    server: ServerProcess,
) -> None:
    for _ in range(50):  # warm up: the first calls of each kind allocate for good
        post(server.http_port, "/tarok.v1.TarokService/Ping", b"{}", "application/json")
    baseline = server.rss()
    answered: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=True,
        database=None,
    )
    @given(request())
    def fuzz(call: tuple[str, str, bytes, dict[str, str]]) -> None:
        path, content_type, body, headers = call
        answer = post(server.http_port, path, body, content_type, **headers)
        assert answer.status != 500
        code, _ = outcome(answer, content_type)
        assert code not in FORBIDDEN, (path, content_type, body[:80], headers, answer)
        assert len(answer.body) < 1 << 20
        answered.append(code)

    fuzz()
    grown = server.rss() - baseline
    print(f"{len(answered)} requests; codes {sorted(set(answered))}; RSS grew {grown >> 10} KiB")
    assert len(answered) >= EXAMPLES
    assert grown < GROWTH
