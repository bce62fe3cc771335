"""The Python SDK signed in: bearer tokens on every call, streams included, and a refresh
after the session expired."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from tarok_client import connect
from tarok_client.sdk import TarokError

from tarok_service.server.main import running

from ..service.harness import ServerThread, config


def test_the_sdk_signs_in_refreshes_and_watches_as_its_player(tmp_path: Path) -> None:
    now = [1_800_000_000.0]
    server = ServerThread(config(store_url=f"sqlite:///{tmp_path / 'sdk.db'}"))
    try:
        running(server.server).app.ctx.clock = lambda: now[0]
        with connect(server.target) as client:
            session = client.sign_in_guest(secrets.token_hex(16), display_name="Ana")
            assert client.me().player_id == session.player.player_id
            table = client.create("slovenian", players=4)
            seat = client.join(table, name="Ana")
            first = next(iter(seat.watch()))  # a stream with the bearer token
            assert first.WhichOneof("item") == "view"
            now[0] += server.config.session_ttl_seconds + 1
            with pytest.raises(TarokError) as expired:
                client.me()
            assert expired.value.reason == "TOKEN_EXPIRED"
            fresh = client.refresh()  # sent without the expired bearer
            assert fresh.player.player_id == session.player.player_id
            assert [t.table_id for t in client.my_tables()] == [table]
        with connect(server.target, bearer="not-a-token") as bad:
            with pytest.raises(TarokError) as refused:
                bad.ping()
            assert refused.value.reason == "BAD_TOKEN"
    finally:
        server.stop()
