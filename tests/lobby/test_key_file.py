"""The signing key kept in a file: seat tokens stay valid when `tarok serve` restarts."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.keyfile import KeyFileError, load_or_create


def test_key_file_is_created_private_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "key"
    key = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(key) >= 32
    assert load_or_create(path) == key
    path.chmod(0o644)
    with pytest.raises(KeyFileError, match="owner only"):
        load_or_create(path)
    short = tmp_path / "short"
    short.write_text("abc")
    short.chmod(0o600)
    with pytest.raises(KeyFileError, match="no key"):
        load_or_create(short)


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """`tarok serve` on a free port with a key file; (process, target) once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tarok_client.cli", "serve", "--port", "0",
         "--store", f"sqlite:///{tmp_path / 'events.db'}",
         "--secret-file", str(tmp_path / "secret")],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "TAROK_SECRET": ""},
    )  # fmt: skip
    assert process.stdout is not None
    for line in process.stdout:
        if "listening on" in line:
            port = line.split("listening on ", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1]
            return process, f"127.0.0.1:{port}"
    raise AssertionError("the server did not start")


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    assert process.wait(60) == 0


def test_tokens_survive_a_restart(tmp_path: Path) -> None:
    first, target = _start(tmp_path)
    try:
        with grpc.insecure_channel(target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            table_id = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
            joined = stub.JoinTable(svc.JoinTableRequest(table_id=table_id.table_id, name="ana"))
    finally:
        _stop(first)
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600
    second, target = _start(tmp_path)
    try:
        with grpc.insecure_channel(target) as channel:
            stub = svc_grpc.TarokServiceStub(channel)
            view = stub.GetTableView(svc.GetTableViewRequest(token=joined.token)).view
            assert view.seat == 0 and view.seats[0].name == "ana"
    finally:
        _stop(second)
