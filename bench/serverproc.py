"""A `tarok serve` process for the benchmarks: started on a free port, its gRPC target returned."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench"  # the token secret the benchmarks' servers run with


def rss_kib(pid: int) -> int:
    """A process's resident memory in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit("no VmRSS (Linux only)")


def start_server(store: str, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """Start `tarok serve --store STORE` (plus `extra` flags); return the process and target."""
    env = dict(os.environ, TAROK_SECRET=SECRET)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    command = [sys.executable, "-m", "tarok_client.cli", "serve", "--store", store, *extra]
    if "--workers" not in extra:  # one process (the figures read its pid), unless asked
        command += ["--workers", "1"]
    proc = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise SystemExit(f"server did not start: {' '.join(command)}")
    drain(proc)
    return proc, f"127.0.0.1:{found.group(1)}"


def drain(proc: subprocess.Popen[str]) -> None:
    """Read and drop the rest of the server's stdout (its access log) in a daemon thread, as
    a log collector would: an unread pipe fills up and then stalls the server's log writer."""
    stream = proc.stdout
    if stream is not None:
        threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()
