"""The signing key kept in a file, or by default in the store: seat tokens stay valid when
`tarok serve` restarts, and every replica on one store signs with the same key."""

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


def _start(tmp_path: Path, key_file: bool = True) -> tuple[subprocess.Popen[str], str]:
    """`tarok serve` on a free port (with a key file, or none: the key kept in the store);
    (process, target) once it listens."""
    key = ["--secret-file", str(tmp_path / "secret")] if key_file else []
    process = subprocess.Popen(
        [sys.executable, "-m", "tarok_client.cli", "serve", "--port", "0",
         "--host", "127.0.0.1", "--store", f"sqlite:///{tmp_path / 'events.db'}", *key],
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


def _join(target: str) -> str:
    """A new table's first seat (named "ana"); its token."""
    with grpc.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        table_id = stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
        joined = stub.JoinTable(svc.JoinTableRequest(table_id=table_id.table_id, name="ana"))
    return str(joined.token)


def _seat_of(target: str, token: str) -> tuple[int, str]:
    with grpc.insecure_channel(target) as channel:
        stub = svc_grpc.TarokServiceStub(channel)
        view = stub.GetTableView(svc.GetTableViewRequest(token=token)).view
    return view.seat, view.seats[0].name


@pytest.mark.parametrize("key_file", [True, False], ids=["key-file", "key-in-store"])
def test_tokens_survive_a_restart(tmp_path: Path, key_file: bool) -> None:
    first, target = _start(tmp_path, key_file)
    try:
        token = _join(target)
    finally:
        _stop(first)
    if key_file:
        assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600
    else:
        assert not (tmp_path / "secret").exists()
    second, target = _start(tmp_path, key_file)
    try:
        assert _seat_of(target, token) == (0, "ana")
    finally:
        _stop(second)


def test_replicas_on_one_store_share_the_kept_key(tmp_path: Path) -> None:
    """Two plain `tarok serve` on one SQLite file: a token one signs, the
    other accepts (both took the key the store kept first)."""
    (a, target_a), (b, target_b) = _start(tmp_path, False), _start(tmp_path, False)
    try:
        assert _seat_of(target_b, _join(target_a)) == (0, "ana")
        assert _seat_of(target_a, _join(target_b)) == (0, "ana")
    finally:
        _stop(a)
        _stop(b)


def test_an_explicit_secret_wins_over_the_kept_key(tmp_path: Path) -> None:
    kept, target = _start(tmp_path, False)
    try:
        token = _join(target)
    finally:
        _stop(kept)
    given, target = _start(tmp_path, True)  # --secret-file: a key of its own
    try:
        with pytest.raises(grpc.RpcError) as failed:
            _seat_of(target, token)
        assert failed.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        _stop(given)
