"""The RPC metrics as plain numbers, read by Prometheus at scrape time.

The interceptor counts every call (requests by method and code, latency, in flight, stream
messages). prometheus_client's Counter / Gauge / Histogram take a lock and go through a
value object per update - several per call on the event loop. These families keep plain
ints and floats instead, updated only on the event loop's thread (the interceptor's), and
a `Collector` turns them into the same families, names, labels, buckets and help texts at
scrape time. A scrape (another thread) may see a call counted in one family and not yet in
the next, as it may with prometheus_client.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Any

from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector, CollectorRegistry
from prometheus_client.utils import floatToGoString


class Count:
    """One counter or gauge series."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: float = 0

    def inc(self, amount: float = 1) -> None:
        self.value += amount

    def dec(self, amount: float = 1) -> None:
        self.value -= amount


class Timing:
    """One histogram series: a count per bucket (not cumulative), the sum."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = bounds  # upper bounds, ascending, ending with +Inf
        self.counts = [0] * len(bounds)
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        self.sum += amount
        self.counts[bisect_left(self.bounds, amount)] += 1  # le: amount <= bound


class Family:
    """A labelled family of `Count` or `Timing` series: `labels(...)` as prometheus_client."""

    def __init__(
        self, name: str, doc: str, labelnames: Sequence[str], kind: str,
        buckets: Sequence[float] = (),
    ) -> None:  # fmt: skip
        self.name, self.doc, self.labelnames, self.kind = name, doc, tuple(labelnames), kind
        self.bounds = (*buckets, float("inf")) if kind == "histogram" else ()
        self._le = [floatToGoString(b) for b in self.bounds]  # type: ignore[no-untyped-call]
        self.series: dict[tuple[str, ...], Any] = {}

    def labels(self, *values: str) -> Any:
        key = tuple(str(v) for v in values)
        child = self.series.get(key)
        if child is None:
            if len(key) != len(self.labelnames):
                raise ValueError(f"{self.name}: expected labels {self.labelnames}, got {key}")
            child = Timing(self.bounds) if self.kind == "histogram" else Count()
            self.series[key] = child
        return child

    def metric(self) -> Metric:
        names = list(self.labelnames)
        series = list(self.series.items())  # a copy: the loop may add series meanwhile
        if self.kind == "counter":
            counter = CounterMetricFamily(self.name, self.doc, labels=names)
            for key, child in series:
                counter.add_metric(list(key), child.value)
            return counter
        if self.kind == "gauge":
            gauge = GaugeMetricFamily(self.name, self.doc, labels=names)
            for key, child in series:
                gauge.add_metric(list(key), child.value)
            return gauge
        histogram = HistogramMetricFamily(self.name, self.doc, labels=names)
        for key, child in series:
            counts, total, running = list(child.counts), child.sum, 0
            buckets = []
            for le, count in zip(self._le, counts, strict=True):
                running += count
                buckets.append((le, running))
            histogram.add_metric(list(key), buckets, total)
        return histogram


class PlainCollector(Collector):
    """Registers `families` on `registry` (in this order) and exposes them at scrape time."""

    def __init__(self, registry: CollectorRegistry, *families: Family) -> None:
        self.families = families
        registry.register(self)

    def collect(self) -> Iterator[Metric]:
        for family in self.families:
            yield family.metric()
