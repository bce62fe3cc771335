"""A local OIDC provider for the web table's browser test: discovery, JWKS, an authorization
endpoint that signs its one user in at once (no login page) and a token endpoint that checks
the PKCE verifier (S256), the client id and the redirect URI before it answers signed tokens.
Keys and tokens come from tests/players/issuer.py (PyJWT). Prints `issuer <url>` when ready;
runs until stdin closes. Loopback only."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.players.issuer import Issuer

CLIENT_ID = "tarok-web"
SUBJECT = "alice"


def main() -> None:
    issuer = Issuer()
    codes: dict[str, dict[str, str]] = {}
    stats = {"authorized": 0, "exchanged": 0, "refused": 0}

    class Handler(BaseHTTPRequestHandler):
        def answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("access-control-allow-origin", "*")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/.well-known/openid-configuration":
                self.answer(
                    200,
                    {
                        "issuer": issuer.url,
                        "jwks_uri": f"{issuer.url}/jwks",
                        "authorization_endpoint": f"{issuer.url}/authorize",
                        "token_endpoint": f"{issuer.url}/token",
                        "code_challenge_methods_supported": ["S256"],
                    },
                )
            elif url.path == "/jwks":
                self.answer(200, {"keys": [k.public_jwk() for k in issuer.published]})
            elif url.path == "/stats":
                self.answer(200, stats)
            elif url.path == "/authorize":
                ok = (
                    query.get("response_type") == "code"
                    and query.get("client_id") == CLIENT_ID
                    and query.get("code_challenge_method") == "S256"
                    and query.get("code_challenge")
                    and query.get("redirect_uri")
                    and query.get("state")
                )
                if not ok:
                    stats["refused"] += 1
                    self.answer(400, {"error": "invalid_request"})
                    return
                code = secrets.token_urlsafe(16)
                codes[code] = {k: query[k] for k in ("code_challenge", "redirect_uri", "client_id")}
                stats["authorized"] += 1
                self.send_response(302)
                self.send_header(
                    "location",
                    f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}",
                )
                self.end_headers()
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            if urlsplit(self.path).path != "/token":
                self.send_error(404)
                return
            grant = codes.pop(form.get("code", ""), None)
            verifier = form.get("code_verifier", "")
            challenge = (
                base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
                .rstrip(b"=")
                .decode()
            )
            if (
                grant is None
                or form.get("grant_type") != "authorization_code"
                or form.get("redirect_uri") != grant["redirect_uri"]
                or form.get("client_id") != grant["client_id"]
                or challenge != grant["code_challenge"]
            ):
                stats["refused"] += 1
                self.answer(400, {"error": "invalid_grant"})
                return
            stats["exchanged"] += 1
            token = issuer.token(SUBJECT, aud=CLIENT_ID, name="Alice")
            self.answer(
                200,
                {
                    "id_token": token,
                    "access_token": token,
                    "token_type": "Bearer",
                    "expires_in": 600,
                },
            )

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    issuer.url = f"http://127.0.0.1:{server.server_address[1]}"
    issuer.published = [issuer.key("RS256")]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"issuer {issuer.url}", flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
