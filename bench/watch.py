"""WatchTable fan-out: delivery latency to N watchers of one table and the mover's latency.

    .venv/bin/python bench/watch.py                       # 0, 100 and 1,000 watchers, SQLite
    .venv/bin/python bench/watch.py --watchers 100 --repetitions 5 --json bench/results/watch.json

Starts `tarok serve` (SQLite FULL) in its own process. Each repetition plays one preset
hand per watcher count: first with no watchers (the mover's own baseline), then with N
watchers on the same table - seat tokens and a spectator token in turn, so every audience
is served - spread over watcher processes (at most `--per-process` streams each, so the
watchers' own CPU is spread too). One mover makes the hand's moves `--interval` seconds
apart. Delivery latency: from the moment the move was sent to the moment a watcher process
received its event (the same monotonic clock for all processes), for every event and
watcher. Reported: medians over repetitions of the delivery p50/p99, the mover p50 and its
ratio to the no-watcher p50 of the same repetition, the server's CPU time per move (from
the first move until every watcher has received the last event) with and without watchers,
and the extra CPU per delivered event; plus the machine load. The server admits all the
watchers (`--max-watchers`, `--max-watchers-per-principal`): they come from one address.

`--bare` adds, in the same repetitions, the floor: a bare grpc.aio server (`--bare-server`,
in its own process: no interceptor, store, metrics or log; registered as a generic handler
only, as ours is) whose SubmitMove hands a message
the size of a real event to each open WatchTable stream through a per-stream asyncio.Queue;
the same watcher processes and the same mover measure it the same way (its rows are
labelled "bare").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients" / "python"), str(ROOT / "bench")]

from google.protobuf import timestamp_pb2  # noqa: E402
from service import ENV, cpu_seconds, loadavg, script, setup_table, start, tarok_server  # noqa: E402
from tarok_proto.tarok.v1 import events_pb2 as ev  # noqa: E402
from tarok_proto.tarok.v1 import moves_pb2, views_pb2  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc  # noqa: E402
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc  # noqa: E402

from tarok_service.server.transport.generic import generic_only  # noqa: E402
from tarok_service.variants.registry import find_variant  # noqa: E402

STREAMS_PER_CHANNEL = 50
NO_HISTORY = 1 << 40  # from_version past the end: the view, then live events only
BARE = "bare"  # the bare server's token
BARE_END = "end"  # the move that ends the bare server's streams


# -- bare server --------------------------------------------------------------------------


class BareFanout(svc_grpc.TarokServiceServicer):
    """WatchTable and SubmitMove only, as plainly as grpc.aio allows: a move hands one
    message (the size of a real MoveMade event) to every open stream's queue."""

    def __init__(self) -> None:
        self.version = 0
        self.streams: set[asyncio.Queue[svc.WatchTableResponse | None]] = set()

    async def WatchTable(
        self, request: svc.WatchTableRequest, context: Any
    ) -> AsyncIterator[svc.WatchTableResponse]:
        queue: asyncio.Queue[svc.WatchTableResponse | None] = asyncio.Queue()
        self.streams.add(queue)
        try:
            yield svc.WatchTableResponse(view=views_pb2.TableView(version=self.version))
            while (item := await queue.get()) is not None:
                yield item
        finally:
            self.streams.discard(queue)

    async def SubmitMove(
        self, request: svc.SubmitMoveRequest, context: Any
    ) -> svc.SubmitMoveResponse:
        if request.move_id == BARE_END:
            for queue in self.streams:
                queue.put_nowait(None)
            return svc.SubmitMoveResponse(version=self.version)
        self.version += 1
        now = timestamp_pb2.Timestamp()
        now.GetCurrentTime()
        made = ev.MoveMade(seat=1, move_id=request.move_id, label="Tarok XXI", time=now)
        message = svc.WatchTableResponse(
            event=ev.Event(version=self.version, time=now, move_made=made)
        )
        for queue in self.streams:
            queue.put_nowait(message)
        return svc.SubmitMoveResponse(
            version=self.version, move=moves_pb2.LegalMove(id=request.move_id, kind="play")
        )


async def serve_bare() -> None:
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    fanout = BareFanout()  # type: ignore[abstract]
    svc_grpc.add_TarokServiceServicer_to_server(fanout, generic_only(server))  # as ours registers
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


# -- watcher process ----------------------------------------------------------------------


