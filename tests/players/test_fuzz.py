"""Whatever a bearer token holds, it is refused UNAUTHENTICATED - never a crash, never
anonymous - and the header is parsed the same way."""

from __future__ import annotations

import base64
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarok_service.server import errors as e
from tarok_service.server.main import running
from tarok_service.server.transport.principal import bearer_of

from ..service.harness import ServerThread


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


jwt_like = st.builds(
    lambda h, p, s: f"{b64(json.dumps(h).encode())}.{b64(json.dumps(p).encode())}.{b64(s)}",
    st.dictionaries(st.sampled_from(["alg", "kid", "typ"]), st.text(max_size=8), max_size=3),
    st.dictionaries(st.sampled_from(["iss", "sub", "aud", "exp"]), st.text(max_size=8)),
    st.binary(max_size=64),
)
tokens = st.one_of(
    st.text(min_size=1, max_size=200),
    st.text(alphabet="abcdefABCDEF0123456789_-.", min_size=1, max_size=120),
    st.builds(lambda t: "tarok_api_" + t, st.text(max_size=100)),
    jwt_like,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(token=tokens)
def test_any_token_is_refused_unauthenticated(server: ServerThread, token: str) -> None:
    authenticate = running(server.server).app.ctx.authenticate

    async def attempt() -> str:
        try:
            await authenticate(token)
        except e.ServiceError as err:
            return err.kind
        return "accepted"

    assert server.run(attempt()) == e.UNAUTHENTICATED


@given(value=st.text(max_size=50))
def test_an_authorization_header_is_one_bearer_token_or_refused(value: str) -> None:
    try:
        found = bearer_of([("authorization", value)])
    except e.ServiceError as err:
        assert err.reason == e.BAD_TOKEN
    else:
        assert value.lower().startswith("bearer ") and found == value[7:].strip() and found
