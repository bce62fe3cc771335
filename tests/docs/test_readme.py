"""README.md's quick start as a new user pastes it: the five-minute tour (gRPC and the HTTP
port), the bot in fifteen lines and the TypeScript SDK's install, each run as written against
a server started here (only the addresses point at it). `make run` itself on a fresh clone is
proven by .ci/run."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tarok_service.server.main import running

from ..service.harness import ServerThread, config

ROOT = Path(__file__).resolve().parents[2]


def section(title: str, lang: str = "sh", index: int = 0) -> str:
    """The `index`-th ```lang block of the README section headed `title`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    body = re.split(r"^#{2,3} ", text.split(f"\n{title}\n", 1)[1], flags=re.MULTILINE)[0]
    blocks = re.findall(rf"```{lang}\n(.*?)```", body, re.DOTALL)
    assert len(blocks) > index, (title, lang)
    return str(blocks[index])


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running_server = ServerThread(config(http_port=0, http_host="127.0.0.1"))
    yield running_server
    running_server.stop()


def addressed(code: str, server: ServerThread) -> str:
    http = running(server.server).http
    assert http is not None
    code = code.replace("localhost:50051", f"127.0.0.1:{server.port}")
    return code.replace("localhost:8080", f"127.0.0.1:{http.port}")


def test_the_tour_runs_as_written(server: ServerThread) -> None:
    script = addressed(section("## A five-minute tour"), server)
    assert script.rstrip().endswith("Ctrl-C to stop")  # the last line streams: stopped here
    with subprocess.Popen(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as tour:
        assert tour.stdout is not None
        out: list[str] = []
        try:
            for line in tour.stdout:
                out.append(line)
                if '"heartbeat"' in line:  # WatchTable is streaming: the tour ran through
                    break
        finally:
            os.killpg(tour.pid, signal.SIGINT)
            tour.wait(30)
    text = "".join(out)
    assert '"heartbeat"' in text, (text[-2000:], tour.stderr.read() if tour.stderr else "")
    assert text.startswith("['slovenian'"), text[:200]
    assert '"status": "TABLE_STATUS_PLAYING"' in text  # the move was made


def test_the_http_port_examples_answer(server: ServerThread) -> None:
    script = addressed(section("## A five-minute tour", index=1), server)
    commands = re.split(r"\n(?=curl )", script.strip())
    assert len(commands) == 4
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (command, done.stderr)
        answer = json.loads(done.stdout)
        assert "code" not in answer, (command, answer)  # a Connect error carries a code


def test_the_fifteen_line_bot_plays_a_match(server: ServerThread) -> None:
    bot = addressed(section("### A bot in fifteen lines", "python"), server)
    done = subprocess.run(
        [sys.executable, "-c", bot], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\[(-?\d+, ){3}-?\d+\]\n", done.stdout), done.stdout


@pytest.mark.slow
def test_the_typescript_install_lines_work(tmp_path: Path) -> None:
    assert shutil.which("npm") is not None
    script = section("### TypeScript").replace("/tmp", str(tmp_path))
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    installed = tmp_path / "my-tarok-app" / "node_modules" / "@tarok" / "client"
    assert (installed / "dist" / "src" / "node.js").exists()
