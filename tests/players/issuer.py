"""A local OIDC identity provider for the tests: a discovery document and a JWKS served over
HTTP on a loopback port, keys generated here (RS256, ES256, EdDSA), rotated on demand, and
tokens signed with them (or forged, for the bad cases)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

AUDIENCE = "tarok-test"


@dataclass
class Key:
    kid: str
    alg: str
    private: Any

    def public_jwk(self) -> dict[str, Any]:
        public = self.private.public_key()
        if self.alg == "RS256":
            jwk: dict[str, Any] = RSAAlgorithm.to_jwk(public, as_dict=True)
        elif self.alg == "ES256":
            jwk = ECAlgorithm.to_jwk(public, as_dict=True)
        else:
            jwk = OKPAlgorithm.to_jwk(public, as_dict=True)
        return {**jwk, "kid": self.kid, "use": "sig", "alg": self.alg}

    def public_pem(self) -> bytes:
        return bytes(
            self.private.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )


def new_key(alg: str, kid: str) -> Key:
    private: Any
    if alg == "RS256":
        private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    elif alg == "ES256":
        private = ec.generate_private_key(ec.SECP256R1())
    else:
        private = ed25519.Ed25519PrivateKey.generate()
    return Key(kid, alg, private)


@dataclass
class Issuer:
    """The provider: `url` is its issuer; `published` the keys its JWKS lists."""

    published: list[Key] = field(default_factory=list)
    jwks_fetches: int = 0
    url: str = ""
    _server: ThreadingHTTPServer | None = None
    _counter: int = 0

    def start(self) -> Issuer:
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body: dict[str, Any]
                if self.path == "/.well-known/openid-configuration":
                    body = {"issuer": issuer.url, "jwks_uri": f"{issuer.url}/jwks"}
                elif self.path == "/jwks":
                    issuer.jwks_fetches += 1
                    body = {"keys": [k.public_jwk() for k in issuer.published]}
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.published = [self.key("RS256"), self.key("ES256"), self.key("EdDSA")]
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def key(self, alg: str) -> Key:
        self._counter += 1
        return new_key(alg, f"{alg.lower()}-{self._counter}")

    def rotate(self) -> Key:
        """Publish a new RS256 key instead of every old one; the new key."""
        fresh = self.key("RS256")
        self.published = [fresh]
        return fresh

    def claims(self, subject: str, **changes: Any) -> dict[str, Any]:
        now = int(time.time())
        out: dict[str, Any] = {
            "iss": self.url,
            "aud": AUDIENCE,
            "sub": subject,
            "iat": now,
            "nbf": now - 5,
            "exp": now + 600,
            "name": f"User {subject}",
        }
        out.update(changes)
        return {k: v for k, v in out.items() if v is not None}

    def token(self, subject: str, key: Key | None = None, **changes: Any) -> str:
        """A token of `subject` signed with `key` (default: the first published key)."""
        key = key or self.published[0]
        return jwt.encode(
            self.claims(subject, **changes), key.private, key.alg, headers={"kid": key.kid}
        )


def forged(header: dict[str, Any], claims: dict[str, Any], secret: bytes | None) -> str:
    """A JWT put together by hand: HMAC-SHA256 with `secret`, or no signature at all."""

    def part(value: dict[str, Any]) -> str:
        raw = json.dumps(value, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    signing = f"{part(header)}.{part(claims)}"
    if secret is None:
        return f"{signing}."
    mac = hmac.new(secret, signing.encode(), hashlib.sha256).digest()
    return f"{signing}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def tampered(token: str) -> str:
    """The token with its payload changed (one claim), the signature kept."""
    head, body, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["sub"] = claims["sub"] + "x"
    raw = json.dumps(claims, separators=(",", ":")).encode()
    return f"{head}.{base64.urlsafe_b64encode(raw).rstrip(b'=').decode()}.{signature}"
