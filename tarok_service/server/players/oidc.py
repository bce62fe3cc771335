"""Identity provider tokens (OIDC / JWT) from configured issuers, verified with PyJWT.

For each configured issuer the server fetches its discovery document
(`<issuer>/.well-known/openid-configuration`) and the JWKS its `jwks_uri` names, over HTTP,
and keeps the keys for `jwks_cache_seconds`. A token is accepted when, in this order:

1. its header names an allowed algorithm: RS256, ES256 or EdDSA (so `alg: none` and any
   HMAC algorithm - a public key used as an HMAC secret - are refused before anything else);
2. its (unverified) `iss` is a configured issuer, exactly (WRONG_ISSUER otherwise);
3. its `kid` is one of the issuer's keys; an unknown kid makes the server fetch the keys
   again (key rotation), at most once per `jwks_min_refetch_seconds` per issuer, and is
   UNKNOWN_KEY if still unknown; the key's own type must fit the algorithm;
4. PyJWT verifies the signature with that key and that algorithm only, `iss`, `aud` (the
   issuer's configured audience), `exp` and `nbf` with `oidc_clock_skew_seconds` of leeway,
   and that `exp`, `iss`, `aud` and `sub` are present.

Everything else is BAD_TOKEN; a fetch that fails is UNAVAILABLE IDP_UNAVAILABLE. Verified
tokens are remembered by their SHA-256 until they expire (bounded), so a bearer token is
checked once per replica; the player's suspension is still read on every call.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import urllib.request
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jwt

from .. import errors as e
from ..config import OidcIssuer, ServerConfig

ALGORITHMS = ("RS256", "ES256", "EdDSA")
DISCOVERY = "/.well-known/openid-configuration"
FETCH_TIMEOUT = 5.0
MAX_DOCUMENT = 1 << 20  # bytes of a discovery document or a JWKS
MAX_SUBJECT = 255
VERIFIED_ENTRIES = 10_000

Fetch = Callable[[str], Awaitable[Any]]


@dataclass(frozen=True)
class Identity:
    """A verified identity provider token: who it names, and what it says about them."""

    issuer: str
    subject: str
    expires: float
    name: str = ""


def _get_json(url: str) -> Any:
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"not an HTTP URL: {url!r}")
    request = urllib.request.Request(url, headers={"accept": "application/json"})
    with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as answer:
        body = answer.read(MAX_DOCUMENT + 1)
    if len(body) > MAX_DOCUMENT:
        raise ValueError(f"{url}: document over {MAX_DOCUMENT} bytes")
    return json.loads(body)


async def fetch_json(url: str) -> Any:
    """A JSON document over HTTP(S), off the event loop, bounded in time and size."""
    return await asyncio.to_thread(_get_json, url)


@dataclass
class IssuerKeys:
    """One issuer's keys (by kid), fetched when first needed and again when stale or when a
    token names a kid not among them (rate-limited)."""

    config: OidcIssuer
    keys: dict[str, jwt.PyJWK] = field(default_factory=dict)
    fetched: float | None = None  # when the keys were fetched last (monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    fetches: int = 0


class Oidc:
    """Verifies identity provider tokens of the configured issuers."""

    def __init__(
        self,
        config: ServerConfig,
        clock: Callable[[], float] = time.time,
        fetch: Fetch = fetch_json,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.skew = config.oidc_clock_skew_seconds
        self.cache_seconds = config.jwks_cache_seconds
        self.min_refetch = config.jwks_min_refetch_seconds
        self.clock = clock
        self.monotonic = monotonic
        self.fetch = fetch
        self.issuers = {i.issuer: IssuerKeys(i) for i in config.oidc_issuers}
        self._verified: OrderedDict[bytes, Identity] = OrderedDict()

    @property
    def configured(self) -> bool:
        return bool(self.issuers)

    async def verify(self, token: str) -> Identity:
        """The identity a token names; UNAUTHENTICATED with its reason otherwise."""
        digest = hashlib.sha256(token.encode()).digest()  # tokens are long: keep 32 bytes
        known = self._verified.get(digest)
        if known is not None and self.clock() < known.expires + self.skew:
            self._verified.move_to_end(digest)
            return known
        found = await self._verify(token)
        self._verified[digest] = found
        while len(self._verified) > VERIFIED_ENTRIES:
            self._verified.popitem(last=False)
        return found

    async def _verify(self, token: str) -> Identity:
        try:
            header = jwt.get_unverified_header(token)
            unverified = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            raise _bad("not a JWT") from None
        alg = header.get("alg")
        if alg not in ALGORITHMS:
            raise _bad(f"JWTs signed with {', '.join(ALGORITHMS)} only")
        issuer = unverified.get("iss")
        keys = self.issuers.get(issuer) if isinstance(issuer, str) else None
        if keys is None:
            raise _wrong_issuer()
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise _bad("the token names no key (kid)")
        key = await self._key(keys, kid)
        if key.algorithm_name != alg:
            raise _bad("the token's algorithm does not fit its key")
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=[alg],
                audience=keys.config.audience,
                issuer=keys.config.issuer,
                leeway=self.skew,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except (jwt.ExpiredSignatureError, jwt.ImmatureSignatureError):
            raise e.ServiceError(
                e.UNAUTHENTICATED, e.TOKEN_EXPIRED, "the token has expired (or is not valid yet)"
            ) from None
        except jwt.InvalidAudienceError:
            raise e.ServiceError(
                e.UNAUTHENTICATED, e.WRONG_AUDIENCE, "the token is for another audience"
            ) from None
        except jwt.InvalidIssuerError:
            raise _wrong_issuer() from None
        except jwt.PyJWTError:
            raise _bad("the token's signature or claims are not valid") from None
        subject = claims.get("sub")
        if not isinstance(subject, str) or not 0 < len(subject) <= MAX_SUBJECT:
            raise _bad("the token's subject is missing or too long")
        name = claims.get("name") or claims.get("preferred_username") or ""
        shown = name if isinstance(name, str) else ""
        return Identity(keys.config.issuer, subject, float(claims["exp"]), shown)

    async def _key(self, keys: IssuerKeys, kid: str) -> jwt.PyJWK:
        now = self.monotonic()
        stale = keys.fetched is None or now - keys.fetched >= self.cache_seconds
        if kid in keys.keys and not stale:
            return keys.keys[kid]
        async with keys.lock:  # one fetch at a time per issuer; the others wait for it
            now = self.monotonic()
            recent = keys.fetched is not None and now - keys.fetched < self.min_refetch
            stale = keys.fetched is None or now - keys.fetched >= self.cache_seconds
            if (kid not in keys.keys and not recent) or stale:
                keys.keys = await self._fetch_keys(keys.config)
                keys.fetched = self.monotonic()
                keys.fetches += 1
        found = keys.keys.get(kid)
        if found is None:
            raise e.ServiceError(
                e.UNAUTHENTICATED,
                e.UNKNOWN_KEY,
                "the token's key (kid) is not one its issuer publishes",
            )
        return found

    async def _fetch_keys(self, issuer: OidcIssuer) -> dict[str, jwt.PyJWK]:
        try:
            discovery = await self.fetch(issuer.issuer.rstrip("/") + DISCOVERY)
            if not isinstance(discovery, Mapping) or discovery.get("issuer") != issuer.issuer:
                raise ValueError("the discovery document names another issuer")
            jwks = await self.fetch(str(discovery["jwks_uri"]))
            listed = jwks["keys"] if isinstance(jwks, Mapping) else None
            if not isinstance(listed, list):
                raise ValueError("the JWKS holds no key list")
        except Exception as exc:  # network, HTTP, JSON: the provider cannot be reached
            raise e.ServiceError(
                e.UNAVAILABLE,
                e.IDP_UNAVAILABLE,
                "the identity provider's keys could not be fetched: try again",
                {"issuer": e.shown(issuer.issuer)},
            ) from exc
        out: dict[str, jwt.PyJWK] = {}
        for item in listed:
            if not isinstance(item, Mapping) or not isinstance(item.get("kid"), str):
                continue
            if item.get("use", "sig") != "sig":
                continue
            try:
                key = jwt.PyJWK(dict(item))
            except jwt.PyJWTError:
                continue  # a key of a type or algorithm this server does not take
            if key.algorithm_name in ALGORITHMS:
                out[item["kid"]] = key
        return out


def _wrong_issuer() -> e.ServiceError:
    return e.ServiceError(
        e.UNAUTHENTICATED, e.WRONG_ISSUER, "the token's issuer is not one this server trusts"
    )


def _bad(message: str) -> e.ServiceError:
    return e.ServiceError(e.UNAUTHENTICATED, e.BAD_TOKEN, message)
