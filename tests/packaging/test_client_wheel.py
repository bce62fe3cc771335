"""The client is an installable part of its own: `make dist` builds the wheels, the one command
its README gives installs the client alone into a fresh virtualenv (no server, no rules), the
README's bot plays a table against a running server, and the commands that need a part this
install lacks say so in one line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from tarok_client.local import local_server

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "clients" / "python" / "README.md"
SERVER_ONLY = ("psycopg", "psycopg-pool", "prometheus-client", "openskill", "grpcio-tools")
INSTALL = re.compile(r"^pip install (--find-links dist tarok-client)\s", re.MULTILINE)
BOT = re.compile(r"## A bot in twenty lines\n.*?```python\n(.*?)```", re.DOTALL)


def run(
    *args: str | Path, cwd: Path | None = None, code: int = 0
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=600, cwd=cwd
    )
    assert done.returncode == code, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def one_line_hint(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """A refusal in one line naming what to do: no traceback."""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert all(w in lines[0] for w in words), lines[0]


@pytest.mark.slow
def test_client_installs_alone_and_runs_its_readme_bot(tmp_path: Path) -> None:
    text = README.read_text()
    install = INSTALL.search(text)
    bot = BOT.search(text)
    assert install is not None and bot is not None, "README lost its install line or its bot"
    assert len(bot.group(1).splitlines()) <= 25

    wheels = tmp_path / "dist"
    run("make", "-C", ROOT, "dist", f"DIST={wheels}", f"VENV={Path(sys.prefix)}")
    names = {w.name.split("-")[0] for w in wheels.glob("*.whl")}
    assert {"tarok_proto", "tarok_client", "tarok_rules", "tarok"} <= names, names
    (rules,) = wheels.glob("tarok_rules-*.whl")  # the solver compiled: a wheel of this platform
    assert not rules.name.endswith("-none-any.whl"), rules.name

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python, tarok = env_dir / "bin" / "python", env_dir / "bin" / "tarok"
    # The README's command, from the directory holding dist/ (as at the repository root).
    run(python, "-m", "pip", "install", "-q", *install.group(1).split(), cwd=tmp_path)

    installed = json.loads(run(python, "-m", "pip", "list", "--format", "json").stdout)
    names = {row["name"].lower() for row in installed}
    assert {"tarok-client", "tarok-proto", "grpcio"} <= names
    assert not names & {*SERVER_ONLY, "tarok", "tarok-rules"}, names
    probe = "import importlib.util as u; print(u.find_spec('tarok_service') is None)"
    # Run from an empty directory so the repository is not on sys.path.
    assert run(python, "-c", probe, cwd=tmp_path).stdout.strip() == "True"

    # The `tarok` command works without the server; `serve` comes only with the server part.
    helped = run(tarok, "--help", cwd=tmp_path).stdout
    commands = set(helped.split("{", 1)[1].split("}", 1)[0].split(","))
    assert {"demo", "tournament", "bot"} <= commands and "serve" not in commands, commands
    # What needs a missing part says what to install, in one line.
    one_line_hint(run(tarok, "demo", cwd=tmp_path, code=2), "--server", "pip install")
    one_line_hint(run(tarok, "variants", cwd=tmp_path, code=2), "--server", "pip install")
    one_line_hint(run(tarok, "selfplay", cwd=tmp_path, code=2), "tarok-client[brains]")

    (tmp_path / "bot.py").write_text(bot.group(1))
    with local_server() as target:
        played = run(python, "bot.py", target, cwd=tmp_path).stdout.strip().splitlines()
        # Against a server, `tarok demo` plays with the client's own random bots.
        demo = run(tarok, "demo", "--server", target, "--hands", "1", cwd=tmp_path).stdout
        one_line_hint(
            run(tarok, "demo", "--server", target, "--bot", "pimc", cwd=tmp_path, code=2),
            "tarok-client[brains]",
            "--bot random",
        )
    assert re.fullmatch(r"hands played: 1 totals: \[(-?\d+, ){3}-?\d+\]", played[-1]), played
    assert "final totals after 1 hand(s)" in demo, demo
