"""FindMatch on one server: callers are seated together, a lone caller gets bots after the
wait, a cancelled stream leaves the queue, and nobody is matched with itself."""

from __future__ import annotations

import math
import threading
from typing import Any

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration
from tarok_client.sdk import Client, Seat
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import matches_pb2 as mt

from tarok_service.competition import GameRecord, rate
from tarok_service.server.main import running
from tarok_service.server.matches import find, logs, queue

from ..browser_protocols.harness import HttpStub
from ..service.harness import PLAYING, ServerThread, expect_error, hang_up, view
from .helpers import Metadata, bearer, matches, sign_in


def seconds(value: float) -> Duration:
    out = Duration()
    out.FromNanoseconds(int(value * 1e9))
    return out


def found(stub: Any, request: ms.FindMatchRequest, md: Metadata) -> ms.MatchFound:
    """Run the stream to its end; the seat it ends with (progress reports before it)."""
    replies = list(stub.FindMatch(request, metadata=md, timeout=120))
    assert all(r.HasField("waiting") for r in replies[:-1])
    last: ms.FindMatchResponse = replies[-1]
    assert last.HasField("found")
    return last.found


def find_together(
    stubs: list[Any], request: ms.FindMatchRequest, signed: list[Metadata]
) -> list[ms.MatchFound | BaseException]:
    """Each caller's FindMatch on its own thread, all at once."""
    out: list[ms.MatchFound | BaseException] = [RuntimeError("no answer")] * len(signed)

    def run(i: int) -> None:
        try:
            out[i] = found(stubs[i], request, signed[i])
        except BaseException as error:
            out[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(signed))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(150)
    return out


def test_three_callers_are_seated_at_one_table(server: ServerThread) -> None:
    signed = [sign_in(server.channel, f"q{i}")[1] for i in range(3)]
    request = ms.FindMatchRequest(variant="slovenian", players=3, name="q")
    seats = find_together([matches(server)] * 3, request, signed)
    assert all(isinstance(s, ms.MatchFound) for s in seats), seats
    got = [s for s in seats if isinstance(s, ms.MatchFound)]
    assert len({s.table_id for s in got}) == 1
    assert sorted(s.seat for s in got) == [0, 1, 2]
    table = view(server.stub, got[0].token)
    assert table.status == PLAYING  # the last seat taken dealt the first hand
    assert all(s.name == "q" and not s.bot for s in table.seats)


def test_a_lone_caller_is_given_bots_after_the_wait(server: ServerThread) -> None:
    _, md = sign_in(server.channel, "alone")
    request = ms.FindMatchRequest(
        variant="slovenian", players=4, bots_after=seconds(0.3), name="alone"
    )
    seat = found(matches(server), request, md)
    table = view(server.stub, seat.token)
    bots = [s.bot for s in table.seats]
    assert bots[seat.seat] == "" and sum(1 for b in bots if b) == 3
    assert not seat.rated


def test_a_cancelled_stream_leaves_the_queue(server: ServerThread) -> None:
    _, first = sign_in(server.channel, "leaver")
    request = ms.FindMatchRequest(variant="slovenian", players=3, rated=True, name="leaver")
    stream = matches(server).FindMatch(request, metadata=first, timeout=60)
    assert next(iter(stream)).HasField("waiting")  # its ticket is in the queue
    hang_up(stream)
    log_id = logs.queue_log("slovenian", 3, True)
    store = running(server.server).app.ctx.store

    def closed() -> bool:
        entries = [logs.decode(s) for s in server.run(store.read(log_id, 0))]
        return any(isinstance(b, mt.MatchTicketClosed) and b.reason == "left" for b in entries)

    version = server.run(store.version(log_id))
    while not closed():  # woken by the queue's next entry (bounded by the wait's timeout)
        version = server.run(store.wait_for_change(log_id, version, 10.0))
    _, second = sign_in(server.channel, "stayer")
    short = ms.FindMatchRequest(
        variant="slovenian", players=3, rated=True, max_wait=seconds(0.5), name="stayer"
    )
    expect_error(
        lambda: list(matches(server).FindMatch(short, metadata=second, timeout=60)),
        grpc.StatusCode.DEADLINE_EXCEEDED,
        "NO_MATCH",
    )


