"""Rated free tables: only signed-in players and bots sit; a finished one updates each
player's rating (OpenSkill through `competition.rate`, as the tournaments rate) and the
leaderboard; the history says so."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import grpc
from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.competition import FIRST_RATING, GameRecord, rate
from tarok_service.server.main import running
from tarok_service.server.matches import logs
from tarok_service.server.matches.ratings import outcome
from tarok_service.server.model import commands
from tarok_service.server.model.fold import fold
from tarok_service.variants.registry import find_variant

from ..service.harness import (
    FINISHED,
    PLAYING,
    ServerThread,
    choose,
    expect_error,
    play_out,
    view,
)
from .helpers import Metadata, matches, sign_in


def _rated_table(
    server: ServerThread, players: int
) -> tuple[str, list[str], list[str], list[Metadata]]:
    """A rated table with a signed-in guest on each seat: (table id, player ids, seat tokens,
    each guest's call metadata)."""
    request = svc.CreateTableRequest(variant="slovenian", players=players, hands=1, rated=True)
    table_id = server.stub.CreateTable(request).table_id
    ids, tokens, signed = [], [], []
    for seat in range(players):
        pid, md = sign_in(server.channel, f"guest{seat}")
        join = svc.JoinTableRequest(table_id=table_id, seat=seat, name=f"seat{seat}")
        tokens.append(server.stub.JoinTable(join, metadata=md).token)
        ids.append(pid)
        signed.append(md)
    return table_id, ids, tokens, signed


def test_a_rated_match_updates_every_players_rating_and_the_leaderboard(
    server: ServerThread,
) -> None:
    _, ids, tokens, _ = _rated_table(server, 4)
    play_out(server.stub, tokens, seed=5)
    final = view(server.stub, tokens[0])
    assert final.status == FINISHED
    totals = tuple(int(t) for t in final.totals)
    expected = rate(ids, [GameRecord(0, 0, (0, 1, 2, 3), totals)], {})
    board = matches(server).ListLeaderboard(
        ms.ListLeaderboardRequest(variant="slovenian", players=4)
    )
    listed = {e.player_id: e for e in board.entries}
    for pid, want in zip(ids, expected, strict=True):
        got = listed[pid].rating
        assert math.isclose(got.mu, want.mu) and math.isclose(got.sigma, want.sigma)
        assert got.games == 1 and got.provisional  # one table: far below PROVISIONAL_GAMES
        assert got.sigma < FIRST_RATING.sigma  # every player is better known after a table
    ordinals = [e.rating.ordinal for e in board.entries]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [e.rank for e in board.entries] == list(range(1, len(board.entries) + 1))
    if len(set(totals)) > 1:  # direction: the best total gains, the worst loses
        best, worst = totals.index(max(totals)), totals.index(min(totals))
        assert listed[ids[best]].rating.mu > FIRST_RATING.mu > listed[ids[worst]].rating.mu
    paged: list[ms.LeaderboardEntry] = []
    token = ""
    while True:  # page by page, the same list
        page = matches(server).ListLeaderboard(
            ms.ListLeaderboardRequest(variant="slovenian", players=4, page_size=1, page_token=token)
        )
        paged.extend(page.entries)
        token = page.next_page_token
        if not token:
            break
    assert paged == list(board.entries)
    _, md = sign_in(server.channel, "guest0-again")  # a new guest has no history
    assert not matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md).tables


def test_the_history_carries_each_players_seat_placing_and_rating_change(
    server: ServerThread,
) -> None:
    table_id, ids, tokens, signed = _rated_table(server, 3)
    play_out(server.stub, tokens, seed=9)
    totals = [int(t) for t in view(server.stub, tokens[0]).totals]
    board = matches(server).ListLeaderboard(
        ms.ListLeaderboardRequest(variant="slovenian", players=3)
    )
    after = {e.player_id: e.rating for e in board.entries}
    for seat, (pid, md) in enumerate(zip(ids, signed, strict=True)):
        [entry] = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md).tables
        assert (entry.table_id, entry.variant, entry.players) == (table_id, "slovenian", 3)
        assert (entry.seat, entry.score, entry.rated, entry.hands) == (seat, totals[seat], True, 1)
        assert entry.placing == 1 + sum(t > totals[seat] for t in totals)
        assert [s.player_id for s in entry.seats] == ids
        assert [s.score for s in entry.seats] == totals
        assert entry.rating_before.mu == FIRST_RATING.mu and entry.rating_before.games == 0
        assert entry.rating_after == after[pid]
        profile = matches(server).GetProfile(ms.GetProfileRequest(), metadata=md)
        assert (profile.player_id, profile.tables) == (pid, 1)
        assert profile.display_name == f"guest{seat}"  # its own name, not the seat's
        [row] = profile.variants
        assert (row.variant, row.players, row.tables, row.rating) == ("slovenian", 3, 1, after[pid])


def test_a_closed_table_is_rated_and_recorded_once(server: ServerThread) -> None:
    table_id, _, tokens, signed = _rated_table(server, 3)
    play_out(server.stub, tokens, seed=4)
    ctx = running(server.server).app.ctx
    ratings = logs.ratings_log("slovenian", 3)
    before = server.run(ctx.store.version(ratings))
    table = server.run(ctx.cache.load(table_id))

    async def closed_again() -> None:  # the hook again (a retry): nothing more is written
        await ctx.table_closed(table)

    server.run(closed_again())
    assert server.run(ctx.store.version(ratings)) == before
    for md in signed:
        history = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md)
        assert [t.table_id for t in history.tables] == [table_id]


