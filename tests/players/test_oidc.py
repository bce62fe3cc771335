"""Bring your own identity provider: a local OIDC issuer (discovery and JWKS over HTTP on
loopback, keys made here and rotated mid-test) signs users in; every bad token is refused
UNAUTHENTICATED with its reason on the gRPC port and on the HTTP port."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.config import OidcIssuer

from ..service.harness import ServerThread, config, create, expect_error
from .harness import PLAYERS, PORTS, TAROK, guest, stub
from .issuer import AUDIENCE, Issuer, forged, new_key, tampered

UNAUTH = grpc.StatusCode.UNAUTHENTICATED


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    running = Issuer().start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def server(issuer: Issuer) -> Iterator[ServerThread]:
    running = ServerThread(
        config(
            http_port=0,
            http_host="127.0.0.1",
            oidc_issuers=(OidcIssuer(issuer.url, AUDIENCE),),
            jwks_min_refetch_seconds=0.0,
        )
    )
    yield running
    running.stop()


def me(server: ServerThread, port: str, token: str) -> ps.Player:
    player: ps.Player = stub(server, port, PLAYERS, token).GetMe(ps.GetMeRequest()).player
    return player


@pytest.mark.parametrize("port", PORTS)
def test_an_issuers_subject_is_one_player(server: ServerThread, issuer: Issuer, port: str) -> None:
    subject = f"alice-{port}"
    # every algorithm the server takes
    tokens = [issuer.token(subject, key) for key in issuer.published]
    players = {me(server, port, token).player_id for token in tokens}
    assert len(players) == 1
    (player_id,) = players
    # SignIn answers a session of the same player
    signed = stub(server, port, PLAYERS).SignIn(ps.SignInRequest(id_token=tokens[0])).session
    assert signed.player.player_id == player_id and not signed.created
    assert [(i.issuer, i.subject) for i in signed.player.identities] == [(issuer.url, subject)]
    assert me(server, port, signed.session_token).player_id == player_id
    # a new session from the refresh token
    refreshed = stub(server, port, PLAYERS).RefreshSession(
        ps.RefreshSessionRequest(refresh_token=signed.refresh_token)
    )
    assert refreshed.session.player.player_id == player_id
    other = issuer.token(f"bob-{port}")
    assert me(server, port, other).player_id != player_id


def test_keys_rotated_mid_test_are_fetched_again(server: ServerThread, issuer: Issuer) -> None:
    before = issuer.token("rotating")
    player_id = me(server, "grpc", before).player_id
    fetches = issuer.jwks_fetches
    fresh = issuer.rotate()
    after = issuer.token("rotating", fresh)
    assert me(server, "connect-json", after).player_id == player_id
    assert issuer.jwks_fetches == fetches + 1  # the unknown kid made the server fetch again
    # a key no longer published: refused once its tokens are new to the server
    gone = issuer.key("RS256")
    expect_error(lambda: me(server, "grpc", issuer.token("rotating", gone)), UNAUTH, "UNKNOWN_KEY")


def bad_tokens(issuer: Issuer) -> list[tuple[str, str, str]]:
    """(what, token, reason) for every token problem an identity provider token can have."""
    key = issuer.published[0]
    now = int(time.time())
    good = issuer.token("mallory", key)
    stranger = new_key("RS256", "never-published")
    other_issuer = issuer.claims("mallory", iss="http://127.0.0.1:1/other")
    return [
        ("expired", issuer.token("mallory", key, exp=now - 300, nbf=now - 900), "TOKEN_EXPIRED"),
        ("not yet valid", issuer.token("mallory", key, nbf=now + 600), "TOKEN_EXPIRED"),
        ("wrong issuer", issuer.token("mallory", key, iss=other_issuer["iss"]), "WRONG_ISSUER"),
        ("wrong audience", issuer.token("mallory", key, aud="someone-else"), "WRONG_AUDIENCE"),
        ("unknown kid", issuer.token("mallory", stranger), "UNKNOWN_KEY"),
        (
            "alg none",
            forged({"alg": "none", "kid": key.kid}, issuer.claims("mallory"), None),
            "BAD_TOKEN",
        ),
        (
            "HMAC with the public key",
            forged({"alg": "HS256", "kid": key.kid}, issuer.claims("mallory"), key.public_pem()),
            "BAD_TOKEN",
        ),
        ("tampered", tampered(good), "BAD_TOKEN"),
        ("no subject", issuer.token("mallory", key, sub=None), "BAD_TOKEN"),
        ("no expiry", issuer.token("mallory", key, exp=None), "BAD_TOKEN"),
        ("garbage", "a.b.c", "BAD_TOKEN"),
    ]


@pytest.mark.parametrize("port", PORTS)
def test_every_bad_token_is_refused_with_its_reason(
    server: ServerThread, issuer: Issuer, port: str
) -> None:
    table_id = create(server.stub)
    spectator = server.stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True))
    for what, token, reason in bad_tokens(issuer):
        tarok = stub(server, port, TAROK, token)
        got = expect_refused(lambda: tarok.Ping(svc.PingRequest()), reason, what)  # noqa: B023
        assert got == reason
        watch = tarok.WatchTable(svc.WatchTableRequest(token=spectator.token))
        expect_refused(lambda: next(iter(watch)), reason, what)  # noqa: B023
        players = stub(server, port, PLAYERS)
        expect_refused(
            lambda: players.SignIn(ps.SignInRequest(id_token=token)),  # noqa: B023
            reason,
            what,
        )


def expect_refused(call: Any, reason: str, what: str) -> str:
    try:
        expect_error(call, UNAUTH, reason)
    except AssertionError as failed:
        raise AssertionError(f"{what}: {failed}") from None
    return reason


@pytest.mark.parametrize("port", PORTS)
def test_a_guest_links_an_account_and_keeps_its_player(
    server: ServerThread, issuer: Issuer, port: str
) -> None:
    session = guest(server, port)
    pid = session.player.player_id
    tarok = stub(server, port, TAROK, session.session_token)
    table_id = create(server.stub)
    seat = tarok.JoinTable(svc.JoinTableRequest(table_id=table_id)).seat
    subject = f"linker-{port}"
    players = stub(server, port, PLAYERS, session.session_token)
    linked = players.LinkIdentity(ps.LinkIdentityRequest(id_token=issuer.token(subject)))
    assert linked.player.player_id == pid and not linked.player.guest
    # the account now signs in as the guest's player, and finds its seat
    token = issuer.token(subject)
    assert me(server, port, token).player_id == pid
    mine = stub(server, port, PLAYERS, token).ListMyTables(ps.ListMyTablesRequest())
    assert [(t.table_id, t.seat) for t in mine.tables] == [(table_id, seat)]
    again = stub(server, port, TAROK, token).RejoinTable(svc.RejoinTableRequest(table_id=table_id))
    assert again.seat == seat
    # an account that is another player's cannot be linked
    someone = issuer.token(f"someone-{port}")
    me(server, port, someone)
    expect_error(
        lambda: players.LinkIdentity(ps.LinkIdentityRequest(id_token=someone)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "IDENTITY_TAKEN",
    )


def test_a_provider_name_the_server_would_not_take_is_not_an_error(
    server: ServerThread, issuer: Issuer
) -> None:
    odd = me(server, "grpc", issuer.token("odd-name", name="line\nbreak"))
    assert odd.display_name == "Player"
    named = me(server, "grpc", issuer.token("named", name="  Ana Novak  "))
    assert named.display_name == "Ana Novak"
