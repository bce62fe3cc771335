"""A NATS cluster of `size` servers on loopback ports, for the bus and failover tests."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

from .procs import Proc, accepts, free_port, wait_until


def nats_server() -> str | None:
    return shutil.which("nats-server")


class NatsCluster:
    def __init__(self, root: Path, size: int = 3) -> None:
        self.root = root
        self.size = size
        self.ports = [free_port() for _ in range(size)]
        self.routes = [free_port() for _ in range(size)]
        self.monitors = [free_port() for _ in range(size)]
        self.procs: list[Proc | None] = [None] * size

    @property
    def url(self) -> str:
        return ",".join(f"nats://127.0.0.1:{p}" for p in self.ports)

    def start(self) -> None:
        for i in range(self.size):
            self.start_node(i)
        wait_until(lambda: all(self.routed(i) for i in range(self.size)), "NATS routes", 60)

    def start_node(self, i: int) -> None:
        routes = ",".join(f"nats://127.0.0.1:{p}" for j, p in enumerate(self.routes) if j != i)
        argv = [
            str(nats_server()),
            "-a", "127.0.0.1", "-p", str(self.ports[i]),
            "-m", str(self.monitors[i]),
            "-n", f"tarok-nats-{i}",
            "--cluster_name", "tarok",
            "--cluster", f"nats://127.0.0.1:{self.routes[i]}",
            "--routes", routes,
        ]  # fmt: skip
        self.procs[i] = Proc(f"nats-{i}", argv, self.root / f"nats-{i}.log")
        wait_until(lambda: accepts(self.ports[i]), f"nats-{i} port", 30)

    def routed(self, i: int) -> bool:
        """True when node `i` has a route to every other node."""
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.monitors[i]}/routez", timeout=2
            ) as answer:
                return int(json.load(answer)["num_routes"]) >= self.size - 1
        except OSError:
            return False

    def stop_node(self, i: int) -> None:
        proc = self.procs[i]
        if proc is not None:
            proc.stop()
            self.procs[i] = None

    def stop(self) -> None:
        for i in range(self.size):
            self.stop_node(i)
