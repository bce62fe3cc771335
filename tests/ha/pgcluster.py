"""Three PostgreSQL nodes under Patroni (with one etcd as its store of cluster state), on
loopback ports in a temp dir: synchronous replication, automatic failover.

Patroni's settings here are the ones `deploy/` uses, with shorter timings: a leader lock
TTL of 8 s, so a dead or frozen primary is replaced about 8-10 s after it stopped answering.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from .procs import Proc, accepts, free_port, wait_until

TTL = 8
LOOP_WAIT = 1
RETRY_TIMEOUT = 3


def patroni_bin() -> str | None:
    """The Patroni to run: $TAROK_PATRONI (`make test-ha` gives the pinned one in .venv-ha),
    else the first `patroni` on the PATH."""
    return os.environ.get("TAROK_PATRONI") or shutil.which("patroni")


def tools_missing() -> str | None:
    """Why the cluster cannot run here, or None."""
    patroni = patroni_bin()
    if patroni is None or not os.access(patroni, os.X_OK):
        return "patroni is not installed (`make ha-tools` installs it)"
    if shutil.which("etcd") is None:
        return "etcd is not installed (`make ha-tools` installs it)"
    if not pg_bin():
        return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    return None


def pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _owner() -> tuple[int, int] | None:
    """PostgreSQL refuses to run as root: as root, its nodes run as the `postgres` user
    (uid, gid), switched to by `setpriv` in the child (no Python code between fork and exec
    in a process that runs gRPC threads)."""
    if os.geteuid() != 0:
        return None
    user = pwd.getpwnam("postgres")
    return user.pw_uid, user.pw_gid


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=2) as answer:
        return json.load(answer)


class PatroniCluster:
    def __init__(self, size: int = 3) -> None:
        # Its own temp dir, open to the `postgres` user (pytest's tmp_path is root's only).
        self.root = Path(tempfile.mkdtemp(prefix="tarok-patroni-"))
        self.size = size
        self.etcd_client, self.etcd_peer = free_port(), free_port()
        self.pg_ports = [free_port() for _ in range(size)]
        self.api_ports = [free_port() for _ in range(size)]
        self.etcd: Proc | None = None
        self.nodes: list[Proc | None] = [None] * size
        self._owner = _owner()

    @property
    def dsn(self) -> str:
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.pg_ports)
        return f"postgresql://postgres@{hosts}/postgres?target_session_attrs=read-write"

    def start(self) -> None:
        self.root.chmod(0o755)
        if self._owner is not None:
            os.chown(self.root, *self._owner)
        etcd_dir = self.root / "etcd"
        peer = f"http://127.0.0.1:{self.etcd_peer}"
        client = f"http://127.0.0.1:{self.etcd_client}"
        argv = [
            "etcd", "--name", "e0", "--data-dir", str(etcd_dir),
            "--listen-client-urls", client, "--advertise-client-urls", client,
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", f"e0={peer}",
        ]  # fmt: skip
        self.etcd = Proc("etcd", argv, self.root / "etcd.log")
        wait_until(lambda: accepts(self.etcd_client), "etcd", 30)
        for i in range(self.size):
            self._write_config(i)
        self.start_node(0)
        wait_until(lambda: self.leader() == 0, "the first Patroni leader", 90)
        for i in range(1, self.size):
            self.start_node(i)
        self.wait_healthy(180)

    def _write_config(self, i: int) -> None:
        data = self.root / f"pg{i}"
        config = {
            "scope": "tarok",
            "name": f"pg{i}",
            "restapi": {
                "listen": f"127.0.0.1:{self.api_ports[i]}",
                "connect_address": f"127.0.0.1:{self.api_ports[i]}",
            },
            "etcd3": {"hosts": f"127.0.0.1:{self.etcd_client}"},
            "bootstrap": {
                "dcs": {
                    "ttl": TTL,
                    "loop_wait": LOOP_WAIT,
                    "retry_timeout": RETRY_TIMEOUT,
                    "synchronous_mode": True,
                    "synchronous_mode_strict": True,
                    "postgresql": {
                        "use_pg_rewind": True,
                        "parameters": {
                            "synchronous_commit": "on",
                            # a standby retries streaming from the new primary after 1 s,
                            # not 5: writes wait for it (strict synchronous mode)
                            "wal_retrieve_retry_interval": "1s",
                            "wal_log_hints": "on",
                            "max_connections": 100,
                            "shared_buffers": "32MB",
                        },
                    },
                },
                "initdb": [{"encoding": "UTF8"}, {"auth": "trust"}],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{self.pg_ports[i]}",
                "connect_address": f"127.0.0.1:{self.pg_ports[i]}",
                "data_dir": str(data),
                "bin_dir": pg_bin(),
                "pgpass": str(self.root / f"pgpass{i}"),
                "pg_hba": [
                    "local all all trust",
                    "host all all 127.0.0.1/32 trust",
                    "host replication all 127.0.0.1/32 trust",
                ],
                "authentication": {
                    "superuser": {"username": "postgres"},
                    "replication": {"username": "postgres"},
                    "rewind": {"username": "postgres"},
                },
                "parameters": {
                    "unix_socket_directories": str(self.root),
                    "logging_collector": "on",
                    "log_directory": "log",
                },
            },
        }
        path = self.root / f"pg{i}.yml"
        path.write_text(json.dumps(config, indent=1))  # JSON is YAML

    def log_tail(self, i: int, lines: int = 25) -> str:
        """The end of node `i`'s Patroni log and of its PostgreSQL log."""
        out = []
        for path in [self.root / f"pg{i}.log", *sorted((self.root / f"pg{i}").glob("log/*"))]:
            with contextlib.suppress(OSError):
                out += [f"[{path.name}]", *path.read_text(errors="replace").splitlines()[-lines:]]
        return "\n".join(out)

    def start_node(self, i: int) -> None:
        argv = [str(patroni_bin()), str(self.root / f"pg{i}.yml")]
        if self._owner is not None:
            uid, gid = self._owner
            argv = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *argv]
        self.nodes[i] = Proc(f"pg{i}", argv, self.root / f"pg{i}.log")

    def members(self) -> list[dict[str, Any]]:
        """Patroni's view of the cluster, from any node that answers."""
        for port in self.api_ports:
            with contextlib.suppress(OSError, ValueError):
                return list(_get(f"http://127.0.0.1:{port}/cluster")["members"])
        return []

    def leader(self) -> int | None:
        for member in self.members():
            if member.get("role") == "leader" and member.get("state") == "running":
                return int(member["name"][2:])
        return None

    def healthy(self) -> bool:
        """A running leader, every node up, and a synchronous standby streaming."""
        members = self.members()
        running = [m for m in members if m.get("state") in ("running", "streaming")]
        roles = [m.get("role") for m in running]
        return len(running) == self.size and "leader" in roles and "sync_standby" in roles

    def wait_healthy(self, timeout: float = 120) -> float:
        return wait_until(self.healthy, "a healthy Patroni cluster", timeout)

    def postmaster(self, i: int) -> int | None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.root / f"pg{i}" / "postmaster.pid").read_text().split()[0])
        return None

    def postgres_pids(self, i: int) -> list[int]:
        """Node `i`'s postmaster and its children. Each PostgreSQL backend is a process
        group of its own, so signalling the postmaster's group does not reach them."""
        postmaster = self.postmaster(i)
        if postmaster is None:
            return []
        pids = [postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    stat = (entry / "stat").read_text()
                    if int(stat[stat.rindex(")") + 2 :].split()[1]) == postmaster:
                        pids.append(int(entry.name))
        return pids

    def signal_node(self, i: int, sig: int) -> None:
        """Send `sig` to every process of node `i`: Patroni and all of PostgreSQL."""
        pids = self.postgres_pids(i)
        proc = self.nodes[i]
        if proc is not None:
            proc.signal_group(sig)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def kill_node(self, i: int) -> None:
        """kill -9 node `i`: its Patroni and its PostgreSQL, at once."""
        self.signal_node(i, signal.SIGKILL)
        proc = self.nodes[i]
        if proc is not None:
            proc.popen.wait(10)
        self.nodes[i] = None

    def freeze_node(self, i: int, frozen: bool) -> None:
        """SIGSTOP (or SIGCONT) every process of node `i`."""
        self.signal_node(i, signal.SIGSTOP if frozen else signal.SIGCONT)

    def stop(self) -> None:
        for i in range(self.size):
            self.freeze_node(i, False)
            pid = self.postmaster(i)
            proc = self.nodes[i]
            if proc is not None:
                proc.stop(20)
            if pid is not None:  # a postmaster Patroni left behind
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self.nodes[i] = None
        if self.etcd is not None:
            self.etcd.stop()
            self.etcd = None

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
