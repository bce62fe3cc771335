"""Load for the failover test: tables played by client-side bots, and watchers.

Every table is played by one driver that asks whose turn it is, picks a legal move and
submits it with a request id, retrying the SAME request (on any replica) while the call
fails with a status a failover causes. Every answered move is an acknowledged move,
recorded with its request id so that the test can look for it in the database at the end.
Watchers follow tables on other replicas than their players and record every event
version they receive; a stream that breaks resumes from its last version on another replica.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import views_pb2

from tarok_service.server.usecases.tokens import TokenSigner

from ..service.harness import choose

RETRIED = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,  # a replica killed mid-call
}
FINISHED = views_pb2.TABLE_STATUS_FINISHED
PLAYING = views_pb2.TABLE_STATUS_PLAYING
CALL_SECONDS = 4.0  # one attempt's deadline
GIVE_UP_SECONDS = 120.0  # one call's retries, in all


@dataclass
class Ack:
    table_id: str
    version: int
    request_id: str  # as stored: "<seat>/<id>"
    sent: float  # the start of the attempt that was answered (monotonic): its commit is later
    acked: float


@dataclass
class Watch:
    table_id: str
    versions: list[int] = field(default_factory=list)
    resumed: int = 0
    ended: bool = False


class Load:
    def __init__(self, targets: list[str], secret: bytes, watchers_per_table: int) -> None:
        self.channels = [grpc.aio.insecure_channel(t) for t in targets]
        self.stubs = [svc_grpc.TarokServiceStub(c) for c in self.channels]
        self.signer = TokenSigner(secret, 24 * 3600)
        self.watchers_per_table = watchers_per_table
        self.dead: set[int] = set()  # replicas killed on purpose
        self.acks: list[Ack] = []
        self.tables: list[str] = []
        self.finished: set[str] = set()
        self.watches: list[Watch] = []
        self.retries = 0
        self.refused = 0  # moves answered with an error after a retry (judged on the truth)
        self.stopping = False
        self._tasks: list[asyncio.Task[None]] = []
        self._progress = asyncio.Event()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for channel in self.channels:
            await channel.close(None)

    def start(self, slots: int) -> None:
        for slot in range(slots):
            self._tasks.append(asyncio.create_task(self._slot(slot)))

    async def acks_after(self, count: int, timeout: float = 120.0) -> None:
        """Wait until `count` more moves were acknowledged."""
        target = len(self.acks) + count
        async with asyncio.timeout(timeout):
            while len(self.acks) < target:
                self._progress.clear()
                await self._progress.wait()

    async def drain(self, timeout: float) -> None:
        """Start no new table; wait for every table and watcher to end."""
        self.stopping = True
        async with asyncio.timeout(timeout):
            await asyncio.gather(*self._tasks)

    # -- internals -----------------------------------------------------------------------

    async def _call(self, prefer: int, method: str, request: object) -> object:
        """`method` on replica `prefer` (or the next live one), retried on failover errors."""
        return (await self._attempts(prefer, method, request))[0]

    async def _attempts(self, prefer: int, method: str, request: object) -> tuple[object, float]:
        """(answer, start of the attempt that got it): `_call`."""
        deadline = time.monotonic() + GIVE_UP_SECONDS
        attempt = 0
        while True:
            live = [i for i in range(len(self.stubs)) if i not in self.dead]
            replica = live[(prefer + attempt) % len(live)]
            try:
                call = getattr(self.stubs[replica], method)
                started = time.monotonic()
                return await call(request, timeout=CALL_SECONDS), started
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in RETRIED or time.monotonic() > deadline:
                    raise
            attempt += 1
            self.retries += 1
            await asyncio.sleep(min(0.05 * attempt, 0.5))  # back off between attempts

    async def _slot(self, slot: int) -> None:
        rng = random.Random(slot)
        number = 0
        while not self.stopping:
            await self._table(slot, number, rng)
            number += 1

    async def _table(self, slot: int, number: int, rng: random.Random) -> None:
        prefer = slot % len(self.stubs)
        create = svc.CreateTableRequest(
            variant="slovenian", players=4, hands=1, request_id=f"ha-{slot}-{number}"
        )
        created = await self._call(prefer, "CreateTable", create)
        table_id = created.table_id  # type: ignore[attr-defined]
        self.tables.append(table_id)
        for seat in range(4):
            join = svc.JoinTableRequest(
                table_id=table_id, seat=seat, name=f"bot{seat}", request_id=f"join-{seat}"
            )
            try:
                await self._call(prefer, "JoinTable", join)
            except grpc.aio.AioRpcError as exc:  # a retry of a join that went in
                if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
        now = time.time()
        tokens = [self.signer.issue(table_id, seat, now)[0] for seat in range(4)]
        watchers = [
            asyncio.create_task(self._watch(table_id, tokens[k % 4], prefer + 1 + k))
            for k in range(self.watchers_per_table)
        ]
        n = 0
        while True:
            public = await self._call(
                prefer, "GetTableView", svc.GetTableViewRequest(token=tokens[0])
            )
            view = public.view  # type: ignore[attr-defined]
            if view.status == FINISHED:
                break
            seat = view.hand.turn
            mine = await self._call(
                prefer, "GetTableView", svc.GetTableViewRequest(token=tokens[seat])
            )
            move = choose(mine.view, rng)  # type: ignore[attr-defined]
            n += 1
            rid = f"m{n}"
            request = svc.SubmitMoveRequest(token=tokens[seat], move_id=move, request_id=rid)
            try:
                made, sent = await self._attempts(prefer, "SubmitMove", request)
            except grpc.aio.AioRpcError as exc:
                if exc.code() in RETRIED:
                    raise
                self.refused += 1  # judged again on the store's state: ask anew
                continue
            self.acks.append(
                Ack(table_id, made.version, f"{seat}/{rid}", sent, time.monotonic())  # type: ignore[attr-defined]
            )
            self._progress.set()
        self.finished.add(table_id)
        await asyncio.gather(*watchers)

    async def _watch(self, table_id: str, token: str, prefer: int) -> None:
        watch = Watch(table_id)
        self.watches.append(watch)
        after, attempt = 0, 0
        deadline = time.monotonic() + 4 * GIVE_UP_SECONDS
        while time.monotonic() < deadline:
            live = [i for i in range(len(self.stubs)) if i not in self.dead]
            replica = live[(prefer + attempt) % len(live)]
            request = svc.WatchTableRequest(token=token, from_version=after)
            try:
                async for item in self.stubs[replica].WatchTable(request):
                    if item.WhichOneof("item") == "event":
                        watch.versions.append(item.event.version)
                        after = item.event.version
                watch.ended = True
                return
            except grpc.aio.AioRpcError:
                attempt += 1
                watch.resumed += 1
                await asyncio.sleep(0.2)  # back off before resuming elsewhere
