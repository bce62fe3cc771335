"""Test helpers: an in-process server on port 0 (own event loop thread) and call helpers."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status
from tarok_proto.tarok.v1 import cards_pb2, views_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.config import ServerConfig
from tarok_service.server.main import create_server, shutdown
from tarok_service.store import EventStore

T = TypeVar("T")
SECRET = b"test-secret"
FINISHED = views_pb2.TABLE_STATUS_FINISHED
PLAYING = views_pb2.TABLE_STATUS_PLAYING
SEATING = views_pb2.TABLE_STATUS_SEATING


def config(**changes: Any) -> ServerConfig:
    base: dict[str, Any] = {
        "store_url": "sqlite:///:memory:",
        "host": "127.0.0.1",
        "port": 0,
        "secret": SECRET,
        "heartbeat_seconds": 0.2,
        "guest_sign_ins_per_minute": 0,  # tests sign many guests in from one address
    }
    base.update(changes)
    return ServerConfig(**base)


class ServerThread:
    """A server from `create_server` running on its own event loop in a daemon thread. A
    `store` given is opened on that loop, so `stop` closes it there too."""

    def __init__(self, cfg: ServerConfig, store: EventStore | None = None) -> None:
        self.config = cfg
        self.store = store
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server, self.port = self.run(create_server(cfg, store))
        self.channel = grpc.insecure_channel(self.target)
        self.stub = svc_grpc.TarokServiceStub(self.channel)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        """Run a coroutine on the server's loop and wait for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.channel.close()
        self.run(shutdown(self.server, 0))
        if self.store is not None:
            self.run(self.store.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()


def error_of(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """(status code, ErrorInfo reason, metadata) of a call that must fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    error = caught.value
    assert isinstance(error, grpc.Call)
    status = rpc_status.from_call(error)
    assert status is not None, f"no rich status in {error}"
    infos = []
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            infos.append(info)
    assert len(infos) == 1 and infos[0].domain == "tarok.v1"
    return error.code(), infos[0].reason, dict(infos[0].metadata)


def expect_error(
    call: Callable[[], Any], code: grpc.StatusCode, reason: str, **metadata: str
) -> dict[str, str]:
    got_code, got_reason, got_meta = error_of(call)
    assert (got_code, got_reason) == (code, reason), got_meta
    for key, value in metadata.items():
        assert got_meta.get(key) == value, (key, got_meta)
    return got_meta


def create(
    stub: svc_grpc.TarokServiceStub,
    variant: str = "slovenian",
    players: int = 4,
    hands: int = 1,
    presets: Sequence[Sequence[str]] = (),
    options: dict[str, str] | None = None,
) -> str:
    request = svc.CreateTableRequest(
        variant=variant,
        players=players,
        hands=hands,
        options=options or {},
        preset_deals=[cards_pb2.Deal(cards=list(p)) for p in presets],
    )
    return stub.CreateTable(request).table_id


def seat_all(stub: svc_grpc.TarokServiceStub, table_id: str, players: int) -> list[str]:
    """Join every seat in order; returns the tokens by seat."""
    tokens = []
    for i in range(players):
        reply = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, name=f"p{i}"))
        assert reply.seat == i
        tokens.append(reply.token)
    return tokens


def new_table(
    stub: svc_grpc.TarokServiceStub, players: int = 4, **kwargs: Any
) -> tuple[str, list[str]]:
    table_id = create(stub, players=players, **kwargs)
    return table_id, seat_all(stub, table_id, players)


def view(stub: svc_grpc.TarokServiceStub, token: str) -> views_pb2.TableView:
    return stub.GetTableView(svc.GetTableViewRequest(token=token)).view


def step(
    stub: svc_grpc.TarokServiceStub, tokens: Sequence[str], rng: random.Random
) -> svc.SubmitMoveResponse | None:
    """One random legal move by whoever is to move; None when the table has finished."""
    public = view(stub, tokens[0])
    if public.status != PLAYING:
        return None
    seat = public.hand.turn
    mine = view(stub, tokens[seat])
    move = choose(mine, rng)
    return stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[seat], move_id=move))


def choose(mine: views_pb2.TableView, rng: random.Random) -> str:
    """A random legal move, passing often in auctions (keeps games short and varied)."""
    legal = mine.hand.legal_moves
    passes = [m.id for m in legal if m.kind == "pass"]
    if passes and any(m.kind == "bid" for m in legal) and rng.random() < 0.7:
        return passes[0]
    return rng.choice(legal).id


def play_out(stub: svc_grpc.TarokServiceStub, tokens: Sequence[str], seed: int = 0) -> int:
    """Play random moves until the table finishes; returns the number of moves."""
    rng, moves = random.Random(seed), 0
    while step(stub, tokens, rng) is not None:
        moves += 1
    return moves


def race(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Start the calls at the same moment on threads; each result or its grpc.RpcError."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = calls[i]()
        except grpc.RpcError as error:
            outcomes[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


def reason_of(error: grpc.RpcError) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """(code, ErrorInfo reason, metadata) of an error already caught."""

    def fail() -> None:
        raise error

    return error_of(fail)


def hang_up(call: grpc.RpcContext) -> None:
    """Cancel a streaming call from the client side. grpc-stubs leave `RpcContext.cancel`
    unannotated, so it is called through a typed reference."""
    cancel: Callable[[], object] = call.cancel
    cancel()


def submitting(
    stub: svc_grpc.TarokServiceStub, request: svc.SubmitMoveRequest, timeout: float | None = None
) -> Callable[[], int]:
    """A call for `race`: submit the move; its outcome is the table's new version."""
    return lambda: stub.SubmitMove(request, timeout=timeout).version
