"""deploy/local/cluster: three PostgreSQL-backed replicas behind a real nginx (grpc_pass).

`tarok demo` plays a table through the load balancer; the replicas' /metrics show that
more than one of them served moves, and the table's log (read through nginx after the
table finished) is intact: versions 1..N without a gap, HandScored present, TableClosed
last. Needs PostgreSQL (TAROK_TEST_POSTGRES_DSN) and nginx; skipped without them unless
TAROK_REQUIRE_POSTGRES=1, where the script installs nginx (apt-get) and the test must run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from .conftest import ROOT, require, scrape, subprocess_env, tarok_command, value

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
SCRIPT = ROOT / "deploy" / "local" / "cluster"
SUBMIT = "/tarok.v1.TarokService/SubmitMove"


def nginx_available() -> bool:
    return bool(shutil.which("nginx")) or os.access("/usr/sbin/nginx", os.X_OK)


def test_moves_spread_over_replicas_and_the_log_is_intact(
    postgres_dsn: str, tmp_path: Path
) -> None:
    required = os.environ.get("TAROK_REQUIRE_POSTGRES") == "1"
    if not nginx_available() and not required:
        require("nginx is not installed", "apt-get install nginx (CI installs it)")
    command = [str(SCRIPT), "up", "--dsn", postgres_dsn, "--workdir", str(tmp_path / "cluster")]
    if required:
        command.append("--install-nginx")
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=subprocess_env(), text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("ready "):
            proc.kill()
            raise AssertionError(f"cluster did not start: {proc.communicate()[1]}")
        info = json.loads(line.removeprefix("ready "))
        assert len(info["replicas"]) == 3

        demo = subprocess.run(
            [*tarok_command(), "demo", "--server", info["lb"], "--hands", "2", "--seed", "7"],
            capture_output=True, text=True, env=subprocess_env(), timeout=120,
        )  # fmt: skip
        assert demo.returncode == 0, demo.stderr
        table_line = re.search(r"table (\w+):", demo.stdout)
        moves_line = re.search(r"(\d+) moves in", demo.stdout)
        assert table_line is not None and moves_line is not None, demo.stdout
        table_id, moves = table_line.group(1), int(moves_line.group(1))

        scraped = [scrape(r["metrics"]) for r in info["replicas"]]
        served = [value(s, "tarok_rpc_requests_total", method=SUBMIT, code="OK") for s in scraped]
        assert sum(served) == moves > 0
        assert sum(1 for n in served if n > 0) >= 2, served
        assert sum(value(s, "tarok_moves_total") for s in scraped) == moves
        assert sum(value(s, "tarok_tables_finished_total") for s in scraped) == 1

        with grpc.insecure_channel(info["lb"]) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            token = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
            log = stub.GetTableLog(svc.GetTableLogRequest(token=token), timeout=30).log
        assert log.complete and log.version == len(log.events)
        assert [e.version for e in log.events] == list(range(1, log.version + 1))
        assert sum(1 for e in log.events if e.HasField("hand_scored")) >= 2
        assert sum(1 for e in log.events if e.HasField("move_made")) == moves
        assert log.events[-1].HasField("table_closed")
        access = Path(info["nginx_access_log"]).read_text()
        assert len(set(re.findall(r"SubmitMove .* upstream=(\S+)", access))) >= 2
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "replica exit codes [0, 0, 0]" in out
