"""Every benchmark script still starts: `--help` runs (imports resolve, arguments parse), so a
refactor cannot silently break the scripts the performance numbers come from."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name not in ("serverproc.py",))


@pytest.mark.parametrize("script", SCRIPTS)
def test_bench_script_starts(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout.lower()


def test_plain_durable_echo_commits_every_call_before_answering(tmp_path: Path) -> None:
    """bench/echo_server.py --plain-sqlite: every answered Ping is a committed row."""
    sys.path.insert(0, str(BENCH.parent / "clients" / "python"))
    from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
    from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

    path = tmp_path / "plain.db"
    proc = subprocess.Popen(
        [sys.executable, str(BENCH / "echo_server.py"), "--plain-sqlite", str(path),
         "--sqlite-sync", "full", "--reply-bytes", "7"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        found = re.search(r"listening on (\S+)", proc.stdout.readline())
        assert found is not None
        with grpc.insecure_channel(found.group(1)) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            calls = [stub.Ping.future(svc.PingRequest(payload=b"%d" % i)) for i in range(40)]
            answers = [call.result(timeout=60) for call in calls]
            assert {len(a.payload) for a in answers} == {7}
            # Read by another connection while the server runs: the rows are committed.
            with contextlib.closing(sqlite3.connect(path)) as db:
                rows = {bytes(r[0]) for r in db.execute("SELECT payload FROM pings")}
        assert rows == {b"%d" % i for i in range(40)}
    finally:
        proc.terminate()
        assert proc.wait(60) == 0
