"""docs/api.md: every RPC documented, every listed reason real, every example runs as written
(in the order the doc gives them, against one server)."""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tarok_client.sdk import FINISHED, Client, Seat
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service import apidoc
from tarok_service.engine import moves
from tarok_service.server import errors
from tarok_service.server.config import OidcIssuer
from tarok_service.server.main import running
from tarok_service.server.tournaments import log as tournament_log
from tarok_service.server.usecases import rematch

from ..players.issuer import AUDIENCE, Issuer
from ..service.harness import ServerThread, config, create

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
        "DEADLINE_EXCEEDED",  # FindMatch: NO_MATCH
    }
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \|", apidoc.render(), re.MULTILINE)
    assert len(rows) > 20
    known = _reasons()
    for code, reason in rows:
        assert code in codes, (code, reason)
        assert reason in known, (code, reason)


ORGANISER_KEY = "an-organiser-key-for-the-examples"
OPERATOR_KEY = "an-operator-key-for-the-examples"


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    running = Issuer().start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def server(issuer: Issuer) -> Iterator[ServerThread]:
    running = ServerThread(
        config(
            organiser_key=ORGANISER_KEY,
            operator_key=OPERATOR_KEY,
            oidc_issuers=(OidcIssuer(issuer.url, AUDIENCE),),
        )
    )
    yield running
    running.stop()