async def watch_all(target: str, tokens: list[str], out: Path) -> None:
    """Open one stream per token; print "ready" once all got their view; record events."""
    channels = [
        grpc.aio.insecure_channel(target)
        for _ in range(math.ceil(len(tokens) / STREAMS_PER_CHANNEL))
    ]
    ready = asyncio.Semaphore(0)
    received: list[tuple[int, float]] = []

    async def one(i: int, token: str) -> None:
        stub = svc_grpc.TarokServiceStub(channels[i // STREAMS_PER_CHANNEL])
        request = svc.WatchTableRequest(token=token, from_version=NO_HISTORY)
        first = True
        async for item in stub.WatchTable(request):
            if first:
                first = False
                ready.release()
            elif item.HasField("event"):
                received.append((item.event.version, time.perf_counter()))

    tasks = [asyncio.create_task(one(i, t)) for i, t in enumerate(tokens)]

    async def all_ready() -> None:
        for _ in tokens:
            await ready.acquire()

    waiting = asyncio.create_task(all_ready())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():  # a stream ended (failed) before every stream got its view
        failed = next(t for t in tasks if t.done())
        print(f"failed: {failed.exception()!r}", flush=True)
        raise SystemExit(1)
    print("ready", flush=True)
    await asyncio.gather(*tasks)
    out.write_text(json.dumps(received))
    for channel in channels:
        await channel.close(None)


# -- driver -------------------------------------------------------------------------------


async def play_hand(
    server: subprocess.Popen[str],
    target: str,
    watchers: int,
    args: argparse.Namespace,
    rng: random.Random,
    tmp: Path,
) -> dict[str, float]:
    """One preset hand on the tarok server, watched by `watchers` streams."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        plan = script(find_variant("slovenian"), rng)
        tokens = await setup_table(stub, plan)
        table = (await stub.GetTableView(svc.GetTableViewRequest(token=tokens[0]))).view.table_id
        spectator = (
            await stub.JoinTable(svc.JoinTableRequest(table_id=table, spectator=True))
        ).token
        moves = [
            svc.SubmitMoveRequest(token=tokens[seat], move_id=move_id) for seat, move_id in plan[1]
        ]
        return await measure(server, target, stub, [*tokens, spectator], moves, watchers, args, tmp)


async def play_bare(
    server: subprocess.Popen[str],
    target: str,
    watchers: int,
    args: argparse.Namespace,
    tmp: Path,
    count: int,
) -> dict[str, float]:
    """`count` moves (as many as the tarok hand it is compared with) on the bare server
    (`serve_bare`), watched the same way."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        moves = [svc.SubmitMoveRequest(token=BARE, move_id="play:T21")] * count
        return await measure(server, target, stub, [BARE], moves, watchers, args, tmp)


async def measure(
    server: subprocess.Popen[str],
    target: str,
    stub: svc_grpc.TarokServiceAsyncStub,
    audience: list[str],
    moves: list[svc.SubmitMoveRequest],
    watchers: int,
    args: argparse.Namespace,
    tmp: Path,
) -> dict[str, float]:
    """Open `watchers` streams (tokens of `audience` in turn) in watcher processes, make the
    moves `args.interval` apart, and measure the mover, the deliveries and the server CPU."""
    procs = []
    for p in range(math.ceil(watchers / args.per_process)):
        count = min(args.per_process, watchers - p * args.per_process)
        share = [audience[(p * args.per_process + i) % len(audience)] for i in range(count)]
        (tmp / f"tokens{p}.json").write_text(json.dumps(share))
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--watcher",
                    target,
                    str(tmp / f"tokens{p}.json"),
                    str(tmp / f"out{p}.json"),
                ],
                stdout=subprocess.PIPE,
                env=ENV,
                text=True,
            )
        )
    for proc in procs:
        assert proc.stdout is not None
        line = await asyncio.to_thread(proc.stdout.readline)
        if line.strip() != "ready":
            raise SystemExit(f"a watcher process failed: {line.strip()}")
    sent: dict[int, float] = {}
    mover: list[float] = []
    version = 0
    cpu = cpu_seconds(server.pid)
    for request in moves:
        started = time.perf_counter()
        reply = await stub.SubmitMove(request)
        mover.append(time.perf_counter() - started)
        version = version or reply.version - 1
        for v in range(version + 1, reply.version + 1):
            sent[v] = started
        version = reply.version
        await asyncio.sleep(args.interval)
    if audience == [BARE]:  # the tarok server ends the streams itself (the table is over)
        await stub.SubmitMove(svc.SubmitMoveRequest(token=BARE, move_id=BARE_END))
    for proc in procs:
        await asyncio.to_thread(proc.wait, 120)
    cpu = cpu_seconds(server.pid) - cpu  # the moves, and the deliveries until the last one
    delays = []
    for p in range(len(procs)):
        for v, at in json.loads((tmp / f"out{p}.json").read_text()):
            if v in sent:
                delays.append(at - sent[v])
    result = {"mover_p50_ms": 1000 * statistics.median(mover), "cpu_ms": 1000 * cpu / len(mover)}
    result["moves"] = len(mover)
    if delays:
        cuts = statistics.quantiles(delays, n=100)
        result.update(
            delivery_p50_ms=1000 * statistics.median(delays),
            delivery_p99_ms=1000 * cuts[98],
            deliveries=len(delays),
        )
    return result


