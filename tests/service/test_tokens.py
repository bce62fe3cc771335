"""Seat tokens: signed, verifiable by any holder of the secret, expiring, tamper-evident."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tarok_service.server import errors as e
from tarok_service.server.config import ServerConfig
from tarok_service.server.usecases.context import Context
from tarok_service.server.usecases.tokens import TokenSigner
from tarok_service.store import open_store

NOW = 1_700_000_000.0


def reason_of(signer: TokenSigner, token: str, now: float = NOW) -> str:
    with pytest.raises(e.ServiceError) as caught:
        signer.verify(token, now)
    assert caught.value.kind == e.UNAUTHENTICATED
    return caught.value.reason


def test_round_trip_for_seat_and_spectator() -> None:
    signer = TokenSigner(b"k", 60)
    token, expires = signer.issue("abc", 2, NOW)
    claim = TokenSigner(b"k", 999).verify(token, NOW + 59)  # another replica, same secret
    assert (claim.table_id, claim.seat, claim.expires) == ("abc", 2, expires)
    spectator, _ = signer.issue("abc", None, NOW)
    assert signer.verify(spectator, NOW).seat is None


def test_expired_token() -> None:
    signer = TokenSigner(b"k", 60)
    token, _ = signer.issue("abc", 0, NOW)
    assert reason_of(signer, token, NOW + 60) == e.TOKEN_EXPIRED


@pytest.mark.parametrize("bad", ["", "x", "abc.def", "....", "é.é"])
def test_garbage_is_rejected(bad: str) -> None:
    assert reason_of(TokenSigner(b"k", 60), bad) == e.BAD_TOKEN


def test_other_secret_or_tampering_is_rejected() -> None:
    token, _ = TokenSigner(b"k", 60).issue("abc", 0, NOW)
    assert reason_of(TokenSigner(b"other", 60), token) == e.BAD_TOKEN
    body, sig = token.split(".")
    forged, _ = TokenSigner(b"k", 60).issue("abc", 1, NOW)
    assert reason_of(TokenSigner(b"k", 60), forged.split(".")[0] + "." + sig) == e.BAD_TOKEN
    assert reason_of(TokenSigner(b"k", 60), body + "." + sig[:-2] + "AA") == e.BAD_TOKEN


def test_context_claim_remembers_only_the_same_token_until_it_expires() -> None:
    """The context answers a token it just verified without verifying again (a call's
    interceptor and its use case both ask), but never past expiry nor for another token."""
    now = [NOW]
    ctx = Context(open_store("memory:"), ServerConfig(secret=b"k"), clock=lambda: now[0])
    seat_token, expires = ctx.tokens.issue("abc", 2, NOW)
    other, _ = ctx.tokens.issue("xyz", None, NOW)
    assert ctx.claim(seat_token) == ctx.claim(seat_token)
    assert (ctx.claim(other).table_id, ctx.claim(other).seat) == ("xyz", None)
    assert (ctx.claim(seat_token).table_id, ctx.claim(seat_token).seat) == ("abc", 2)
    with pytest.raises(e.ServiceError) as caught:
        ctx.claim(seat_token[:-1] + ("A" if seat_token[-1] != "A" else "B"))
    assert caught.value.reason == e.BAD_TOKEN
    now[0] = expires
    with pytest.raises(e.ServiceError) as caught:
        ctx.claim(seat_token)
    assert caught.value.reason == e.TOKEN_EXPIRED


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a1b2-c3_d4", "a1b2-c3_d4"),
        ("x" * e.SHOWN, "x" * e.SHOWN),
        ("x" * (e.SHOWN + 1), "x" * e.SHOWN + "..."),
        ("tab\there", "tab\\x09here"),
        ("café", "caf\\xe9"),
        ("", ""),
    ],
)
def test_shown_quotes_client_input_safely(text: str, expected: str) -> None:
    assert e.shown(text) == expected


def test_the_claim_fastpath_agrees_with_the_verified_claim() -> None:
    """`claim` (the last claim remembered) answers what `verified_claim` answers, call after
    call, for the same token, other tokens, a forged one, and past expiry."""
    now = [NOW]
    ctx = Context(open_store("memory:"), ServerConfig(secret=b"k"), clock=lambda: now[0])
    seat_token, expires = ctx.tokens.issue("abc", 2, NOW)
    other, _ = ctx.tokens.issue("xyz", None, NOW)
    forged = seat_token[:-1] + ("A" if seat_token[-1] != "A" else "B")
    calls = [seat_token, seat_token, other, seat_token, forged, seat_token, "x" * 600]

    def outcome(ask: Callable[[str], object], token: str) -> object:
        try:
            return ask(token)
        except e.ServiceError as err:
            return err.reason

    for moment in (NOW, expires - 1, expires):
        now[0] = moment
        for token in calls:
            fast = outcome(ctx.claim, token)
            assert fast == outcome(lambda t: ctx.verified_claim(t, now[0]), token), token
