"""Seat tokens: signed, verifiable by any holder of the secret, expiring, tamper-evident."""

from __future__ import annotations

import pytest

from tarok_service.server import errors as e
from tarok_service.server.tokens import TokenSigner

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