class Examples:
    """Runs docs/api.md's examples as written against `server`, with the shell variables
    they name set from earlier answers (as the doc tells its reader to)."""

    def __init__(self, server: ServerThread) -> None:
        if not BUF.exists():
            pytest.fail(f"{BUF} is missing: run `make install`")
        self.server = server
        self.commands = _examples()
        self.variables = {"ORGANISER_KEY": ORGANISER_KEY, "OPERATOR_KEY": OPERATOR_KEY}
        self.ran: set[str] = set()

    def argv(self, name: str) -> list[str]:
        command = self.commands[name].replace("\\\n", " ")
        command = command.replace("localhost:50051", f"127.0.0.1:{self.server.port}")
        argv = shlex.split(command)
        argv = [re.sub(r"\$(\w+)", lambda m: self.variables[m.group(1)], arg) for arg in argv]
        assert argv[0] == ".venv/bin/buf"
        self.ran.add(name)
        return [str(BUF), *argv[1:]]

    def run(self, name: str) -> dict[str, Any]:
        """A unary example: its answer (it must succeed)."""
        done = subprocess.run(self.argv(name), cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (name, done.stderr)
        answer: dict[str, Any] = json.loads(done.stdout or "{}")
        return answer

    def first(self, name: str) -> dict[str, Any]:
        """A streaming example: its first message, then the stream is stopped (Ctrl-C)."""
        with subprocess.Popen(
            self.argv(name), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as process:
            assert process.stdout is not None
            lines: list[str] = []
            try:
                for line in process.stdout:  # buf curl prints each message as indented JSON
                    lines.append(line)
                    if line.rstrip() == "}":
                        break
            finally:
                process.send_signal(signal.SIGINT)
                process.wait(30)
        assert lines, (name, process.stderr.read() if process.stderr else "")
        message: dict[str, Any] = json.loads("".join(lines))
        return message


def test_every_example_runs_against_a_server(server: ServerThread, issuer: Issuer) -> None:
    ex = Examples(server)
    assert ex.run("TarokService.Ping") == {"payload": "aGk="}
    assert any(v["id"] == "slovenian" for v in ex.run("TarokService.ListVariants")["variants"])

    # One table: three server bots and the reader's seat.
    ex.variables["TABLE"] = ex.run("TarokService.CreateTable")["tableId"]
    joined = ex.run("TarokService.JoinTable")
    assert joined.get("seat", 0) == 0
    ex.variables["TOKEN"] = joined["token"]
    seat = Seat(Client(server.target), joined["tableId"], joined["token"], 0)
    assert ex.run("TarokService.GetTableView")["view"]["status"] == "TABLE_STATUS_PLAYING"
    assert "view" in ex.first("TarokService.WatchTable")
    logged = json.loads(ex.run("TarokService.GetTableLog")["json"])
    assert logged["tableId"] == ex.variables["TABLE"]
    turn = next(seat.my_turns())  # "send it when it is that seat's turn"
    assert int(ex.run("TarokService.SubmitMove")["version"]) > turn.version
    assert int(ex.run("TarokService.HandSeatToBot")["version"]) > turn.version
    for item in seat.watch(with_views=True):  # the bots play the match to its end
        if item.WhichOneof("item") == "view" and item.view.status == FINISHED:
            break
    analysed = ex.run("TarokService.AnalyseHand")  # the last hand of the finished match
    assert int(analysed["dealNumber"]) >= 1 and analysed["measure"] in ("points", "tricks")
    rematch = ex.run("TarokService.Rematch")
    assert rematch["tableId"] != ex.variables["TABLE"] and rematch["token"]

    # A table still seating: leave it and take the seat back.
    open_table = seat.client.create("slovenian", players=4)
    ex.variables["TOKEN"] = seat.client.join(open_table, name="ana").token
    assert "version" in ex.run("TarokService.LeaveTable")
    assert ex.run("TarokService.RejoinTable")["token"]
    listed = ex.run("TarokService.ListTables")["tables"]
    assert open_table in {t["tableId"] for t in listed}

    # One tournament with a remote entrant, paused and cancelled by its organiser.
    created = ex.run("TournamentService.CreateTournament")
    ex.variables["TOURNAMENT"] = created["tournamentId"]
    ex.variables["ORGANISER_TOKEN"] = created["organiserToken"]
    ex.variables["ENTRANT"] = created["entrantTokens"][0]["token"]
    tournament = ex.variables["TOURNAMENT"]
    assert ex.run("TournamentService.GetTournament")["tournament"]["tournamentId"] == tournament
    assert "tournament" in ex.first("TournamentService.WatchTournament")
    assert json.loads(ex.run("TournamentService.ExportTournament")["json"])
    assert ex.first("TournamentService.StreamMyTurns")
    paused = ex.run("TournamentService.PauseTournament")["tournament"]
    assert paused["tournamentId"] == tournament
    cancelled = ex.run("TournamentService.CancelTournament")["tournament"]
    assert cancelled["status"] == "TOURNAMENT_STATUS_CANCELLED"
    assert isinstance(ex.run("TournamentService.GetRatings").get("ratings", []), list)

    # A guest signs in, links an identity provider account, makes and revokes an API token,
    # and is suspended by an operator.
    ex.variables["DEVICE_SECRET"] = "a-device-secret-for-the-examples"
    session = ex.run("PlayerService.SignInGuest")["session"]
    player = session["player"]["playerId"]
    ex.variables.update(
        SESSION=session["sessionToken"], REFRESH=session["refreshToken"], PLAYER=player
    )
    assert ex.run("PlayerService.GetMe")["player"]["playerId"] == player
    assert ex.run("PlayerService.RefreshSession")["session"]["player"]["playerId"] == player
    ex.variables["ID_TOKEN"] = issuer.token("docs-reader")
    assert ex.run("PlayerService.LinkIdentity")["player"]["identities"][0]["subject"] == (
        "docs-reader"
    )
    assert ex.run("PlayerService.SignIn")["session"]["player"]["playerId"] == player
    made = ex.run("PlayerService.CreateApiToken")
    assert made["token"].startswith("tarok_api_") and made["info"]["scopes"] == ["play"]
    ex.variables["API_TOKEN_ID"] = made["info"]["tokenId"]
    assert [t["tokenId"] for t in ex.run("PlayerService.ListApiTokens")["tokens"]] == [
        made["info"]["tokenId"]
    ]
    assert ex.run("PlayerService.RevokeApiToken") == {}
    assert ex.run("PlayerService.ListMyTables").get("tables", []) == []
    _players_games(ex, server, player)
    assert ex.run("PlayerService.SuspendPlayer")["player"]["suspended"] is True
    ex.variables["TABLE"] = create(server.stub)
    assert ex.run("PlayerService.CloseTable")["closed"] is True
    audit = ex.run("PlayerService.ListAuditEvents")["events"]
    assert [(a["action"], a.get("playerId", a.get("tableId"))) for a in audit] == [
        ("suspend", player),
        ("close_table", ex.variables["TABLE"]),
    ]

    assert ex.ran == set(ex.commands), set(ex.commands) - ex.ran


def _players_games(ex: Examples, server: ServerThread, player: str) -> None:
    """MatchService's examples, signed in as the docs' guest: a match found, a finished
    table in its history (its seat handed to a bot), its log opened, the leaderboard."""
    assert "waiting" in ex.first("MatchService.FindMatch")  # then Ctrl-C: it leaves the queue
    signed = (("authorization", f"Bearer {ex.variables['SESSION']}"),)
    bots = [svc.BotSeat(seat=s, bot="random") for s in (1, 2, 3)]
    request = svc.CreateTableRequest(variant="slovenian", players=4, rated=True, bots=bots)
    table = server.stub.CreateTable(request).table_id
    seat = server.stub.JoinTable(svc.JoinTableRequest(table_id=table), metadata=signed).token
    server.stub.HandSeatToBot(svc.HandSeatToBotRequest(token=seat, bot="random"))
    history, store = f"history.{player}", running(server.server).app.ctx.store
    assert server.run(store.wait_for_change(history, 0, 60.0), timeout=90) == 1
    ex.variables["TABLE"] = table
    assert [t["tableId"] for t in ex.run("MatchService.ListHistory")["tables"]] == [table]
    assert ex.run("MatchService.GetProfile")["tables"] == 1
    assert ex.run("MatchService.OpenPlayedTable")["token"]
    board = ex.run("MatchService.ListLeaderboard")["entries"]
    assert [e["playerId"] for e in board] == [player]  # the bots are not rated
