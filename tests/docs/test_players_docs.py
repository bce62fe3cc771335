"""docs/players.md: every example runs as written (curl against the HTTP port, Python against
the gRPC port), signed in as a new guest, against one server."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc

from tarok_service.server.main import running

from ..service.harness import ServerThread, config

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "players.md"
EXAMPLE = re.compile(r"<!-- example: (\S+) -->\n```(sh|python)\n(.*?)```", re.DOTALL)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    server = ServerThread(config(http_port=0, http_host="127.0.0.1"))
    yield server
    server.stop()


def test_every_example_on_the_players_page_runs(server: ServerThread) -> None:
    blocks = {name: (kind, text) for name, kind, text in EXAMPLE.findall(PAGE.read_text())}
    http = running(server.server).http
    assert http is not None
    signed = ps_grpc.PlayerServiceStub(server.channel).SignInGuest(
        ps.SignInGuestRequest(device_secret=secrets.token_urlsafe(24), display_name="Ana")
    )
    session = signed.session.session_token
    player = signed.session.player.player_id

    def sh(name: str) -> Any:
        kind, text = blocks.pop(name)
        assert kind == "sh"
        done = subprocess.run(
            ["bash", "-c", text.replace("localhost:8080", f"127.0.0.1:{http.port}")],
            env={"PATH": "/usr/bin:/bin", "SESSION": session},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, (name, done.stderr)
        answer = json.loads(done.stdout)
        assert "code" not in answer, (name, answer)  # an error answer names its code
        return answer

    assert sh("leaderboard").get("entries", []) == []
    kind, text = blocks.pop("find-match")
    assert kind == "python"
    scope: dict[str, Any] = {"session": session}
    exec(text.replace("localhost:50051", server.target), scope)  # a lone caller: bots after 5 s
    assert scope["reply"].found.table_id and scope["token"]
    assert sh("history").get("tables", []) == []  # the table found is not finished
    assert sh("profile")["playerId"] == player
    assert blocks == {}, f"examples not run: {sorted(blocks)}"
