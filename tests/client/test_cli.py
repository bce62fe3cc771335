"""The `tarok` command end to end, and the SDK's bot loop against an in-process server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tarok_client import connect
from tarok_client.bots import RandomBot, play
from tarok_client.sdk import FINISHED, TarokError
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ..service.harness import ServerThread, config
from ..service.test_moves import FAMILY_MATCHES

TAROK = Path(sys.executable).parent / "tarok"


def run_tarok(*args: str) -> subprocess.CompletedProcess[str]:
    if not TAROK.exists():
        pytest.fail(f"{TAROK} is missing: run `make install` (pip install -e .)")
    return subprocess.run([str(TAROK), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_demo_plays_a_table_end_to_end() -> None:
    done = run_tarok("demo", "--hands", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("table ") and "slovenian" in lines[0]
    assert len([ln for ln in lines if re.match(r"deal \d+: ", ln)]) >= 2
    assert any(ln.startswith("final totals after 2 hand(s):") for ln in lines)
    assert re.search(r"\d+ moves in [\d.]+ s", done.stdout)


@pytest.mark.slow
def test_variants_json() -> None:
    done = run_tarok("variants", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert {"id": "slovenian", "name": "Slovenian tarok", "players": [4, 3]} in rows


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()


@pytest.mark.parametrize(
    ("variant", "players"),
    [("slovenian", 3), *FAMILY_MATCHES],
    ids=str,
)
def test_sdk_bots_play_a_table_each_in_its_own_thread(
    server: ServerThread, variant: str, players: int
) -> None:
    with connect(server.target) as client:
        table = client.create(variant, players=players, hands=2)
        seats = [client.join(table, name=f"bot{i}") for i in range(players)]
        threads = [
            threading.Thread(target=play, args=(s, RandomBot(i, pass_bias=0.4)))
            for i, s in enumerate(seats)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        final = seats[0].view()
        assert final.variant == variant and len(final.seats) == players
        assert final.status == FINISHED and final.hands_played == 2
        assert variant == "slovenian" or sum(final.totals) == 0  # the family's games are zero-sum
        assert seats[1].log().complete and json.loads(seats[2].log_json())["complete"]
        with pytest.raises(TarokError) as caught:
            seats[0].submit("pass")
        assert caught.value.reason == "TABLE_FINISHED"
        assert client.ping(b"x") == b"x" and client.variants()


def test_create_asks_the_server_for_bots_a_name_and_privacy(server: ServerThread) -> None:
    with connect(server.target) as client:
        table = client.create(
            "slovenian", players=4, bots={1: "random", 3: "heuristic"}, display_name="Friday"
        )
        hidden = client.create("slovenian", players=4, private=True)
        view = client.spectate(table).view()
        assert [bool(s.bot) for s in view.seats] == [False, True, False, True]
        assert view.seats[3].bot == "heuristic" and view.display_name == "Friday"
        listed = client.stub.ListTables(svc.ListTablesRequest(filter="state = open")).tables
        assert table in {t.table_id for t in listed} and hidden not in {t.table_id for t in listed}
        with pytest.raises(TarokError) as caught:
            client.create("slovenian", players=4, bots={0: "no-such-bot"})
        assert caught.value.reason == "INVALID_FIELD"


FRENCH_TAROT_NAMES: dict[str, str] = {
    "en": "French Tarot",
    "sl": "Francoski tarok",
    "cs": "Francouzský tarot",
    "de": "Französisches Tarot",
    "it": "Tarocchi francesi",
    "fr": "Tarot français",
}


@pytest.mark.parametrize("locale", ["en", "sl", "cs", "de", "it", "fr"])
def test_variants_lists_every_rule_set_in_each_language(
    server: ServerThread, locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tarok_client.cli import main

    from tarok_service.server.present.i18n import Labels

    assert main(["variants", "--server", server.target, "--locale", locale, "--json"]) == 0
    # the in-process server logs to the same stdout: the listing is the command's last line
    listing = capsys.readouterr().out.splitlines()[-1]
    rows = {row["id"]: row for row in json.loads(listing)}
    assert {"french_tarot", "koenigrufen"} <= set(rows)
    assert rows["french_tarot"]["players"] == [3, 4, 5] and rows["koenigrufen"]["players"] == [4]
    for ident, row in rows.items():
        # each name is the locale's own label, never the bare id nor an English fallback
        assert row["name"] == Labels(locale).term("variant", ident) != ident
        assert Labels(locale).has(f"variant.{ident}")
    assert rows["french_tarot"]["name"] == FRENCH_TAROT_NAMES[locale]
    assert main(["variants", "--server", server.target, "--locale", locale]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(ln.startswith("koenigrufen") and "(4 players)" in ln for ln in lines)
