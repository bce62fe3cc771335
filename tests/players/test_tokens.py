"""API tokens for bots, sessions and refresh, operators' suspensions and the audit trail -
revocation and suspension counted at once on every replica."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from ..service.harness import FINISHED, PLAYING, ServerThread, choose, config, create, expect_error
from .harness import PLAYERS, PORTS, TAROK, BearerStub, guest, stub

UNAUTH = grpc.StatusCode.UNAUTHENTICATED
OPERATOR_KEY = "op-key-1"


@pytest.mark.parametrize("port", PORTS)
def test_a_bot_token_plays_and_stops_working_when_revoked(server: ServerThread, port: str) -> None:
    owner = guest(server, port, name="Bot owner")
    account = stub(server, port, PLAYERS, owner.session_token)
    made = account.CreateApiToken(ps.CreateApiTokenRequest(name="my-bot", scopes=["play"]))
    assert made.token.startswith("tarok_api_") and list(made.info.scopes) == ["play"]
    listed = account.ListApiTokens(ps.ListApiTokensRequest()).tokens
    assert [(t.token_id, t.revoked) for t in listed] == [(made.info.token_id, False)]
    assert made.token not in str(listed)  # shown once: never listed
    bot = stub(server, port, TAROK, made.token)
    table_id = create(server.stub)
    seat = bot.JoinTable(svc.JoinTableRequest(table_id=table_id, name="bot")).token
    others = [
        server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id)).token for _ in range(3)
    ]
    tokens = [seat, *others]
    rng, bot_moves = random.Random(3), 0
    while True:  # the whole match, the bot's seat played with its API token
        public = server.stub.GetTableView(svc.GetTableViewRequest(token=others[0])).view
        if public.status != PLAYING:
            break
        turn = public.hand.turn
        caller = bot if turn == 0 else server.stub
        mine = caller.GetTableView(svc.GetTableViewRequest(token=tokens[turn])).view
        move = choose(mine, rng)
        caller.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=move))
        bot_moves += turn == 0
    assert public.status == FINISHED and bot_moves > 0
    account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id=made.info.token_id))
    expect_error(lambda: bot.Ping(svc.PingRequest()), UNAUTH, "TOKEN_REVOKED")
    expect_error(
        lambda: bot.GetTableView(svc.GetTableViewRequest(token=seat)), UNAUTH, "TOKEN_REVOKED"
    )
    listed = account.ListApiTokens(ps.ListApiTokensRequest()).tokens
    assert [(t.token_id, t.revoked) for t in listed] == [(made.info.token_id, True)]
    expect_error(
        lambda: account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id="000000000000")),
        grpc.StatusCode.NOT_FOUND,
        "TOKEN_NOT_FOUND",
    )


def test_api_token_scopes_and_bad_api_tokens(server: ServerThread) -> None:
    owner = guest(server)
    account = stub(server, "grpc", PLAYERS, owner.session_token)
    only_tournaments = account.CreateApiToken(
        ps.CreateApiTokenRequest(name="t", scopes=["tournaments"])
    ).token
    play_only = account.CreateApiToken(ps.CreateApiTokenRequest(name="p")).token
    table_id = create(server.stub)
    for call in (
        lambda: stub(server, "grpc", TAROK, only_tournaments).JoinTable(
            svc.JoinTableRequest(table_id=table_id)
        ),
        lambda: stub(server, "grpc", TAROK, only_tournaments).Ping(svc.PingRequest()),
        lambda: BearerStub(ts_grpc.TournamentServiceStub(server.channel), play_only).GetTournament(
            ts.GetTournamentRequest(tournament_id="nope")
        ),
    ):
        expect_error(call, grpc.StatusCode.PERMISSION_DENIED, "SCOPE_DENIED")
    # each token is fine where its scope is, and for its own player
    stub(server, "grpc", TAROK, play_only).Ping(svc.PingRequest())
    expect_error(
        lambda: BearerStub(
            ts_grpc.TournamentServiceStub(server.channel), only_tournaments
        ).GetTournament(ts.GetTournamentRequest(tournament_id="nope")),
        grpc.StatusCode.NOT_FOUND,
        "TOURNAMENT_NOT_FOUND",
    )
    assert stub(server, "grpc", PLAYERS, only_tournaments).GetMe(ps.GetMeRequest()).player
    expect_error(
        lambda: account.CreateApiToken(ps.CreateApiTokenRequest(scopes=["admin"])),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_FIELD",
    )
    # an API token cannot make more API tokens
    full = account.CreateApiToken(ps.CreateApiTokenRequest(name="full")).token
    expect_error(
        lambda: stub(server, "grpc", PLAYERS, full).CreateApiToken(ps.CreateApiTokenRequest()),
        grpc.StatusCode.PERMISSION_DENIED,
        "SCOPE_DENIED",
    )
    # another secret with a real player and token id, and nonsense
    forged = full[:-43] + "A" * 43
    for bad in (forged, "tarok_api_nonsense"):
        expect_error(
            lambda: stub(server, "grpc", TAROK, bad).Ping(svc.PingRequest()),  # noqa: B023
            UNAUTH,
            "BAD_TOKEN",
        )


@pytest.mark.parametrize("port", PORTS)
def test_sessions_refresh_and_are_not_interchangeable(server: ServerThread, port: str) -> None:
    session = guest(server, port)
    players = stub(server, port, PLAYERS)
    refreshed = players.RefreshSession(
        ps.RefreshSessionRequest(refresh_token=session.refresh_token)
    ).session
    assert refreshed.player.player_id == session.player.player_id
    assert refreshed.session_expires.seconds >= session.session_expires.seconds
    assert (refreshed.refresh_token and refreshed.session_token != session.session_token) or (
        refreshed.session_expires == session.session_expires  # issued in the same second
    )
    # a refresh token is no bearer token, a session token no refresh token
    expect_error(
        lambda: stub(server, port, PLAYERS, session.refresh_token).GetMe(ps.GetMeRequest()),
        UNAUTH,
        "BAD_TOKEN",
    )
    expect_error(
        lambda: players.RefreshSession(
            ps.RefreshSessionRequest(refresh_token=session.session_token)
        ),
        UNAUTH,
        "BAD_TOKEN",
    )
    expect_error(
        lambda: players.SignInGuest(ps.SignInGuestRequest(device_secret="short")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_FIELD",
        field="device_secret",
    )


def test_a_session_expires(tmp_path: Path) -> None:
    now = [1_800_000_000.0]
    running = ServerThread(config(store_url=f"sqlite:///{tmp_path / 'a.db'}"))
    try:
        running.run(_set_clock(running, lambda: now[0]))
        session = guest(running)
        players = stub(running, "grpc", PLAYERS, session.session_token)
        assert players.GetMe(ps.GetMeRequest()).player.player_id == session.player.player_id
        now[0] += running.config.session_ttl_seconds + 1
        expect_error(lambda: players.GetMe(ps.GetMeRequest()), UNAUTH, "TOKEN_EXPIRED")
        fresh = (
            stub(running, "grpc", PLAYERS)
            .RefreshSession(ps.RefreshSessionRequest(refresh_token=session.refresh_token))
            .session
        )
        assert stub(running, "grpc", PLAYERS, fresh.session_token).GetMe(ps.GetMeRequest())
    finally:
        running.stop()


async def _set_clock(running: ServerThread, clock: object) -> None:
    from tarok_service.server.main import running as state

    state(running.server).app.ctx.clock = clock  # type: ignore[assignment]


@pytest.fixture
def replicas(tmp_path: Path) -> Iterator[tuple[ServerThread, ServerThread]]:
    url = f"sqlite:///{tmp_path / 'events.db'}"
    first = ServerThread(config(store_url=url, operator_key=OPERATOR_KEY))
    second = ServerThread(config(store_url=url, operator_key=OPERATOR_KEY))
    yield first, second
    first.stop()
    second.stop()


def test_suspension_and_revocation_count_at_once_on_every_replica(
    replicas: tuple[ServerThread, ServerThread],
) -> None:
    a, b = replicas
    session = guest(a)
    pid = session.player.player_id
    api = (
        stub(a, "grpc", PLAYERS, session.session_token)
        .CreateApiToken(ps.CreateApiTokenRequest(name="bot"))
        .token
    )
    on_b = stub(b, "grpc", PLAYERS, session.session_token)
    assert on_b.GetMe(ps.GetMeRequest()).player.player_id == pid  # any replica serves it
    assert stub(b, "grpc", PLAYERS, api).GetMe(ps.GetMeRequest()).player.player_id == pid
    # suspended on replica A: refused on B at once, every kind of token
    operators = stub(a, "grpc", PLAYERS)
    suspended = operators.SuspendPlayer(
        ps.SuspendPlayerRequest(operator_key=OPERATOR_KEY, player_id=pid, reason="cheating")
    )
    assert suspended.player.suspended
    for token in (session.session_token, api):
        for replica in (a, b):
            expect_error(
                lambda: stub(replica, "grpc", TAROK, token).Ping(svc.PingRequest()),  # noqa: B023
                UNAUTH,
                "PLAYER_SUSPENDED",
            )
    expect_error(
        lambda: stub(b, "grpc", PLAYERS).RefreshSession(
            ps.RefreshSessionRequest(refresh_token=session.refresh_token)
        ),
        UNAUTH,
        "PLAYER_SUSPENDED",
    )
    # lifted on B: works on A again
    stub(b, "grpc", PLAYERS).SuspendPlayer(
        ps.SuspendPlayerRequest(operator_key=OPERATOR_KEY, player_id=pid, reinstate=True)
    )
    assert stub(a, "grpc", PLAYERS, api).GetMe(ps.GetMeRequest()).player.player_id == pid
    # revoked on A: refused on B at once
    account = stub(a, "grpc", PLAYERS, session.session_token)
    token_id = account.ListApiTokens(ps.ListApiTokensRequest()).tokens[0].token_id
    account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id=token_id))
    expect_error(
        lambda: stub(b, "grpc", TAROK, api).Ping(svc.PingRequest()), UNAUTH, "TOKEN_REVOKED"
    )
    # the audit trail: each action once, paged
    audit = stub(b, "grpc", PLAYERS)
    first = audit.ListAuditEvents(ps.ListAuditEventsRequest(operator_key=OPERATOR_KEY, page_size=1))
    assert [(x.action, x.player_id, x.reason) for x in first.events] == [
        ("suspend", pid, "cheating")
    ]
    rest = audit.ListAuditEvents(
        ps.ListAuditEventsRequest(operator_key=OPERATOR_KEY, page_token=first.next_page_token)
    )
    assert [(x.action, x.player_id) for x in rest.events] == [("reinstate", pid)]
    assert not rest.next_page_token
    assert OPERATOR_KEY not in str(first) + str(rest)


@pytest.mark.parametrize("port", PORTS)
def test_operator_calls_need_the_operator_key(server: ServerThread, port: str) -> None:
    players = stub(server, port, PLAYERS)
    pid = guest(server, port).player.player_id
    expect_error(
        lambda: players.SuspendPlayer(ps.SuspendPlayerRequest(player_id=pid)),
        UNAUTH,
        "OPERATOR_KEY_REQUIRED",
    )
    expect_error(
        lambda: players.SuspendPlayer(ps.SuspendPlayerRequest(operator_key="no", player_id=pid)),
        UNAUTH,
        "BAD_OPERATOR_KEY",
    )
    expect_error(
        lambda: players.ListAuditEvents(ps.ListAuditEventsRequest(operator_key="no")),
        UNAUTH,
        "BAD_OPERATOR_KEY",
    )
    expect_error(
        lambda: players.SuspendPlayer(
            ps.SuspendPlayerRequest(operator_key=OPERATOR_KEY, player_id="0" * 18)
        ),
        grpc.StatusCode.NOT_FOUND,
        "PLAYER_NOT_FOUND",
    )
    # suspended: its session refused on this port too, lifted: accepted again
    victim = guest(server, port)
    suspend = ps.SuspendPlayerRequest(operator_key=OPERATOR_KEY, player_id=victim.player.player_id)
    players.SuspendPlayer(suspend)
    tarok = stub(server, port, TAROK, victim.session_token)
    expect_error(lambda: tarok.Ping(svc.PingRequest()), UNAUTH, "PLAYER_SUSPENDED")
    suspend.reinstate = True
    players.SuspendPlayer(suspend)
    tarok.Ping(svc.PingRequest())
    # a player's session does not make it an operator
    session = guest(server, port).session_token
    expect_error(
        lambda: stub(server, port, PLAYERS, session).SuspendPlayer(
            ps.SuspendPlayerRequest(player_id=pid)
        ),
        UNAUTH,
        "OPERATOR_KEY_REQUIRED",
    )


@pytest.mark.postgres
def test_suspension_and_revocation_across_replicas_on_postgresql(postgres_dsn: str) -> None:
    a = ServerThread(config(store_url=postgres_dsn, operator_key=OPERATOR_KEY))
    b = ServerThread(config(store_url=postgres_dsn, operator_key=OPERATOR_KEY))
    try:
        session = guest(a)
        pid = session.player.player_id
        account = stub(a, "grpc", PLAYERS, session.session_token)
        made = account.CreateApiToken(ps.CreateApiTokenRequest(name="bot"))
        assert stub(b, "grpc", PLAYERS, made.token).GetMe(ps.GetMeRequest()).player.player_id == (
            pid
        )
        account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id=made.info.token_id))
        expect_error(
            lambda: stub(b, "grpc", TAROK, made.token).Ping(svc.PingRequest()),
            UNAUTH,
            "TOKEN_REVOKED",
        )
        on_b = stub(b, "grpc", TAROK, session.session_token)
        on_b.Ping(svc.PingRequest())
        stub(a, "grpc", PLAYERS).SuspendPlayer(
            ps.SuspendPlayerRequest(operator_key=OPERATOR_KEY, player_id=pid)
        )
        expect_error(lambda: on_b.Ping(svc.PingRequest()), UNAUTH, "PLAYER_SUSPENDED")
    finally:
        a.stop()
        b.stop()


def test_a_player_holds_a_bounded_number_of_live_api_tokens(server: ServerThread) -> None:
    account = stub(server, "grpc", PLAYERS, guest(server).session_token)
    limit = server.config.max_api_tokens
    made = [account.CreateApiToken(ps.CreateApiTokenRequest(name=f"t{i}")) for i in range(limit)]
    expect_error(
        lambda: account.CreateApiToken(ps.CreateApiTokenRequest(name="one more")),
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "TOO_MANY_TOKENS",
    )
    account.RevokeApiToken(ps.RevokeApiTokenRequest(token_id=made[0].info.token_id))
    assert account.CreateApiToken(ps.CreateApiTokenRequest(name="instead")).token
