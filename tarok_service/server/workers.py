"""`tarok serve --workers N`: N server processes on the same ports and the same store.

The server keeps no state a replica could not rebuild from the store, so N processes on one
store are N replicas (as on separate machines); here they also share their ports: each
listens with SO_REUSEPORT and the kernel spreads new connections over them. The parent
process only supervises:

- it reserves the ports first (a socket bound with SO_REUSEPORT but not listening, so a
  port of 0 becomes one known port every worker binds, and no other program takes it);
- it starts the workers (`multiprocessing`, spawned: a fresh interpreter each, no state
  forked from the parent) and prints `listening on` once every worker is ready;
- a worker that dies (a crash, kill -9) is started again; calls it had in flight fail on the
  client's side, and a retry with the same request id gets the first answer (the store keeps
  it), from whichever worker the retry reaches; a worker that ends five times in a row
  before it serves stops the server (exit status 1) rather than restart for ever;
- SIGTERM or SIGINT to the parent is passed to every worker, which drains and stops as a
  single server does (`--drain-seconds`, `--grace-seconds`); the parent exits after them.

A worker stops by itself when the parent is gone (its end of the pipe to the parent closes).
Each worker logs with `worker=<index>` on every line. With `--metrics-port P` each worker
serves its own registry on a free loopback port and the parent serves P, answering every
scrape with all the workers' series, each labelled `worker` (`ops/gathered.py`): one scrape
target as before, every series exact (gauges and the custom collectors included, which
prometheus_client's multiprocess mode would not carry), and no directory of metric files
shared by the processes to clean up after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import signal
import socket
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

import structlog

from .config import ServerConfig
from .main import announce, configure_logging, serve
from .ops.gathered import serve_gathered
from .ops.logconf import whole_line_stderr

log = structlog.get_logger("tarok.workers")
_spawn = multiprocessing.get_context("spawn")
MAX_FAILED_STARTS = 5  # a worker that ends this many times in a row before serving: give up
CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "<quota> <period>" or "max <period>"


def default_workers(store_url: str, cpu_max: Path = CPU_MAX) -> int:
    """`--workers` when not given: on PostgreSQL one per core this process may use (the
    cores it may run on, fewer under a cgroup CPU quota, as in a container with a CPU
    limit); on SQLite one (docs/scaling.md, "Workers on SQLite": one file takes one writer
    at a time, so more processes add syncs and lock waits, not commits)."""
    if not store_url.startswith(("postgresql:", "postgres:")):
        return 1
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    try:
        quota, period = cpu_max.read_text().split()[:2]
    except (OSError, ValueError):
        return cores
    if quota == "max":
        return cores
    return max(1, min(cores, math.ceil(int(quota) / int(period))))


def check_workers(store_url: str, workers: int) -> None:
    """Refuse a worker count the store cannot be shared by."""
    if workers < 1:
        raise SystemExit("tarok serve: --workers must be at least 1")
    if workers > 1 and ":memory:" in store_url:
        raise SystemExit("tarok serve: an in-memory SQLite store cannot be shared by workers")


def reserve(host: str, port: int) -> socket.socket:
    """A socket bound (not listening) with SO_REUSEPORT on `host`:`port`; 0 picks a port."""
    name = host.strip("[]") or "::"
    family = socket.AF_INET6 if ":" in name else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind((name, port))
    return sock


@dataclass
class Worker:
    """One worker process and the parent's end of its pipe."""

    index: int
    process: BaseProcess
    conn: Connection
    metrics_port: int | None = None  # its /metrics on loopback, once it is ready
    ready: bool = False  # it has said it serves


