"""Watch fan-out: watchers sharing a table's feed see exactly what a lone stream would see."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import pytest
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import views_pb2

from tarok_service.server.config import ServerConfig
from tarok_service.server.usecases import fanout, watch_fastpath
from tarok_service.server.usecases.app import TarokApp
from tarok_service.server.usecases.watch import Follower
from tarok_service.store import open_store
from tests.service.harness import choose

PLAYERS = 4


class Game:
    """A table played through the application layer (no transport)."""

    def __init__(self, app: TarokApp, table_id: str, tokens: list[str]) -> None:
        self.app, self.table_id, self.tokens = app, table_id, tokens
        self.rng = random.Random(7)

    @classmethod
    async def start(cls, app: TarokApp) -> Game:
        created = await app.create_table(svc.CreateTableRequest(variant="slovenian", players=4))
        tokens = []
        for _ in range(PLAYERS):
            joined = await app.join_table(svc.JoinTableRequest(table_id=created.table_id))
            tokens.append(joined.token)
        return cls(app, created.table_id, tokens)

    async def step(self) -> bool:
        """One legal move by whoever is to move; False once the table has finished."""
        public = (await self.app.get_view(svc.GetTableViewRequest(token=self.tokens[0]))).view
        if (
            not public.HasField("hand")
            or public.hand.turn < 0
            or public.status != views_pb2.TABLE_STATUS_PLAYING
        ):
            return False
        seat = public.hand.turn
        mine = (await self.app.get_view(svc.GetTableViewRequest(token=self.tokens[seat]))).view
        move = choose(mine, self.rng)
        await self.app.submit_move(svc.SubmitMoveRequest(token=self.tokens[seat], move_id=move))
        return True

    async def spectator(self) -> str:
        request = svc.JoinTableRequest(table_id=self.table_id, spectator=True)
        return (await self.app.join_table(request)).token

    async def reference(self, seat: int | None) -> list[ev.Event]:
        """The events as a lone per-stream follower filters them for `seat`."""
        stored = await self.app.ctx.store.read(self.table_id)
        return Follower(self.table_id, seat).feed(stored)


async def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll `condition` until it holds (fail after `timeout` s)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def collect(stream: AsyncIterator[svc.WatchTableResponse], out: list[ev.Event]) -> None:
    async for item in stream:
        if item.HasField("event"):
            out.append(item.event)


def watch(
    app: TarokApp, token: str, views: bool, received: list[list[ev.Event]]
) -> asyncio.Task[None]:
    """A watcher of `token`'s table collecting into a new list appended to `received`."""
    out: list[ev.Event] = []
    received.append(out)
    request = svc.WatchTableRequest(token=token, with_views=views)
    return asyncio.create_task(collect(app.watch_table(request), out))


def app_for_test() -> TarokApp:
    config = ServerConfig(store_url="memory:", secret=b"t", heartbeat_seconds=0.05)
    return TarokApp(open_store("memory:"), config)


def test_many_watchers_of_every_audience_get_their_own_filtered_log() -> None:
    async def body() -> None:
        app = app_for_test()
        await app.ctx.store.open()
        game = await Game.start(app)
        audiences: list[int | None] = [0, 1, 2, 3, None]
        tokens = [*game.tokens, await game.spectator()]
        received: list[list[ev.Event]] = []
        tasks = []
        for i in range(25):
            tasks.append(watch(app, tokens[i % 5], i % 2 == 0, received))
            if i == 12:  # some watchers join mid-hand
                for _ in range(10):
                    await game.step()
        while await game.step():
            await asyncio.sleep(0)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert len(app.feeds) == 0  # the feed ended with the table
        for i, out in enumerate(received):
            expected = await game.reference(audiences[i % 5])
            assert [e.version for e in out] == [e.version for e in expected]
            assert out == expected, f"watcher {i} (seat {audiences[i % 5]})"
        assert len(await game.reference(None)) > 50  # a whole hand was played
        hidden = [e for e in await game.reference(None) if e.move_made.hidden]
        assert hidden, "the spectator's log hides some card"
        await app.ctx.store.close()

    asyncio.run(body())


def test_a_watcher_that_falls_behind_catches_up_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    lagged: list[int] = []
    original = fanout.Lagged.__init__

    def spy(self: fanout.Lagged, version: int) -> None:
        lagged.append(version)
        original(self, version)

    monkeypatch.setattr(fanout, "MAX_QUEUED", 3)
    monkeypatch.setattr(fanout.Lagged, "__init__", spy)

    async def body() -> None:
        app = app_for_test()
        await app.ctx.store.open()
        game = await Game.start(app)
        slow = app.watch_table(svc.WatchTableRequest(token=game.tokens[1]))
        first = await anext(slow)
        got: list[ev.Event] = []
        while len(got) < first.view.version:
            item = await anext(slow)
            if item.HasField("event"):
                got.append(item.event)
        brisk: list[ev.Event] = []
        other = asyncio.create_task(
            collect(app.watch_table(svc.WatchTableRequest(token=game.tokens[2])), brisk)
        )
        for _ in range(20):  # the slow watcher reads nothing meanwhile
            await game.step()
            for _ in range(20):
                await asyncio.sleep(0)
        while await game.step():
            await asyncio.sleep(0)
        async for item in slow:
            if item.HasField("event"):
                got.append(item.event)
        await asyncio.wait_for(other, 60)
        assert lagged, "the slow watcher was detached at least once"
        assert len(got) > first.view.version + 20
        assert got == await game.reference(1)
        assert brisk == await game.reference(2)
        await app.ctx.store.close()

    asyncio.run(body())


