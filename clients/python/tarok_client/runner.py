"""Run a bot over gRPC: one StreamMyTurns stream for all its tables, a move per turn.

    from tarok_client.runner import BotRunner, EngineBot

    BotRunner("localhost:50051", [token], EngineBot("heuristic")).run()

`token` is an entrant token (every table of a tournament entrant) or a seat token (one
table). The runner reconnects after a dropped connection and resumes from the last version
it saw; a move is submitted with the view's version as `expected_version` and a request id
derived from the table and version, so a retried move is never made twice.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc
from tarok_proto.tarok.v1 import views_pb2

from .sdk import TarokError

log = logging.getLogger("tarok.bot")
# A server going away cancels or fails the calls in flight: reconnect and retry (same request id).
RECONNECT = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
)
LATE = ("STALE_VERSION", "NOT_YOUR_TURN", "TABLE_FINISHED", "CONTENTION")
CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 5_000),
    ("grpc.keepalive_permit_without_calls", 1),
]


class Bot(Protocol):
    """A remote bot: given its seat's view (its turn), the id of one of the legal moves."""

    def choose(self, view: views_pb2.TableView) -> str: ...


class EngineBot:
    """A built-in brain of `tarok_service.bots` ("random", "heuristic", "pimc") playing from
    the view the server sent (converted to the engine's View): it sees only that view."""

    def __init__(self, name: str, seed: int | None = None, **options: Any) -> None:
        from tarok_service.bots import make_bot  # pure: engine and standard library only

        self.name = name
        self.brain = make_bot(name, seed, **options)

    def choose(self, view: views_pb2.TableView) -> str:
        from .convert import engine_view

        engine, variant, rules = engine_view(view)
        return self.brain.choose(engine, variant, rules).id


@dataclass
class RunStats:
    """What a run did."""

    moves: int = 0
    late: int = 0  # moves refused because the turn had passed (e.g. timed out)
    refused: int = 0  # moves refused for another reason (an illegal choice)
    reconnects: int = 0
    tables: int = 0


class BotRunner:
    """Plays `bot` at every table the tokens give it a seat at, until all are over."""

    def __init__(
        self,
        target: str,
        tokens: Sequence[str],
        bot: Bot,
        *,
        call_timeout: float = 30.0,
        max_reconnects: int = 50,
        stop: threading.Event | None = None,
    ) -> None:
        self.target = target
        self.tokens = list(tokens)
        self.bot = bot
        self.call_timeout = call_timeout
        self.max_reconnects = max_reconnects
        self.stop = stop or threading.Event()
        self.seen: dict[str, int] = {}
        self.stats = RunStats()
        # (table, version) -> (move, request id) of a move not yet answered: a retry after a
        # reconnect sends the same move with the same unpredictable id, so it is safe.
        self._pending: dict[tuple[str, int], tuple[str, str]] = {}

    def run(self) -> RunStats:
        """Play until every table is over (or `stop` is set); reconnects when the connection
        drops, resuming after the last version seen."""
        failures = 0
        while not self.stop.is_set():
            channel = grpc.insecure_channel(self.target, options=CHANNEL_OPTIONS)
            try:
                if self._session(channel):
                    return self.stats
                failures = 0
            except grpc.RpcError as error:
                if _code(error) not in RECONNECT or failures >= self.max_reconnects:
                    raise TarokError.from_rpc(error) from None
                failures += 1
                self.stats.reconnects += 1
                log.info("connection lost (%s): reconnecting", _code(error))
                self.stop.wait(min(0.1 * 2**failures, 5.0))
            finally:
                channel.close()
        return self.stats

    def _session(self, channel: grpc.Channel) -> bool:
        """One stream; True when it ended with every table over."""
        turns = ts_grpc.TournamentServiceStub(channel)
        tables = svc_grpc.TarokServiceStub(channel)
        request = ts.StreamMyTurnsRequest(tokens=self.tokens, seen=self.seen)
        stream = turns.StreamMyTurns(request)
        try:
            for item in stream:
                if self.stop.is_set():
                    return True
                kind = item.WhichOneof("item")
                if kind == "turn":
                    self._play(tables, item.turn)
                elif kind == "done":
                    self.stats.tables = item.done.tables
                    return True
        finally:
            stream.cancel()  # type: ignore[no-untyped-call]
        return False

    def _play(self, tables: svc_grpc.TarokServiceStub, turn: ts.MyTurn) -> None:
        view = turn.view
        if turn.table_id in self.seen and self.seen[turn.table_id] >= view.version:
            return
        key = (turn.table_id, view.version)
        if key not in self._pending:
            self._pending[key] = (self.bot.choose(view), secrets.token_urlsafe(16))
        move_id, request_id = self._pending[key]
        request = svc.SubmitMoveRequest(
            token=turn.token,
            move_id=move_id,
            expected_version=view.version,
            request_id=request_id,
        )
        try:
            tables.SubmitMove(request, timeout=self.call_timeout)
            self.stats.moves += 1
        except grpc.RpcError as error:
            if _code(error) in RECONNECT:
                raise  # reconnect; the same request id makes the retry safe
            failure = TarokError.from_rpc(error)
            if failure.reason in LATE:
                self.stats.late += 1
            else:
                self.stats.refused += 1
                log.warning("move %s refused at %s: %s", move_id, turn.table_id, failure)
        self._pending.pop(key, None)
        self.seen[turn.table_id] = view.version


def _code(error: grpc.RpcError) -> grpc.StatusCode:
    return error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN


def run_bot(target: str, token: str, bot: Bot) -> RunStats:
    """Connect `bot` with one token and play until its tables are over."""
    started = time.perf_counter()
    stats = BotRunner(target, [token], bot).run()
    log.info("bot done in %.1f s: %s", time.perf_counter() - started, stats)
    return stats
