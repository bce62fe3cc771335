"""The RPC metrics' plain-number families expose exactly what prometheus_client's would."""

from __future__ import annotations

import random
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from tarok_service.server.ops.metrics import LATENCY_BUCKETS, Metrics
from tarok_service.server.ops.rpcmetrics import Family, PlainCollector

METHODS = ("/tarok.v1.TarokService/SubmitMove", "/tarok.v1.TarokService/WatchTable", "/x")
CODES = ("OK", "FAILED_PRECONDITION", "INTERNAL")


def _families(plain: bool, registry: CollectorRegistry) -> list[Any]:
    if plain:
        families = [
            Family("req", "requests", ["method", "code"], "counter"),
            Family("dur_seconds", "time", ["method"], "histogram", LATENCY_BUCKETS),
            Family("flight", "in flight", ["method"], "gauge"),
            Family("sent", "messages", ["method"], "counter"),
        ]
        PlainCollector(registry, *families)
        return families
    return [
        Counter("req", "requests", ["method", "code"], registry=registry),
        Histogram("dur_seconds", "time", ["method"], buckets=LATENCY_BUCKETS, registry=registry),
        Gauge("flight", "in flight", ["method"], registry=registry),
        Counter("sent", "messages", ["method"], registry=registry),
    ]


def _exposition(plain: bool, seed: int) -> bytes:
    registry = CollectorRegistry(auto_describe=True)
    requests, duration, flight, sent = _families(plain, registry)
    rng = random.Random(seed)
    duration.labels(METHODS[0])  # a series shown before its first observation
    flight.labels(METHODS[1])
    for _ in range(2000):
        method = rng.choice(METHODS)
        flight.labels(method).inc()
        # bounds exactly, between them, beyond the last
        elapsed = rng.choice([*LATENCY_BUCKETS, rng.random() * 0.05, 31.0, 0.0])
        duration.labels(method).observe(elapsed)
        requests.labels(method, rng.choice(CODES)).inc()
        sent.labels(method).inc(rng.choice([1, 32]))
        if rng.random() < 0.9:
            flight.labels(method).dec()
    return generate_latest(registry)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_plain_families_expose_what_prometheus_client_does(seed: int) -> None:
    assert _exposition(True, seed) == _exposition(False, seed)


def test_the_servers_rpc_families_are_exposed() -> None:
    metrics = Metrics(process=False)
    metrics.rpc_requests.labels("/m", "OK").inc()
    metrics.rpc_duration.labels("/m").observe(0.002)
    metrics.rpc_in_flight.labels("/m").inc()
    metrics.stream_messages.labels("/w").inc(32)
    reg = metrics.registry
    assert reg.get_sample_value("tarok_rpc_requests_total", {"method": "/m", "code": "OK"}) == 1
    assert reg.get_sample_value("tarok_rpc_duration_seconds_count", {"method": "/m"}) == 1
    assert (
        reg.get_sample_value("tarok_rpc_duration_seconds_bucket", {"method": "/m", "le": "0.0025"})
        == 1
    )
    assert reg.get_sample_value("tarok_rpc_in_flight", {"method": "/m"}) == 1
    assert reg.get_sample_value("tarok_rpc_stream_messages_sent_total", {"method": "/w"}) == 32


def test_wrong_label_count_is_refused() -> None:
    with pytest.raises(ValueError):
        Metrics(process=False).rpc_requests.labels("/m")
