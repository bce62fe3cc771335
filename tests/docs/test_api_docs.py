"""docs/api.md: every RPC documented, every listed reason real, the examples run as written."""

from __future__ import annotations

import base64
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.rpc.error_details_pb2 import ErrorInfo  # type: ignore[import-untyped]

from tarok_service import apidoc
from tarok_service.engine import moves
from tarok_service.server import errors, rematch
from tarok_service.server.tournaments import log as tournament_log

from ..service.harness import ServerThread, config

ROOT = Path(__file__).resolve().parents[2]
BUF = Path(sys.executable).parent / "buf"
EXAMPLE = re.compile(r"### (\w+)\.(\w+)\n.*?```sh\n(.*?)```", re.DOTALL)


def _reasons() -> set[str]:
    known: set[str] = {reason.value for reason in moves.Reason}
    for module in (errors, rematch, tournament_log):
        known |= {v for k, v in vars(module).items() if k.isupper() and isinstance(v, str)}
    return known


def _examples() -> dict[str, str]:
    return {f"{s}.{m}": cmd for s, m, cmd in EXAMPLE.findall(apidoc.TARGET.read_text())}


def test_every_rpc_has_a_description_errors_or_note_and_an_example() -> None:
    files = [f for f in apidoc.descriptors().file if f.package == apidoc.PACKAGE]
    methods = [f"{s.name}.{m.name}" for f in files for s in f.service for m in s.method]
    assert len(methods) >= 14
    text = apidoc.render()
    examples = _examples()
    for name in methods:
        section = text.split(f"### {name}\n", 1)[1].split("\n### ", 1)[0]
        assert "(undocumented)" not in section, name
        assert "- Request: [" in section and "- Response: " in section, name
        assert "| Code | Reason | When |" in section or "Errors: only those" in section, name
        assert name in examples, name


def test_every_documented_reason_is_a_reason_the_server_uses() -> None:
    codes = {
        "INVALID_ARGUMENT",
        "FAILED_PRECONDITION",
        "ABORTED",
        "NOT_FOUND",
        "UNAUTHENTICATED",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "UNAVAILABLE",
    }
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \|", apidoc.render(), re.MULTILINE)
    assert len(rows) > 20
    known = _reasons()
    for code, reason in rows:
        assert code in codes, (code, reason)
        assert reason in known, (code, reason)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()


def _run(command: str, port: int, variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = command.replace("\\\n", " ").replace("localhost:50051", f"127.0.0.1:{port}")
    argv = shlex.split(command)
    argv = [re.sub(r"\$(\w+)", lambda m: variables[m.group(1)], arg) for arg in argv]
    assert argv[0] == ".venv/bin/buf"
    argv[0] = str(BUF)
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_table_examples_run_against_a_server(server: ServerThread) -> None:
    if not BUF.exists():
        pytest.fail(f"{BUF} is missing: run `make install`")
    examples = _examples()
    created = _run(examples["TarokService.CreateTable"], server.port, {})
    assert created.returncode == 0, created.stderr
    table = re.search(r'"tableId": "(\w+)"', created.stdout)
    assert table is not None
    variables = {"TABLE": table.group(1)}
    joined = _run(examples["TarokService.JoinTable"], server.port, variables)
    assert joined.returncode == 0, joined.stderr
    token = re.search(r'"token": "([^"]+)"', joined.stdout)
    assert token is not None
    variables["TOKEN"] = token.group(1)
    for name in ("Ping", "ListVariants", "GetTableView", "GetTableLog"):
        done = _run(examples[f"TarokService.{name}"], server.port, variables)
        assert done.returncode == 0, (name, done.stderr)
    moved = _run(examples["TarokService.SubmitMove"], server.port, variables)
    # One seat of four is taken: the request is well formed, the table has not started.
    failure = json.loads(moved.stderr)
    assert failure["code"] == "failed_precondition", moved.stderr
    detail = failure["details"][0]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert info.reason == errors.TABLE_NOT_STARTED
