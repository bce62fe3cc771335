"""Time per move without state in memory: a bot that stops answering is timed out (a TimedOut
event and its default move in the table's log), forfeits, and the tournament completes."""

from __future__ import annotations

import pytest
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.tournaments import Tournaments
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import views_pb2

from tarok_service.server.main import running
from tarok_service.server.model import commands, events
from tarok_service.server.model.cache import apply_stored
from tarok_service.server.model.fold import PLAYING, TableState

from ..service.harness import ServerThread
from .helpers import ORGANISER_KEY, assert_fair, start_runner, wait_finished


class QuitsAfter:
    """Plays a few moves, then stops answering (its runner stops)."""

    def __init__(self, moves: int) -> None:
        self.left = moves
        self.inner = EngineBot("random", seed=2)
        self.runner: BotRunner | None = None

    def choose(self, view: views_pb2.TableView) -> str:
        self.left -= 1
        if self.left <= 0 and self.runner is not None:
            self.runner.stop.set()
        return self.inner.choose(view)


@pytest.mark.slow
def test_a_silent_bot_is_timed_out_its_default_move_played_and_it_forfeits(
    server: ServerThread,
) -> None:
    entrants = [("sleepy", ""), ("h", "heuristic"), ("r", "random"), ("h2", "heuristic")]
    with connect(server.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", entrants, deals=1, players=4, duplicate=True,
            time_per_move=0.25, max_timeouts=2, seed=11,
        )  # fmt: skip
    bot = QuitsAfter(3)
    bot.runner = BotRunner(server.target, [created.entrant_tokens[0].token], bot)
    start_runner(bot.runner).join(60)
    doc = wait_finished(server.target, created.tournament_id)
    rows = {row["name"]: row for row in doc["entrants"]}
    assert rows["sleepy"]["timeouts"] == 2 and rows["sleepy"]["forfeited"]
    assert all(rows[n]["timeouts"] == 0 for n in ("h", "r", "h2"))
    timed_out = forfeited_moves = 0
    for game in doc["games"]:
        late, auto = _check_log(server, game["table_id"])
        timed_out, forfeited_moves = timed_out + late, forfeited_moves + auto
    assert timed_out == 2 and forfeited_moves > 0
    assert_fair(server.target, created.tournament_id)


def _check_log(server: ServerThread, table_id: str) -> tuple[int, int]:
    """Replay a table's stored log: after each TimedOut comes the late seat's default move,
    and every move that leaves a seat to move records its deadline. (timeouts, forfeits)"""
    ctx = running(server.server).app.ctx
    stored = server.run(ctx.store.read(table_id, 0))
    table: TableState | None = None
    late = auto = 0
    for i, item in enumerate(stored):
        payload = events.decode(item)
        if isinstance(payload, ev.TimedOut):
            assert table is not None and table.hand is not None
            made = events.decode(stored[i + 1])
            assert isinstance(made, ev.MoveMade)
            assert made.seat == payload.seat == table.hand.turn
            assert made.move_id == commands.default_move(table).id
            auto += payload.forfeited
            late += not payload.forfeited
        table = apply_stored(table, table_id, [item])
        if isinstance(payload, ev.MoveMade):
            assert table is not None
            hand = table.hand
            waiting = table.status == PLAYING and hand is not None and hand.turn is not None
            assert payload.HasField("deadline") == waiting
            assert (table.deadline is not None) == waiting
    return late, auto
