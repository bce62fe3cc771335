"""A local cluster without containers: `tarok serve` replicas on one PostgreSQL behind nginx.

    deploy/local/cluster up   [--replicas 3] [--lb-port 0] [--dsn DSN]
    deploy/local/cluster demo [--replicas 3] [--hands 2] [--variant slovenian]

`up` prints one line `ready {json}` (the load balancer address, each replica's gRPC
target, metrics port and log file) and runs until SIGINT/SIGTERM, then stops nginx and
sends every replica SIGTERM (graceful shutdown); it exits 0 when all replicas did.
`demo` starts the same cluster, plays `tarok demo --server <lb>` through nginx, prints
how many moves each replica served (from its /metrics), and stops.

Exit codes: 2 PostgreSQL unreachable, 3 nginx missing (installed with apt-get when run as
root with --install-nginx or TAROK_REQUIRE_POSTGRES=1), 4 the cluster did not come up.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"
SUBMIT = 'tarok_rpc_requests_total{code="OK",method="/tarok.v1.TarokService/SubmitMove"}'
NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format grpc '$remote_addr "$request" $status upstream=$upstream_addr $request_time';
    access_log {work}/nginx-access.log grpc;
    client_body_temp_path {work}/tmp/body;
    proxy_temp_path {work}/tmp/proxy;
    fastcgi_temp_path {work}/tmp/fastcgi;
    uwsgi_temp_path {work}/tmp/uwsgi;
    scgi_temp_path {work}/tmp/scgi;
    upstream tarok {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port} http2;
        location / {{
            grpc_pass grpc://tarok;
            grpc_read_timeout 1h;   # WatchTable streams stay open
            grpc_send_timeout 1h;
            grpc_next_upstream error timeout;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def find_nginx(install: bool) -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if found or not install:
        return found or ""
    if os.geteuid() != 0:
        print("cluster: nginx is missing and installing it needs root", file=sys.stderr)
        return ""
    print("cluster: installing nginx (apt-get)", file=sys.stderr)
    # apt-get's output goes to stderr: stdout carries only the "ready" line callers wait for.
    subprocess.run(
        "apt-get update -qq && apt-get install -y -qq nginx",
        shell=True,
        check=False,
        stdout=sys.stderr,
    )
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", 1) else "")


def check_postgres(dsn: str) -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        import psycopg

        psycopg.connect(dsn, connect_timeout=3).close()
    except Exception as exc:
        return f"PostgreSQL not reachable at {dsn!r}: {exc}".strip()
    return None


class Cluster:
    """The replicas and nginx, started in `work` (logs and nginx config live there)."""

    def __init__(self, dsn: str, replicas: int, lb_port: int, work: Path, nginx: str) -> None:
        self.dsn, self.count, self.work, self.nginx_bin = dsn, replicas, work, nginx
        self.lb_port = lb_port or free_port()
        self.secret = secrets.token_hex(16)
        self.replicas: list[dict[str, Any]] = []
        self.procs: list[subprocess.Popen[str]] = []
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def lb(self) -> str:
        return f"127.0.0.1:{self.lb_port}"

    def start(self) -> None:
        for i in range(self.count):
            self._start_replica(i)
        self._start_nginx()
        self._wait_ready()

    def _start_replica(self, i: int) -> None:
        metrics = free_port()
        log = self.work / f"replica{i + 1}.log"
        command = [sys.executable, "-m", "tarok_client.cli", "serve", "--store", self.dsn]
        command += ["--host", "127.0.0.1", "--port", "0", "--log-format", "json"]
        command += ["--metrics-port", str(metrics), "--metrics-host", "127.0.0.1"]
        command += ["--grace-seconds", "5"]
        env = dict(os.environ, TAROK_SECRET=self.secret)
        with log.open("w") as err:
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, env=env, text=True)
        self.procs.append(proc)
        assert proc.stdout is not None
        found = re.search(r"listening on \S+:(\d+)", proc.stdout.readline())
        if found is None:
            raise RuntimeError(f"replica {i + 1} did not start; see {log}")
        target = f"127.0.0.1:{found.group(1)}"
        self.replicas.append(
            {"target": target, "metrics": metrics, "pid": proc.pid, "log": str(log)}
        )
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained

    def _start_nginx(self) -> None:
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.work / "tmp" / sub).mkdir(parents=True, exist_ok=True)
        servers = "\n".join(f"        server {r['target']};" for r in self.replicas)
        conf = self.work / "nginx.conf"
        conf.write_text(NGINX_CONF.format(work=self.work, servers=servers, port=self.lb_port))
        command = [self.nginx_bin, "-p", str(self.work), "-c", str(conf)]
        command += ["-e", str(self.work / "nginx-error.log")]
        self.nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def _wait_ready(self, timeout: float = 20.0) -> None:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        deadline = time.monotonic() + timeout
        with grpc.insecure_channel(self.lb) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                if self.nginx is not None and self.nginx.poll() is not None:
                    err = self.nginx.stderr.read().decode() if self.nginx.stderr else ""
                    raise RuntimeError(f"nginx exited: {err.strip()}")
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"load balancer {self.lb} not serving after {timeout} s")
                time.sleep(0.1)

    def describe(self) -> dict[str, Any]:
        return {
            "lb": self.lb,
            "replicas": self.replicas,
            "nginx_access_log": str(self.work / "nginx-access.log"),
            "workdir": str(self.work),
        }

    def served_moves(self) -> list[float]:
        """SubmitMove calls each replica answered OK (from its /metrics)."""
        out = []
        for replica in self.replicas:
            url = f"http://127.0.0.1:{replica['metrics']}/metrics"
            with urllib.request.urlopen(url, timeout=5) as reply:
                text = reply.read().decode()
            line = next((x for x in text.splitlines() if x.startswith(SUBMIT)), None)
            out.append(float(line.rsplit(" ", 1)[1]) if line else 0.0)
        return out

    def stop(self) -> list[int | None]:
        """Stop nginx, then SIGTERM every replica; their exit codes."""
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        codes: list[int | None] = []
        for proc in self.procs:
            try:
                codes.append(proc.wait(20))
            except subprocess.TimeoutExpired:
                proc.kill()
                codes.append(proc.wait())
        return codes


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("up", "demo"), nargs="?", default="up")
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--lb-port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--dsn", default=os.environ.get("TAROK_TEST_POSTGRES_DSN", DEFAULT_DSN))
    parser.add_argument("--workdir", default=None, help="logs and nginx config (default: temp)")
    parser.add_argument("--hands", type=int, default=2, help="demo: hands to play")
    parser.add_argument("--variant", default="slovenian", help="demo: rule set")
    parser.add_argument("--install-nginx", action="store_true", help="apt-get it when missing")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    problem = check_postgres(args.dsn)
    if problem:
        print(f"cluster: {problem}", file=sys.stderr)
        return 2
    install = args.install_nginx or os.environ.get("TAROK_REQUIRE_POSTGRES") == "1"
    nginx = find_nginx(install)
    if not nginx:
        print("cluster: nginx is not installed (apt-get install nginx)", file=sys.stderr)
        return 3
    work = Path(args.workdir or tempfile.mkdtemp(prefix="tarok-cluster-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    work.chmod(0o755)  # nginx workers run as an unprivileged user
    cluster = Cluster(args.dsn, args.replicas, args.lb_port, work, nginx)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        try:
            cluster.start()
        except RuntimeError as exc:
            print(f"cluster: {exc}", file=sys.stderr)
            return 4
        print("ready " + json.dumps(cluster.describe()), flush=True)
        if args.mode == "up":
            print(f"cluster: gRPC load balancer on {cluster.lb}; Ctrl-C stops", file=sys.stderr)
            stop.wait()
        else:
            demo = [sys.executable, "-m", "tarok_client.cli", "demo", "--server", cluster.lb]
            demo += ["--hands", str(args.hands), "--variant", args.variant]
            subprocess.run(demo, check=True)
            for replica, moves in zip(cluster.replicas, cluster.served_moves(), strict=True):
                print(f"replica {replica['target']}: {moves:.0f} SubmitMove calls served")
    finally:
        codes = cluster.stop()
        print("stopped; replica exit codes " + json.dumps(codes), flush=True)
    return 0 if all(code == 0 for code in codes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
