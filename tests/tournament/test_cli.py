"""`tarok tournament run` and `tarok bot` end to end."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from tarok_client import connect
from tarok_client.tournaments import Tournaments

from ..client.test_cli import run_tarok
from ..service.harness import ServerThread
from .helpers import ORGANISER_KEY, assert_fair, wait_finished

KEYS = {"name", "score", "per_deal", "ci95", "timeouts", "rating"}


@pytest.mark.slow
def test_tournament_run_prints_standings_and_json_with_its_own_server() -> None:
    done = run_tarok(
        "tournament", "run", "--variant", "slovenian", "--bots", "heuristic,random",
        "--deals", "3", "--duplicate", "--json", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)  # one JSON document and nothing else on stdout
    piped = subprocess.run(
        [sys.executable, "-m", "json.tool"], input=done.stdout, capture_output=True, text=True
    )
    assert piped.returncode == 0, piped.stderr
    assert doc["variant"] == "slovenian" and doc["deals"] == 3 and doc["status"] == "finished"
    assert [e["name"] for e in doc["entrants"]] in (
        ["heuristic", "random"],
        ["random", "heuristic"],
    )
    assert all(set(e) >= KEYS for e in doc["entrants"])
    first, second = doc["entrants"]
    assert first["per_deal"] == -second["per_deal"]  # duplicate: what one wins the other loses
    assert "6/6 tables" in done.stderr  # the progress line
    human = run_tarok(
        "tournament", "run", "--variant", "slovenian", "--bots", "heuristic,random",
        "--deals", "1", "--seed", "1",
    )  # fmt: skip
    assert human.returncode == 0, human.stderr
    assert any(line.lstrip().startswith("1 ") for line in human.stdout.splitlines())


@pytest.mark.slow
def test_every_json_flag_prints_one_json_document(server: ServerThread) -> None:
    done = run_tarok("variants", "--server", server.target, "--json")
    assert done.returncode == 0, done.stderr
    assert {v["id"] for v in json.loads(done.stdout)} >= {"slovenian"}
    played = run_tarok("selfplay", "--games", "5", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["games"] == 5 and "invariant failures" in played.stderr


@pytest.mark.slow
def test_tournament_run_with_remote_bots_against_a_server(server: ServerThread) -> None:
    done = run_tarok(
        "tournament", "run", "--server", server.target, "--variant", "slovenian",
        "--players", "3", "--bots", "random,heuristic,random", "--deals", "1", "--duplicate",
        "--remote", "--json", "--organiser-key", ORGANISER_KEY,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert {e["name"] for e in doc["entrants"]} == {"random", "heuristic", "random-2"}
    assert all(e["bot"] == "remote" and e["games"] == 3 for e in doc["entrants"])


@pytest.mark.slow
def test_tarok_bot_plays_a_remote_entrant(server: ServerThread) -> None:
    with connect(server.target) as client:
        created = Tournaments(client, ORGANISER_KEY).create(
            "slovenian", [("cli", ""), ("r", "random"), ("h", "heuristic")], deals=1, players=3
        )
    token = created.entrant_tokens[0].token
    done = run_tarok("bot", "--server", server.target, "--token", token, "--bot", "random")
    assert done.returncode == 0, done.stderr
    assert "1 tables" in done.stdout
    assert wait_finished(server.target, created.tournament_id)["status"] == "finished"
    assert_fair(server.target, created.tournament_id)
