"""One /metrics endpoint for the workers of `tarok serve --workers N`.

Each worker keeps its own registry (exact counters, gauges and histograms, as a single
server has) and serves it on a free loopback port; the parent serves `--metrics-port` and,
on every scrape, reads each worker's exposition and answers all of them as one, every
sample labelled `worker="<index>"`. Prometheus then sees one target per machine (as a
single process would give), sums over `worker` where it wants totals, and a worker's
restart shows as that worker's counters starting again from zero, as a process restart does.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

SCRAPE_TIMEOUT = 5.0  # seconds one worker's /metrics may take


class WorkersCollector:
    """A collector that gathers the workers' expositions (`ports()`: index -> port)."""

    def __init__(self, ports: Callable[[], dict[int, int]]) -> None:
        self.ports = ports

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for index, port in sorted(self.ports().items()):
            text = _read(port)
            if text is None:
                continue  # a worker being restarted: its series are missing from this scrape
            for family in text_string_to_metric_families(text):
                merged = families.get(family.name)
                if merged is None:
                    merged = Metric(family.name, family.documentation, family.type, family.unit)
                    families[family.name] = merged
                label = str(index)
                merged.samples.extend(
                    Sample(s.name, {**s.labels, "worker": label}, s.value, s.timestamp)
                    for s in family.samples
                )
        yield from families.values()


def serve_gathered(ports: Callable[[], dict[int, int]], port: int, host: str) -> Callable[[], None]:
    """Serve the workers' metrics as one on `host`:`port`; returns the function that stops it."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(WorkersCollector(ports))
    server, thread = start_http_server(port, host, registry=registry)

    def close() -> None:
        server.shutdown()
        server.server_close()
        thread.join(5)

    return close


def _read(port: int) -> str | None:
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/metrics", timeout=SCRAPE_TIMEOUT
        ) as reply:
            return str(reply.read().decode())
    except OSError:
        return None
