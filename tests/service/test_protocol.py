"""The protocol's build hygiene: generated code is fresh and buf lint is clean."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# The pure packages (rules engine, variants, bot brains, tournament maths) may be imported by
# clients, e.g. to run a built-in bot remotely; the server may not.
PURE = r"(?!\.(?:engine|variants|bots|tournament)\b)"
SERVER_IMPORT = re.compile(rf"^\s*(?:from|import)\s+tarok_service\b(?!_){PURE}", re.MULTILINE)
ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tarok_service.protogen", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_client_and_protocol_packages_do_not_import_the_server() -> None:
    """tarok_proto (the generated code both sides share) and tarok_client stand alone."""
    clients = ROOT / "clients" / "python"
    paths = [*(clients / "tarok_client").rglob("*.py"), *(clients / "tarok_proto").rglob("*.py")]
    assert any(p.name == "tarok_service_pb2_grpc.py" for p in paths)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        offenders = SERVER_IMPORT.findall(text)
        allowed = path.name == "cli.py" and "tarok_client" in path.parts  # lazy `tarok serve`
        assert allowed or not offenders, (path, offenders)


def test_buf_lint_is_clean() -> None:
    buf = Path(sys.executable).parent / "buf"
    binary = str(buf) if buf.exists() else shutil.which("buf")
    if binary is None:
        pytest.skip("buf is not installed (pip install buf-bin)")
    done = subprocess.run([binary, "lint"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