def test_one_player_in_the_queue_twice_is_not_matched_with_itself(server: ServerThread) -> None:
    _, md = sign_in(server.channel, "twice")
    request = ms.FindMatchRequest(
        variant="french_tarot", players=3, max_wait=seconds(0.8), name="twice"
    )
    outcomes = find_together([matches(server)] * 2, request, [md, md])
    for outcome in outcomes:
        assert isinstance(outcome, grpc.RpcError), outcome
        assert outcome.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_find_match_over_the_http_port(server: ServerThread) -> None:
    _, md = sign_in(server.channel, "browser")
    port = running(server.server).http
    assert port is not None
    stub = HttpStub(
        f"http://127.0.0.1:{port.port}",
        "connect-json",
        "tarok.v1.MatchService",
        {"authorization": f"Bearer {bearer(md)}"},
    )
    bad = ms.FindMatchRequest(variant="slovenian", players=7)
    expect_error(
        lambda: list(stub.FindMatch(bad, timeout=30)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "BAD_PLAYER_COUNT",
        field="players",
    )
    request = ms.FindMatchRequest(
        variant="french_tarot", players=4, bots_after=seconds(0.2), name="browser"
    )
    replies = list(stub.FindMatch(request, timeout=120))
    assert replies[-1].HasField("found")
    table = view(server.stub, replies[-1].found.token)
    assert [bool(s.bot) for s in table.seats].count(True) == 3


def test_a_waiting_stream_keeps_its_ticket_alive_past_the_lease(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queue, "LEASE", 0.6)  # short leases, renewed three times as often
    monkeypatch.setattr(find, "LEASE", 0.6)
    monkeypatch.setattr(find, "RENEW_EVERY", 0.2)
    signed = [sign_in(server.channel, f"r{i}")[1] for i in range(3)]
    request = ms.FindMatchRequest(variant="french_tarot", players=3, rated=True, name="r")
    first = matches(server).FindMatch(request, metadata=signed[0], timeout=120)
    assert next(iter(first)).HasField("waiting")
    log_id = logs.queue_log("french_tarot", 3, True)
    store = running(server.server).app.ctx.store

    def renewals() -> int:
        entries = [logs.decode(s) for s in server.run(store.read(log_id, 0))]
        return sum(isinstance(b, mt.MatchTicketRenewed) for b in entries)

    version = server.run(store.version(log_id))
    for _ in range(40):  # well past the first lease: the ticket lives on its renewals
        if renewals() >= 4:
            break
        version = server.run(store.wait_for_change(log_id, version, 10.0))
    assert renewals() >= 4
    later = find_together([matches(server)] * 2, request, signed[1:])
    replies = list(first)
    assert replies[-1].HasField("found"), replies
    seats = [replies[-1].found, *later]
    assert all(isinstance(s, ms.MatchFound) for s in seats), seats
    assert len({s.table_id for s in seats if isinstance(s, ms.MatchFound)}) == 1


def _play_my_turns(target: str, seat: ms.MatchFound) -> None:
    """Play a seat's turns (passing when it may) until the table finishes; bots play the rest."""
    client = Client(target)
    mine = Seat(client, seat.table_id, seat.token, seat.seat)
    try:
        for turn in mine.my_turns():
            legal = [m.id for m in turn.hand.legal_moves]
            mine.submit(next((m for m in legal if m == "pass"), legal[0]))
    finally:
        client.channel.close()


def test_a_rated_match_against_bots_rates_both_players(server: ServerThread) -> None:
    pids, signed = zip(*(sign_in(server.channel, n) for n in ("x", "y")), strict=True)
    request = ms.FindMatchRequest(
        variant="slovenian", players=4, rated=True, bots_after=seconds(3), name="h"
    )
    found = find_together([matches(server)] * 2, request, list(signed))
    seats = [s for s in found if isinstance(s, ms.MatchFound)]
    assert len(seats) == 2 and seats[0].table_id == seats[1].table_id, found
    assert all(s.rated for s in seats)
    players = [threading.Thread(target=_play_my_turns, args=(server.target, s)) for s in seats]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join(180)
    store = running(server.server).app.ctx.store
    entries = []
    for pid, md in zip(pids, signed, strict=True):  # the closing write records the history
        server.run(store.wait_for_change(logs.history_log(pid), 0, 60.0), timeout=90)
        [entry] = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md).tables
        entries.append(entry)
    totals = tuple(s.score for s in entries[0].seats)
    names = [s.player_id or f"seat:{s.seat}" for s in entries[0].seats]
    expected = dict(zip(names, rate(names, [GameRecord(0, 0, (0, 1, 2, 3), totals)]), strict=True))
    board = matches(server).ListLeaderboard(
        ms.ListLeaderboardRequest(variant="slovenian", players=4)
    )
    assert sorted(e.player_id for e in board.entries) == sorted(pids)  # bots are not rated
    for pid, entry in zip(pids, entries, strict=True):
        want = expected[pid]
        assert entry.rated and math.isclose(entry.rating_after.mu, want.mu)
        assert math.isclose(entry.rating_after.sigma, want.sigma)
        assert entry.rating_after.mu != entry.rating_before.mu  # the rating moved
        assert [e.rating for e in board.entries if e.player_id == pid] == [entry.rating_after]