def test_shared_serializer_serialises_a_shared_object_once() -> None:
    calls: list[object] = []

    def serialize(message: svc.WatchTableResponse) -> bytes:
        calls.append(message)
        return bytes(message.SerializeToString())

    shared = watch_fastpath.SharedSerializer(serialize)
    a = watch_fastpath.share(svc.WatchTableResponse(heartbeat=svc.Heartbeat(version=3)))
    assert shared(a) == shared(a) == a.SerializeToString()
    assert calls == [a]
    plain = svc.WatchTableResponse(heartbeat=svc.Heartbeat(version=4))
    first = shared(plain)
    plain.heartbeat.version = 5  # a message nobody shared may change between sends
    assert shared(plain) != first and shared(plain) == plain.SerializeToString()
    assert calls == [a, plain, plain, plain]


def test_a_watcher_attaching_behind_the_feed_sends_the_gap_itself() -> None:
    async def body() -> None:
        app = app_for_test()
        await app.ctx.store.open()
        game = await Game.start(app)
        early: list[ev.Event] = []
        first_watcher = app.watch_table(svc.WatchTableRequest(token=game.tokens[0]))
        feed_user = asyncio.create_task(collect(first_watcher, early))
        late = app.watch_table(svc.WatchTableRequest(token=game.tokens[1], from_version=1 << 40))
        opened = await anext(late)  # its view; it has not attached to the feed yet
        start = opened.view.version
        for _ in range(5):
            await game.step()
        target = await app.ctx.store.version(game.table_id)
        await until(lambda: bool(early) and early[-1].version >= target)  # the feed is ahead
        got: list[ev.Event] = []
        finishing = asyncio.create_task(collect(late, got))
        while await game.step():
            await asyncio.sleep(0)
        await asyncio.wait_for(asyncio.gather(feed_user, finishing), 60)
        expected = [e for e in await game.reference(1) if e.version > start]
        assert len(expected) > 5 and got == expected
        await app.ctx.store.close()

    asyncio.run(body())


def test_watchers_coming_and_going_between_chunks_miss_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "CHUNK", 2)  # every delivery yields between watchers
    monkeypatch.setattr(fanout, "PACE", 3)  # and the streams write 3 messages a loop round

    async def body() -> None:
        app = app_for_test()
        await app.ctx.store.open()
        game = await Game.start(app)
        tokens = [*game.tokens, await game.spectator()]
        audiences: list[int | None] = [0, 1, 2, 3, None]
        watchers: list[tuple[int, list[ev.Event], asyncio.Task[None]]] = []

        def open_watcher(i: int) -> None:
            out: list[ev.Event] = []
            request = svc.WatchTableRequest(token=tokens[i % 5], with_views=i % 3 == 0)
            watchers.append((i, out, asyncio.create_task(collect(app.watch_table(request), out))))

        for i in range(12):
            open_watcher(i)
        rng = random.Random(5)
        step = 0
        while await game.step():
            step += 1
            for _ in range(rng.randrange(4)):  # part of a delivery runs, or none of it
                await asyncio.sleep(0)
            if step % 4 == 0:
                open_watcher(len(watchers))  # attaches while the feed may be mid-delivery
            if step % 7 == 0:
                watchers[rng.randrange(len(watchers))][2].cancel()  # detaches likewise
        tasks = [task for _, _, task in watchers]
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
        left = 0
        for i, out, task in watchers:
            expected = await game.reference(audiences[i % 5])
            if task.cancelled():
                assert out == expected[: len(out)], f"watcher {i}: a prefix, in order"
            else:
                left += 1
                assert out == expected, f"watcher {i} (seat {audiences[i % 5]})"
        assert left >= 12 and len(watchers) > 20
        await app.ctx.store.close()

    asyncio.run(body())


def test_the_pacer_admits_its_budget_a_round_and_the_rest_in_turn() -> None:
    async def body() -> None:
        pacer = fanout.Pacer(budget=2)
        order: list[int] = []
        rounds: list[int] = []
        round_no = 0

        async def writer(i: int) -> None:
            wait = pacer.turn()
            if wait is not None:
                await wait
            order.append(i)
            rounds.append(round_no)

        tasks = [asyncio.create_task(writer(i)) for i in range(7)]
        tasks[3].cancel()  # a stream closed while it waits for its turn takes none
        while not all(task.done() for task in tasks):
            await asyncio.sleep(0)
            round_no += 1
        assert order == [0, 1, 2, 4, 5, 6]
        assert all(rounds.count(r) <= 2 for r in set(rounds))  # at most 2 writes a round
        assert len(set(rounds)) >= 3 and rounds == sorted(rounds)
        for _ in range(3):
            await asyncio.sleep(0)
        assert pacer.turn() is None  # a new round admits again at once

    asyncio.run(body())


def test_a_paced_watcher_still_gets_every_message_once_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "PACE", 1)  # one live message a loop round, for all streams
    waited: list[bool] = []
    turn = fanout.Pacer.turn

    def spy(self: fanout.Pacer) -> asyncio.Future[None] | None:
        wait = turn(self)
        waited.append(wait is not None)
        return wait

    monkeypatch.setattr(fanout.Pacer, "turn", spy)

    async def body() -> None:
        app = app_for_test()
        await app.ctx.store.open()
        game = await Game.start(app)
        tokens = [*game.tokens, await game.spectator()]
        received: list[list[ev.Event]] = []
        tasks = []
        for i in range(10):
            tasks.append(watch(app, tokens[i % 5], i % 2 == 1, received))
        while await game.step():  # moves come faster than the streams may write them
            pass
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        audiences: list[int | None] = [0, 1, 2, 3, None]
        for i, out in enumerate(received):
            assert out == await game.reference(audiences[i % 5]), f"watcher {i}"
        assert sum(waited) > 10, "streams waited for their turn"
        await app.ctx.store.close()

    asyncio.run(body())
