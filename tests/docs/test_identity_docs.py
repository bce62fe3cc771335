"""docs/identity.md: every example runs as written (curl against the HTTP port, the Python
SDK against the gRPC port), in the order the page gives them, against one server."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.server.main import running

from ..service.harness import ServerThread, config

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "identity.md"
EXAMPLE = re.compile(r"<!-- example: (\S+) -->\n```(sh|python)\n(.*?)```", re.DOTALL)
OPERATOR_KEY = "an-operator-key-for-the-identity-examples"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    server = ServerThread(config(http_port=0, http_host="127.0.0.1", operator_key=OPERATOR_KEY))
    yield server
    server.stop()


class Examples:
    def __init__(self, server: ServerThread) -> None:
        self.server = server
        http = running(server.server).http
        assert http is not None
        self.http = f"127.0.0.1:{http.port}"
        self.blocks = {name: (kind, text) for name, kind, text in EXAMPLE.findall(PAGE.read_text())}
        self.env = {"DEVICE_SECRET": "a-device-secret-for-the-identity-page"}
        self.ran: list[str] = []

    def sh(self, name: str) -> Any:
        kind, text = self.blocks[name]
        assert kind == "sh"
        self.ran.append(name)
        done = subprocess.run(
            ["bash", "-c", text.replace("localhost:8080", self.http)],
            env={"PATH": "/usr/bin:/bin", **self.env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, (name, done.stderr)
        return json.loads(done.stdout)

    def python(self, name: str) -> None:
        kind, text = self.blocks[name]
        assert kind == "python"
        self.ran.append(name)
        exec(text.replace("localhost:50051", self.server.target), {})


def reason_of(answer: dict[str, Any]) -> str:
    for detail in answer.get("details", []):
        if detail["type"] == "google.rpc.ErrorInfo":
            info = error_details_pb2.ErrorInfo.FromString(
                base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4))
            )
            return str(info.reason)
    raise AssertionError(answer)


def test_every_example_on_the_identity_page_runs(server: ServerThread) -> None:
    ex = Examples(server)
    session = ex.sh("sign-in")["session"]
    ex.env.update(SESSION=session["sessionToken"], PLAYER=session["player"]["playerId"])
    assert ex.sh("me")["player"]["playerId"] == ex.env["PLAYER"]
    made = ex.sh("api-token")
    ex.env["BOT_TOKEN"] = made["token"]
    bots = [svc.BotSeat(seat=s, bot="random") for s in (1, 2, 3)]
    table = server.stub.CreateTable(
        svc.CreateTableRequest(variant="slovenian", players=4, bots=bots)
    )
    ex.env["TABLE"] = table.table_id
    joined = ex.sh("bot-joins")
    assert joined["tableId"] == table.table_id and joined.get("seat", 0) == 0
    assert [t["tableId"] for t in ex.sh("my-tables")["tables"]] == [table.table_id]
    again = ex.sh("rejoin")
    assert again["token"] and again["token"] != joined["token"]
    bad = ex.sh("bad-token")
    assert bad["code"] == "unauthenticated" and reason_of(bad) == "BAD_TOKEN"
    ex.env["OPERATOR_KEY"] = OPERATOR_KEY
    assert ex.sh("suspend")["player"]["suspended"] is True
    ex.python("sdk")
    assert sorted(ex.ran) == sorted(ex.blocks), set(ex.blocks) - set(ex.ran)
