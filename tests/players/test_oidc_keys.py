"""The identity provider's keys: cached, fetched again on an unknown kid at most once per
`jwks_min_refetch_seconds`, and after `jwks_cache_seconds`; an unreachable provider is
UNAVAILABLE, a key that does not fit the token's algorithm BAD_TOKEN."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import jwt
import pytest

from tarok_service.server import errors as e
from tarok_service.server.config import OidcIssuer, ServerConfig
from tarok_service.server.players.oidc import Oidc

from .issuer import AUDIENCE, Issuer, Key, new_key

ISSUER = "https://idp.example.test"


class Provider:
    """The documents an issuer serves, without a network: counts JWKS fetches."""

    def __init__(self, keys: list[Key]) -> None:
        self.keys = keys
        self.fetches = 0
        self.down = False
        self.named = ISSUER

    async def fetch(self, url: str) -> Any:
        if self.down:
            raise OSError("connection refused")
        if url == f"{ISSUER}/.well-known/openid-configuration":
            return {"issuer": self.named, "jwks_uri": f"{ISSUER}/keys"}
        assert url == f"{ISSUER}/keys"
        self.fetches += 1
        return {"keys": [k.public_jwk() for k in self.keys]}


def make(provider: Provider, now: list[float]) -> Oidc:
    config = ServerConfig(
        oidc_issuers=(OidcIssuer(ISSUER, AUDIENCE),),
        jwks_cache_seconds=3600.0,
        jwks_min_refetch_seconds=30.0,
    )
    return Oidc(config, fetch=provider.fetch, monotonic=lambda: now[0])


def token(key: Key, subject: str = "u", alg: str | None = None) -> str:
    claims = Issuer(url=ISSUER).claims(subject)
    headers = {"kid": key.kid}
    if alg is None:
        return jwt.encode(claims, key.private, key.alg, headers=headers)
    signed = jwt.encode(claims, key.private, key.alg, headers=headers)
    head = {"alg": alg, "kid": key.kid, "typ": "JWT"}
    raw = base64.urlsafe_b64encode(json.dumps(head).encode()).rstrip(b"=").decode()
    return raw + signed[signed.index(".") :]


def reason(call: Any) -> str:
    with pytest.raises(e.ServiceError) as caught:
        asyncio.run(call)
    return caught.value.reason


def test_unknown_kids_refetch_at_most_once_per_interval() -> None:
    first, later = new_key("RS256", "k1"), new_key("ES256", "k2")
    provider, now = Provider([first]), [1000.0]
    oidc = make(provider, now)

    async def run() -> None:
        assert (await oidc.verify(token(first, "a"))).subject == "a"
        assert provider.fetches == 1
        unknown = new_key("RS256", "nobody")
        for _ in range(5):  # a flood of unknown kids: one fetch, then refused from cache
            with pytest.raises(e.ServiceError) as caught:
                await oidc.verify(token(unknown, "x"))
            assert caught.value.reason == e.UNKNOWN_KEY
        assert provider.fetches == 1  # fetched just now: not again within 30 s
        provider.keys = [first, later]  # rotation: a new key published
        with pytest.raises(e.ServiceError):
            await oidc.verify(token(later, "b"))  # still within the interval
        now[0] += 31
        assert (await oidc.verify(token(later, "b"))).subject == "b"
        assert provider.fetches == 2
        now[0] += 3600  # the cache's age: fetched again for a known kid too
        await oidc.verify(token(first, "c"))
        assert provider.fetches == 3

    asyncio.run(run())


def test_an_unreachable_or_wrong_provider_is_unavailable() -> None:
    key = new_key("EdDSA", "k1")
    provider, now = Provider([key]), [0.0]
    provider.down = True
    assert reason(make(provider, now).verify(token(key))) == e.IDP_UNAVAILABLE
    provider.down, provider.named = False, "https://someone-else.test"
    assert reason(make(provider, now).verify(token(key))) == e.IDP_UNAVAILABLE


def test_a_key_must_fit_the_tokens_algorithm() -> None:
    rsa = new_key("RS256", "k1")
    provider, now = Provider([rsa]), [0.0]
    oidc = make(provider, now)
    assert reason(oidc.verify(token(rsa, alg="ES256"))) == e.BAD_TOKEN
    assert reason(oidc.verify(token(rsa, alg="RS384"))) == e.BAD_TOKEN  # not allowed at all
    assert reason(oidc.verify(token(rsa, alg="PS256"))) == e.BAD_TOKEN
