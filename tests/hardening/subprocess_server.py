"""A `tarok serve` in its own process with both ports on, and its memory as the kernel counts it
(resident set now and at its peak), for the tests and the soak that measure the server alone."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

from bench.serverproc import start_server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """`tarok serve` on an in-memory store (bench/serverproc.py), gRPC and HTTP ports on
    127.0.0.1."""

    def __init__(self, *extra: str) -> None:
        self.http_port = free_port()
        http = ("--http-host", "127.0.0.1", "--http-port", str(self.http_port))
        self.proc, self.grpc_target = start_server("sqlite:///:memory:", *http, *extra)

    def status(self, field: str) -> int:
        """A field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: the peak)."""
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        found = re.search(rf"^{field}:\s+(\d+) kB", text, re.MULTILINE)
        assert found is not None, field
        return int(found.group(1)) * 1024

    def rss(self) -> int:
        return self.status("VmRSS")

    def peak_rss(self) -> int:
        return self.status("VmHWM")

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(30)
