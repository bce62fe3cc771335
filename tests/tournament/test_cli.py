"""`tarok tournament run` and `tarok bot` end to end."""

from __future__ import annotations

import json

from tarok_client import connect
from tarok_client.tournaments import Tournaments

from ..client.test_cli import run_tarok
from ..service.harness import ServerThread
from .helpers import wait_finished

KEYS = {"name", "score", "per_deal", "ci95", "timeouts", "rating"}


def test_tournament_run_prints_standings_and_json_with_its_own_server() -> None:
    done = run_tarok(
        "tournament", "run", "--variant", "slovenian", "--bots", "heuristic,random",
        "--deals", "3", "--duplicate", "--json", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    doc = json.loads(lines[-1])
    assert doc["variant"] == "slovenian" and doc["deals"] == 3
    assert [e["name"] for e in doc["entrants"]] in (
        ["heuristic", "random"],
        ["random", "heuristic"],
    )
    assert all(set(e) >= KEYS for e in doc["entrants"])
    first, second = doc["entrants"]
    assert first["per_deal"] == -second["per_deal"]  # duplicate: what one wins the other loses
    assert "6/6 tables" in done.stderr  # the progress line
    assert any(line.lstrip().startswith("1 ") for line in lines)  # the standings table


def test_tournament_run_with_remote_bots_against_a_server(server: ServerThread) -> None:
    done = run_tarok(
        "tournament", "run", "--server", server.target, "--variant", "slovenian",
        "--players", "3", "--bots", "random,heuristic,random", "--deals", "1", "--duplicate",
        "--remote", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout.splitlines()[-1])
    assert {e["name"] for e in doc["entrants"]} == {"random", "heuristic", "random-2"}
    assert all(e["bot"] == "remote" and e["games"] == 3 for e in doc["entrants"])


def test_tarok_bot_plays_a_remote_entrant(server: ServerThread) -> None:
    with connect(server.target) as client:
        created = Tournaments(client).create(
            "slovenian", [("cli", ""), ("r", "random"), ("h", "heuristic")], deals=1, players=3
        )
    token = created.entrant_tokens[0].token
    done = run_tarok("bot", "--server", server.target, "--token", token, "--bot", "random")
    assert done.returncode == 0, done.stderr
    assert "1 tables" in done.stdout
    assert wait_finished(server.target, created.tournament_id)["status"] == "finished"