def test_an_anonymous_caller_cannot_sit_at_a_rated_table(server: ServerThread) -> None:
    request = svc.CreateTableRequest(variant="slovenian", players=4, rated=True)
    table_id = server.stub.CreateTable(request).table_id
    expect_error(
        lambda: server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id)),
        grpc.StatusCode.UNAUTHENTICATED,
        "SIGN_IN_REQUIRED",
    )
    listed = server.stub.ListTables(svc.ListTablesRequest(filter="variant = slovenian"))
    assert any(t.table_id == table_id and t.rated for t in listed.tables)


def test_a_player_who_handed_the_seat_to_a_bot_ranks_last() -> None:
    variant = find_variant("slovenian")
    created = commands.table_created(variant, 4, {}, 1, [])
    created.rated = True
    table = fold(None, "t", 1, created)
    table = replace(
        table,
        player_ids=("p0", "p1", "p2", ""),
        bots=("", "heuristic", "", "random"),
        match=replace(table.match, totals=(10, 70, -20, 5)),
    )
    names, record = outcome(table)
    assert names == ["p0", "p1", "p2", "seat:3"]
    assert record.scores == (10, -21, -20, 5)  # p1 left (a bot took over): below everyone
    rated = dict(zip(names, rate(names, [record]), strict=True))
    assert rated["p1"].mu < rated["p2"].mu < FIRST_RATING.mu < rated["p0"].mu


def test_a_table_whose_closing_hook_was_lost_is_recorded_when_its_players_read(
    server: ServerThread,
) -> None:
    """The replica that closed the table died before writing the players' histories (the
    hook never ran): each player's next read of their history records the table, rated
    once, and the leaderboard then holds them."""
    ctx = running(server.server).app.ctx
    hook = ctx.table_closed

    async def died(table: object) -> None:  # the closing append landed; nothing after it
        return None

    ctx.table_closed = died
    try:
        table_id, ids, tokens, signed = _rated_table(server, 3)
        play_out(server.stub, tokens, seed=11)
    finally:
        ctx.table_closed = hook
    board = ms.ListLeaderboardRequest(variant="slovenian", players=3)
    assert not {e.player_id for e in matches(server).ListLeaderboard(board).entries} & set(ids)
    ratings = logs.ratings_log("slovenian", 3)
    for md in signed:  # the first read mends; the others find the ratings already there
        [entry] = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=md).tables
        assert (entry.table_id, entry.rated) == (table_id, True)
    rated_entries = server.run(ctx.store.read(ratings, 0))
    assert [s.request_id for s in rated_entries].count(f"rated:{table_id}") == 1
    listed = {e.player_id for e in matches(server).ListLeaderboard(board).entries}
    assert set(ids) <= listed
    profile = matches(server).GetProfile(ms.GetProfileRequest(), metadata=signed[0])
    assert profile.tables == 1


def test_a_bot_token_plays_a_rated_table_and_stops_working_when_revoked(
    server: ServerThread,
) -> None:
    """A script's API token is its owner signed in: it sits at a rated table, plays its seat
    to the end, the owner's rating changes, and once revoked the token is refused."""
    owner, owner_md = sign_in(server.channel, "Bot owner")
    account = ps_grpc.PlayerServiceStub(server.channel)
    made = account.CreateApiToken(
        ps.CreateApiTokenRequest(name="rated-bot", scopes=["play"]), metadata=owner_md
    )
    bot_md: Metadata = (("authorization", f"Bearer {made.token}"),)
    request = svc.CreateTableRequest(variant="slovenian", players=3, hands=1, rated=True)
    table_id = server.stub.CreateTable(request).table_id
    signed: list[Metadata] = [bot_md]
    tokens = [
        server.stub.JoinTable(
            svc.JoinTableRequest(table_id=table_id, seat=0, name="rated-bot"), metadata=bot_md
        ).token
    ]
    for seat in (1, 2):
        _, md = sign_in(server.channel, f"guest{seat}")
        join = svc.JoinTableRequest(table_id=table_id, seat=seat, name=f"seat{seat}")
        tokens.append(server.stub.JoinTable(join, metadata=md).token)
        signed.append(md)
    rng, bot_moves = random.Random(7), 0
    while True:  # every seat's calls signed in as its player; seat 0 by the API token
        public = view(server.stub, tokens[1])
        if public.status != PLAYING:
            break
        turn = public.hand.turn
        mine = server.stub.GetTableView(
            svc.GetTableViewRequest(token=tokens[turn]), metadata=signed[turn]
        ).view
        move = svc.SubmitMoveRequest(token=tokens[turn], move_id=choose(mine, rng))
        server.stub.SubmitMove(move, metadata=signed[turn])
        bot_moves += turn == 0
    assert public.status == FINISHED and bot_moves > 0
    board = matches(server).ListLeaderboard(
        ms.ListLeaderboardRequest(variant="slovenian", players=3)
    )
    [entry] = [e for e in board.entries if e.player_id == owner]
    assert entry.rating.games == 1
    [played] = matches(server).ListHistory(ms.ListHistoryRequest(), metadata=bot_md).tables
    assert (played.table_id, played.seat, played.rated) == (table_id, 0, True)
    account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id=made.info.token_id), metadata=owner_md)
    expect_error(
        lambda: server.stub.GetTableView(svc.GetTableViewRequest(token=tokens[0]), metadata=bot_md),
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_REVOKED",
    )
