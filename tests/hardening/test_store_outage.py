"""PostgreSQL cut off behind a TCP proxy: UNAVAILABLE with RetryInfo, then recovery.

Every call made while the database is unreachable fails fast with UNAVAILABLE reason
STORE_UNAVAILABLE and a google.rpc.RetryInfo (never INTERNAL); an open watch stream ends
with UNAVAILABLE so its client resumes from its version; once the proxy is back, calls
succeed again without restarting anything.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tests.service.harness import ServerThread, config, new_table, view

from .conftest import endpoint, with_port
from .proxy import TcpProxy

pytestmark = pytest.mark.postgres
TIMEOUT = 1.0  # the server's bounded wait for a store connection


@pytest.fixture
def proxied(postgres_dsn: str) -> Iterator[tuple[ServerThread, TcpProxy]]:
    proxy = TcpProxy(*endpoint(postgres_dsn))
    url = with_port(postgres_dsn, "127.0.0.1", proxy.port)
    server = ServerThread(config(store_url=url, store_timeout_seconds=TIMEOUT))
    yield server, proxy
    proxy.restore_quietly()
    server.stop()
    proxy.close()


def unavailable(error: grpc.RpcError) -> None:
    """Assert `error` is UNAVAILABLE / STORE_UNAVAILABLE carrying a RetryInfo."""
    assert isinstance(error, grpc.Call)
    assert error.code() == grpc.StatusCode.UNAVAILABLE, (error.code(), error.details())
    status = rpc_status.from_call(error)
    assert status is not None
    reasons, retries = [], []
    for detail in status.details:
        info, retry = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            reasons.append(info.reason)
        elif detail.Unpack(retry):
            retries.append(retry)
    assert reasons == ["STORE_UNAVAILABLE"]
    assert len(retries) == 1 and retries[0].retry_delay.seconds >= 1


def test_outage_is_unavailable_with_retry_info_and_recovers(
    proxied: tuple[ServerThread, TcpProxy],
) -> None:
    server, proxy = proxied
    stub = server.stub
    table_id, tokens = new_table(stub)
    before = view(stub, tokens[0]).version
    ended: list[grpc.RpcError] = []
    watching = threading.Event()

    def watch() -> None:
        stream = stub.WatchTable(svc.WatchTableRequest(token=tokens[1], from_version=before))
        try:
            for _ in stream:
                watching.set()
        except grpc.RpcError as error:
            ended.append(error)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    assert watching.wait(30)

    proxy.cut()
    calls: list[Callable[[], Any]] = [
        lambda: stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4)),
        lambda: stub.JoinTable(svc.JoinTableRequest(table_id="a" * 18)),
        lambda: stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])),
    ]
    for make in calls * 2:
        with pytest.raises(grpc.RpcError) as caught:
            make()
        unavailable(caught.value)
    watcher.join(60)
    assert not watcher.is_alive() and len(ended) == 1
    unavailable(ended[0])

    proxy.restore()
    cut_over = time.monotonic()
    deadline = cut_over + 60
    while True:
        try:
            stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
            break
        except grpc.RpcError as error:
            unavailable(error)
            assert time.monotonic() < deadline, "the server did not recover"
            time.sleep(0.05)
    print(f"recovered {time.monotonic() - cut_over:.2f} s after the database came back")
    assert view(stub, tokens[0]).table_id == table_id
