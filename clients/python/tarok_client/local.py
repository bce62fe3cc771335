"""Start a throw-away local server (a `tarok serve` subprocess on a free port)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

_LISTENING = re.compile(r"listening on (\S+):(\d+)")


@contextmanager
def local_server(store: str = "sqlite:///:memory:") -> Iterator[str]:
    """Run `tarok serve` on 127.0.0.1 and a free port; yields "host:port".

    Its logs are dropped unless TAROK_LOCAL_SERVER_LOGS is set."""
    env = dict(os.environ)
    env.setdefault("TAROK_SECRET", secrets.token_hex(16))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    command = [sys.executable, "-m", "tarok_client.cli", "serve", "--store", store]
    command += ["--host", "127.0.0.1", "--port", "0"]
    stderr = None if os.environ.get("TAROK_LOCAL_SERVER_LOGS") else subprocess.DEVNULL
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, env=env, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = _LISTENING.search(line)
        if found is None:
            raise RuntimeError(f"local server did not start (exit code {proc.wait(10)})")
        yield f"127.0.0.1:{found.group(2)}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
