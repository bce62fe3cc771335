"""Prometheus metrics of one server instance, on its own `CollectorRegistry`.

Every server builds one `Metrics` (held by the application `Context`), so several servers
in one process (tests) never share counters. `serve_http` exposes the registry on its own
port; `MeteredStore` times appends and counts version conflicts for any backend.

Label values are bounded: RPC method names of registered services, status code names,
variant ids, contract names and reason codes. Card codes never appear in metrics.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...store import EventStore, NewEvent, StoredEvent, VersionConflict
from .rpcmetrics import Family, PlainCollector

# No `*_created` series: they only clutter the exposition and the dashboards.
disable_created_metrics()  # type: ignore[no-untyped-call]

LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
)  # fmt: skip
REPLAY_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)

# Every metric family the service exports (the names Prometheus shows, counters with
# `_total`, histograms with `_bucket` / `_sum` / `_count`). The ops tests check the
# Grafana dashboard against this list.
METRIC_NAMES = (
    "tarok_rpc_requests_total",
    "tarok_rpc_duration_seconds",
    "tarok_rpc_in_flight",
    "tarok_rpc_stream_messages_sent_total",
    "tarok_tables_created_total",
    "tarok_tables_finished_total",
    "tarok_hands_scored_total",
    "tarok_moves_total",
    "tarok_moves_rejected_total",
    "tarok_replay_duration_seconds",
    "tarok_replay_events_total",
    "tarok_cache_hits_total",
    "tarok_cache_misses_total",
    "tarok_store_append_duration_seconds",
    "tarok_store_version_conflicts_total",
    "tarok_watch_streams_active",
    "tarok_tournament_tables_in_progress",
    "tarok_translations_missing_total",
)


class Metrics:
    """All metrics of one server; methods are the domain events the app layer reports."""

    def __init__(self, registry: CollectorRegistry | None = None, process: bool = True) -> None:
        self.registry = registry if registry is not None else CollectorRegistry(auto_describe=True)
        reg = self.registry
        if process:
            ProcessCollector(registry=reg)
            PlatformCollector(registry=reg)
        # RPC metrics (filled by the interceptor, on the event loop): plain numbers.
        self.rpc_requests = Family(
            "tarok_rpc_requests", "RPCs handled, by method and status code",
            ["method", "code"], "counter",
        )  # fmt: skip
        self.rpc_duration = Family(
            "tarok_rpc_duration_seconds", "RPC handling time (streams: until they end)",
            ["method"], "histogram", LATENCY_BUCKETS,
        )  # fmt: skip
        self.rpc_in_flight = Family(
            "tarok_rpc_in_flight", "RPCs being handled now", ["method"], "gauge"
        )
        self.stream_messages = Family(
            "tarok_rpc_stream_messages_sent", "Messages sent on server streams",
            ["method"], "counter",
        )  # fmt: skip
        PlainCollector(
            reg, self.rpc_requests, self.rpc_duration, self.rpc_in_flight, self.stream_messages
        )
        # Domain metrics.
        self.tables_created = Counter(
            "tarok_tables_created", "Tables created", ["variant"], registry=reg
        )
        self.tables_finished = Counter(
            "tarok_tables_finished", "Tables played to the end", ["variant"], registry=reg
        )
        self.hands_scored = Counter(
            "tarok_hands_scored", "Hands scored (a thrown-in deal has contract 'redeal')",
            ["variant", "contract"], registry=reg,
        )  # fmt: skip
        self.moves = Counter("tarok_moves", "Moves accepted", ["variant"], registry=reg)
        self._moves_of: dict[str, Any] = {}  # the `moves` child of each variant, resolved once
        self.translations_missing = Counter(
            "tarok_translations_missing", "Labels shown in English for want of a translation",
            ["locale", "kind"], registry=reg,
        )  # fmt: skip
        self.moves_rejected = Counter(
            "tarok_moves_rejected", "SubmitMove calls refused, by reason code",
            ["reason"], registry=reg,
        )  # fmt: skip
        self.replay_duration = Histogram(
            "tarok_replay_duration_seconds", "Time to fold stored events into a table state",
            buckets=REPLAY_BUCKETS, registry=reg,
        )  # fmt: skip
        self.replay_events = Counter(
            "tarok_replay_events", "Stored events folded into table states", registry=reg
        )
        self.cache_hits = Counter(
            "tarok_cache_hits", "Table cache lookups that found the table", registry=reg
        )
        self.cache_misses = Counter(
            "tarok_cache_misses", "Table cache lookups that did not find the table", registry=reg
        )
        self.append_duration = Histogram(
            "tarok_store_append_duration_seconds", "Event store append time",
            buckets=LATENCY_BUCKETS, registry=reg,
        )  # fmt: skip
        self.version_conflicts = Counter(
            "tarok_store_version_conflicts", "Appends refused because another writer was first",
            registry=reg,
        )  # fmt: skip
        self.watch_streams = Gauge(
            "tarok_watch_streams_active", "Open WatchTable streams", registry=reg
        )
        self.tournament_tables = Gauge(
            "tarok_tournament_tables_in_progress", "Tournament tables being played",
            registry=reg,
        )  # fmt: skip

    # --- domain events ------------------------------------------------------------------

    def table_created(self, variant: str) -> None:
        self.tables_created.labels(variant).inc()

    def appended(self, variant: str, payloads: Iterable[Any]) -> None:
        """Count what a successfully appended batch of event payloads means."""
        for payload in payloads:
            if isinstance(payload, ev.MoveMade):
                child = self._moves_of.get(variant)
                if child is None:
                    child = self._moves_of[variant] = self.moves.labels(variant)
                child.inc()
            elif isinstance(payload, ev.HandScored):
                result = payload.result
                contract = "redeal" if result.redeal else (result.contract or "none")
                self.hands_scored.labels(variant, contract).inc()
            elif isinstance(payload, ev.TableClosed):
                self.tables_finished.labels(variant).inc()

    def translation_missing(self, locale: str, kind: str) -> None:
        self.translations_missing.labels(locale=locale, kind=kind).inc()

    def move_rejected(self, reason: str) -> None:
        self.moves_rejected.labels(reason).inc()

    def replayed(self, events: int, seconds: float) -> None:
        if events:
            self.replay_events.inc(events)
            self.replay_duration.observe(seconds)

    def cache_lookup(self, hit: bool) -> None:
        (self.cache_hits if hit else self.cache_misses).inc()

    # --- for the tournament code --------------------------------------------------------

    def tournament_table_started(self) -> None:
        self.tournament_tables.inc()

    def tournament_table_finished(self) -> None:
        self.tournament_tables.dec()

    def set_tournament_tables_in_progress(self, count: int) -> None:
        self.tournament_tables.set(count)

    # --- exposition ---------------------------------------------------------------------

    def exposition(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)


def set_tournament_tables_in_progress(metrics: Metrics, count: int) -> None:
    """Set `tarok_tournament_tables_in_progress` (for the tournament scheduler)."""
    metrics.set_tournament_tables_in_progress(count)


class MetricsHttp:
    """The `/metrics` HTTP endpoint of one registry (a daemon thread); `close()` stops it."""

    def __init__(self, metrics: Metrics, port: int, host: str = "0.0.0.0") -> None:
        self.server, self.thread = start_http_server(port, host, registry=metrics.registry)
        self.port = int(self.server.server_port)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


class MeteredStore:
    """An `EventStore` that times appends and counts version conflicts; all else passes on."""

    def __init__(self, inner: EventStore, metrics: Metrics) -> None:
        self.inner = inner
        self._metrics = metrics

    async def open(self) -> None:
        await self.inner.open()

    async def close(self) -> None:
        await self.inner.close()

    async def append(
        self, table_id: str, expected_version: int, events: Sequence[NewEvent], now: float
    ) -> int:
        started = time.perf_counter()
        try:
            return await self.inner.append(table_id, expected_version, events, now)
        except VersionConflict:
            self._metrics.version_conflicts.inc()
            raise
        finally:
            self._metrics.append_duration.observe(time.perf_counter() - started)

    async def read(
        self, table_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self.inner.read(table_id, after, limit)

    async def version(self, table_id: str) -> int:
        return await self.inner.version(table_id)

    async def find_request(self, table_id: str, request_id: str) -> int | None:
        return await self.inner.find_request(table_id, request_id)

    async def list_tables(self, limit: int = 100) -> list[str]:
        return await self.inner.list_tables(limit)

    async def wait_for_change(self, table_id: str, after: int, timeout: float) -> int:
        return await self.inner.wait_for_change(table_id, after, timeout)

    async def save_snapshot(self, table_id: str, seq: int, payload: bytes) -> None:
        await self.inner.save_snapshot(table_id, seq, payload)

    async def latest_snapshot(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        return await self.inner.latest_snapshot(table_id, at_most)

    async def read_tail(
        self, table_id: str, at_most: int | None = None
    ) -> tuple[tuple[int, bytes] | None, list[StoredEvent]]:
        return await self.inner.read_tail(table_id, at_most)

    async def get_or_set(self, name: str, value: bytes) -> bytes:
        return await self.inner.get_or_set(name, value)

    def __getattr__(self, name: str) -> Any:  # backend extras (e.g. `dsn`, `path`)
        return getattr(self.inner, name)
