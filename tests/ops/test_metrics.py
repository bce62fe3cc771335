"""The metrics endpoint after a played table: every figure matches what happened."""

from __future__ import annotations

import threading
import time
from collections import Counter

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running
from tarok_service.server.ops.metrics import METRIC_NAMES, Metrics
from tarok_service.store import NewEvent, VersionConflict

from ..service.harness import ServerThread, config, new_table, play_out, view
from .conftest import Samples, free_port, scrape, value

SUBMIT = "/tarok.v1.TarokService/SubmitMove"
WATCH = "/tarok.v1.TarokService/WatchTable"


def wait_for(port: int, name: str, want: float, timeout: float = 60.0) -> Samples:
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(port)
        if value(samples, name) == want or time.monotonic() > deadline:
            return samples
        time.sleep(0.02)


def test_scraped_figures_match_a_played_table() -> None:
    port = free_port()
    server = ServerThread(config(metrics_port=port, metrics_host="127.0.0.1"))
    try:
        stub = server.stub
        table_id, tokens = new_table(stub, hands=2)
        spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
        received: list[svc.WatchTableResponse] = []
        stream = stub.WatchTable(svc.WatchTableRequest(token=spectator), timeout=60)
        watcher = threading.Thread(target=lambda: received.extend(stream))
        watcher.start()
        assert (
            value(wait_for(port, "tarok_watch_streams_active", 1), "tarok_watch_streams_active")
            == 1
        )

        public = view(stub, tokens[0])
        turn = public.hand.turn
        legal = view(stub, tokens[turn]).hand.legal_moves[0].id
        with pytest.raises(grpc.RpcError) as refused:
            stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[(turn + 1) % 4], move_id=legal))
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION

        moves = play_out(stub, tokens, seed=3)
        watcher.join(30)
        assert not watcher.is_alive()
        log = stub.GetTableLog(svc.GetTableLogRequest(token=tokens[0])).log
        assert log.complete
        with pytest.raises(VersionConflict):  # a writer that lost a race, seen by the store
            store = running(server.server).app.ctx.store
            server.run(store.append(table_id, 0, [NewEvent("x", b"")], 0.0))

        m = wait_for(port, "tarok_watch_streams_active", 0)
        made = [e for e in log.events if e.HasField("move_made")]
        scored = Counter(
            "redeal" if e.hand_scored.result.redeal else e.hand_scored.result.contract
            for e in log.events
            if e.HasField("hand_scored")
        )
        assert moves == len(made) > 0
        assert value(m, "tarok_tables_created_total", variant="slovenian") == 1
        assert value(m, "tarok_tables_finished_total", variant="slovenian") == 1
        assert value(m, "tarok_moves_total", variant="slovenian") == moves
        for contract, count in scored.items():
            assert (
                value(m, "tarok_hands_scored_total", variant="slovenian", contract=contract)
                == count
            )
        assert value(m, "tarok_hands_scored_total") == sum(scored.values())
        assert value(m, "tarok_moves_rejected_total") == 1
        assert value(m, "tarok_moves_rejected_total", reason="NOT_YOUR_TURN") == 1
        # RPC metrics: every call by method and code, latencies, streams, nothing in flight.
        assert value(m, "tarok_rpc_requests_total", method=SUBMIT, code="OK") == moves
        assert value(m, "tarok_rpc_requests_total", method=SUBMIT, code="FAILED_PRECONDITION") == 1
        joins = value(m, "tarok_rpc_requests_total", method="/tarok.v1.TarokService/JoinTable")
        assert joins == 5
        assert value(m, "tarok_rpc_duration_seconds_count", method=SUBMIT) == moves + 1
        assert value(m, "tarok_rpc_requests_total", method=WATCH, code="OK") == 1
        assert value(m, "tarok_rpc_stream_messages_sent_total", method=WATCH) == len(received)
        assert value(m, "tarok_rpc_in_flight") == 0
        # Store, cache and replay.
        appends = 2 + 4 + moves + 1  # lobby entry + create, 4 seats, the moves, the refused one
        assert value(m, "tarok_store_append_duration_seconds_count") == appends
        assert value(m, "tarok_store_version_conflicts_total") == 1
        assert value(m, "tarok_cache_misses_total") >= 1
        assert value(m, "tarok_cache_hits_total") > moves
        assert value(m, "tarok_replay_events_total") >= 1
        assert value(m, "tarok_replay_duration_seconds_count") >= 1
        assert value(m, "tarok_tournament_tables_in_progress") == 0
    finally:
        server.stop()


def test_each_server_has_its_own_registry() -> None:
    one, two = Metrics(), Metrics()
    one.table_created("slovenian")
    one.set_tournament_tables_in_progress(3)
    assert b'tarok_tables_created_total{variant="slovenian"} 1.0' in one.exposition()
    assert b"tarok_tables_created_total{" not in two.exposition()
    assert b"tarok_tournament_tables_in_progress 3.0" in one.exposition()


def test_metric_names_list_is_what_the_registry_exports() -> None:
    exported = {
        f"{family.name}_total" if family.type == "counter" else family.name
        for family in Metrics(process=False).registry.collect()
    }
    assert exported == set(METRIC_NAMES)