def run_workers(config: ServerConfig, workers: int) -> int:
    """Serve with `workers` processes until SIGTERM/SIGINT; the exit status."""
    configure_logging(config.log_format, stream=whole_line_stderr())  # shared with workers
    reserved = [reserve(config.host, config.port)]
    config = replace(config, port=reserved[0].getsockname()[1], reuse_port=True)
    if config.http_port is not None:
        reserved.append(reserve(config.http_host, config.http_port))
        config = replace(config, http_port=reserved[1].getsockname()[1])
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    stopping: list[int] = []
    previous = signal.set_wakeup_fd(wake_w)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, _: stopping.append(signum))
    pool: list[Worker] = []
    close_metrics = None
    if config.metrics_port:

        def ports() -> dict[int, int]:
            return {w.index: w.metrics_port for w in pool if w.metrics_port}

        close_metrics = serve_gathered(ports, config.metrics_port, config.metrics_host)
        config = replace(config, metrics_port=0, metrics_any_port=True, metrics_host="127.0.0.1")
    try:
        for index in range(workers):
            pool.append(_start(config, index))
        for worker in pool:
            if not _ready(worker):
                log.error("worker failed to start", worker=worker.index)
                return 1
        announce(config, config.port, config.http_port, f", {workers} workers")
        failed = [0] * workers  # starts in a row that ended before the worker served
        while not stopping:
            starting = [w.conn for w in pool if not w.ready]
            ended = wait([*(w.process.sentinel for w in pool), *starting, wake_r])
            if wake_r in ended:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 512)
            for i, worker in enumerate(pool):
                if stopping:
                    break
                if worker.process.sentinel in ended:
                    failed[i] = 0 if worker.ready else failed[i] + 1
                    if failed[i] >= MAX_FAILED_STARTS:
                        log.error("worker keeps failing to start", worker=i, starts=failed[i])
                        return 1
                    code = worker.process.exitcode
                    log.warning("worker exited, starting it again", worker=i, code=code)
                    worker.conn.close()
                    pool[i] = _start(config, i)  # its readiness is read in this loop
                elif worker.conn in ended:
                    if _ready(worker):
                        log.info("worker ready", worker=i)
                    else:
                        worker.process.join(5)  # ending: its sentinel is seen next round
        log.info("stopping workers", workers=len(pool))
        return 0
    finally:
        _stop(pool, config.drain_seconds + config.grace_seconds + 10.0)
        if close_metrics is not None:
            close_metrics()
        signal.set_wakeup_fd(previous)
        for fd in (wake_r, wake_w):
            os.close(fd)
        for sock in reserved:
            sock.close()


def _start(config: ServerConfig, index: int) -> Worker:
    ours, theirs = _spawn.Pipe()
    process = _spawn.Process(
        target=_work,
        args=(replace(config, worker=index), theirs),
        name=f"tarok-worker-{index}",
    )
    process.start()
    theirs.close()  # the worker holds its end: EOF here means the worker is gone
    return Worker(index, process, ours)


def _ready(worker: Worker) -> bool:
    """Wait until the worker says it serves; False if it ended first."""
    try:
        _, _, worker.metrics_port = worker.conn.recv()
    except EOFError:
        return False
    worker.ready = True
    return True


def _stop(pool: list[Worker], timeout: float) -> None:
    """SIGTERM every worker, wait for each (SIGKILL past `timeout`)."""
    for worker in pool:
        if worker.process.is_alive():
            worker.process.terminate()
    for worker in pool:
        worker.process.join(timeout)
        if worker.process.is_alive():
            log.error("worker did not stop in time: killed", worker=worker.index)
            worker.process.kill()
            worker.process.join()
        worker.conn.close()


def _work(config: ServerConfig, parent: Connection) -> None:
    """A worker's main: the single-process server, telling the parent when it serves."""
    configure_logging(config.log_format, stream=whole_line_stderr(), worker=config.worker)

    def ready(port: int, http_port: int | None, metrics_port: int | None) -> None:
        parent.send((port, http_port, metrics_port))
        loop = asyncio.get_running_loop()
        loop.add_reader(parent.fileno(), _parent_gone, loop, parent)

    asyncio.run(serve(config, ready))


def _parent_gone(loop: asyncio.AbstractEventLoop, parent: Connection) -> None:
    """The pipe to the parent is readable: the parent ended (it never writes). Stop."""
    loop.remove_reader(parent.fileno())
    os.kill(os.getpid(), signal.SIGTERM)
