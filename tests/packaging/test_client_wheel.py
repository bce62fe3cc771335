"""The client is an installable part of its own: its wheel (with the protocol package's) installs
into a fresh virtualenv without the server's dependencies and plays a whole table against a
running server."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from tarok_client.local import local_server

ROOT = Path(__file__).resolve().parents[2]
SERVER_ONLY = ("psycopg", "psycopg-pool", "prometheus-client", "openskill", "grpcio-tools")

PLAY = """
import json, sys, threading
from tarok_client import connect
from tarok_client.bots import RandomBot, play
from tarok_client.sdk import FINISHED

with connect(sys.argv[1]) as client:
    client.wait_ready(timeout=30)
    table = client.create("slovenian", players=4, hands=1)
    seats = [client.join(table, name=f"wheel{i}") for i in range(4)]
    threads = [threading.Thread(target=play, args=(s, RandomBot(seed=i)))
               for i, s in enumerate(seats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    view = seats[0].view()
    print(json.dumps({"finished": view.status == FINISHED, "hands": view.hands_played,
                      "totals": list(view.totals), "lines": len(view.last_result.lines)}))
"""


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=600, cwd=cwd
    )
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.mark.slow
def test_client_wheel_installs_alone_and_plays_a_table(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    for part in ("deploy/packages/proto", "clients/python"):
        run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, ROOT / part)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", *sorted(wheels.glob("*.whl")))

    installed = json.loads(run(python, "-m", "pip", "list", "--format", "json").stdout)
    names = {row["name"].lower() for row in installed}
    assert {"tarok-client", "tarok-proto", "grpcio"} <= names
    assert not names & set(SERVER_ONLY), names & set(SERVER_ONLY)
    probe = "import importlib.util as u; print(u.find_spec('tarok_service') is None)"
    # Run from an empty directory so the repository is not on sys.path.
    assert run(python, "-c", probe, cwd=tmp_path).stdout.strip() == "True"

    # The `tarok` command works without the server; `serve` comes only with the server part.
    helped = run(env_dir / "bin" / "tarok", "--help", cwd=tmp_path).stdout
    commands = set(helped.split("{", 1)[1].split("}", 1)[0].split(","))
    assert {"demo", "tournament", "bot"} <= commands and "serve" not in commands, commands

    with local_server() as target:
        done = run(python, "-c", PLAY, target, cwd=tmp_path)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["finished"] and result["hands"] == 1, result
    assert len(result["totals"]) == 4 and result["lines"] > 0, result
