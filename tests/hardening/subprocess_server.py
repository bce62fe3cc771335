"""A `tarok serve` in its own process with both ports on, and its memory as the kernel counts it
(resident set now and at its peak), for the tests and the soak that measure the server alone."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """`tarok serve` on an in-memory store, gRPC and HTTP ports on 127.0.0.1."""

    def __init__(self, *extra: str) -> None:
        script = Path(sys.executable).parent / "tarok"
        command = [str(script)] if script.exists() else [sys.executable, "-m", "tarok_client.cli"]
        self.http_port = free_port()
        command += ["serve", "--store", "sqlite:///:memory:", "--host", "127.0.0.1"]
        command += ["--port", "0", "--http-host", "127.0.0.1", "--http-port", str(self.http_port)]
        command += list(extra)
        env = dict(os.environ, TAROK_SECRET="http-hardening")
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
        self.proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
        )
        assert self.proc.stdout is not None
        found = re.search(r"listening on \S+:(\d+)", self.proc.stdout.readline())
        if found is None:
            self.proc.kill()
            raise AssertionError("the server did not start")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # keep it drained
        self.grpc_target = f"127.0.0.1:{found.group(1)}"

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