def with_ratios(alone: dict[str, float], watched: dict[str, float]) -> dict[str, float]:
    watched["mover_alone_p50_ms"] = alone["mover_p50_ms"]
    watched["cpu_alone_ms"] = alone["cpu_ms"]
    extra = (watched["cpu_ms"] - alone["cpu_ms"]) * watched["moves"]
    watched["cpu_us_per_delivery"] = 1000 * extra / watched["deliveries"]
    watched["mover_ratio"] = watched["mover_p50_ms"] / alone["mover_p50_ms"]
    return watched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watcher", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--bare-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--watchers", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between moves")
    parser.add_argument("--per-process", type=int, default=250, help="streams per process")
    parser.add_argument("--bare", action="store_true", help="also measure a bare grpc.aio server")
    parser.add_argument("--json", default=None, help="write the summary here ('-': stdout)")
    args = parser.parse_args()
    if args.watcher:
        target, tokens, out = args.watcher
        asyncio.run(watch_all(target, json.loads(Path(tokens).read_text()), Path(out)))
        return 0
    if args.bare_server:
        asyncio.run(serve_bare())
        return 0
    rng = random.Random(3)
    labels = [str(n) for n in args.watchers]
    if args.bare:
        labels += [f"bare {n}" for n in args.watchers]
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in labels}
    before = loadavg()
    most = max([*args.watchers, 1])  # the server must admit them all (one client address)
    with tempfile.TemporaryDirectory() as tmp:
        limits = ["--max-watchers", str(2 * most), "--max-watchers-per-principal", str(most)]
        proc, target = start(tarok_server(f"sqlite:///{tmp}/watch.db", "full") + limits)
        bare = start([sys.executable, __file__, "--bare-server"]) if args.bare else None
        try:
            asyncio.run(play_hand(proc, target, 0, args, rng, Path(tmp)))  # warm up
            for rep in range(args.repetitions):
                for n in args.watchers:
                    alone = asyncio.run(play_hand(proc, target, 0, args, rng, Path(tmp)))
                    watched = asyncio.run(play_hand(proc, target, n, args, rng, Path(tmp)))
                    runs[str(n)].append(with_ratios(alone, watched))
                    if bare is not None:  # as many moves: stream set-up/teardown weigh alike
                        count = int(watched["moves"])
                        alone = asyncio.run(play_bare(*bare, 0, args, Path(tmp), count))
                        watched = asyncio.run(play_bare(*bare, n, args, Path(tmp), count))
                        runs[f"bare {n}"].append(with_ratios(alone, watched))
                print(f"  repetition {rep + 1}/{args.repetitions} done (load {loadavg()})",
                      file=sys.stderr, flush=True)  # fmt: skip
        finally:
            for server in [proc] + ([] if bare is None else [bare[0]]):
                server.terminate()
                server.wait(10)
    after = loadavg()
    results: dict[str, Any] = {}
    print(f"load average before {before}, after {after} ({os.cpu_count()} CPUs); medians of "
          f"{args.repetitions} repetitions; moves {args.interval * 1000:.0f} ms apart")  # fmt: skip
    print("| watchers | delivery p50 ms | delivery p99 ms | mover p50 ms (alone) | mover ratio "
          "| server CPU ms/move (alone) | server CPU us/delivery |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for label, reps in runs.items():
        r = {k: statistics.median(x[k] for x in reps) for k in reps[0]}
        results[label] = r
        print(f"| {label} | {r['delivery_p50_ms']:.1f} | {r['delivery_p99_ms']:.1f} "
              f"| {r['mover_p50_ms']:.2f} ({r['mover_alone_p50_ms']:.2f}) "
              f"| {r['mover_ratio']:.2f} | {r['cpu_ms']:.2f} ({r['cpu_alone_ms']:.2f}) "
              f"| {r['cpu_us_per_delivery']:.0f} |")  # fmt: skip
    summary = {
        "benchmark": "watch",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpus": os.cpu_count(),
        "load_before": before,
        "load_after": after,
        "repetitions": args.repetitions,
        "interval_s": args.interval,
        "results": results,
    }
    if args.json == "-":
        json.dump(summary, sys.stdout, indent=2)
    elif args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
