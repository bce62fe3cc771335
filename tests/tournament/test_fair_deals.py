"""Provably fair deals: every deal is committed to before any card is shown, revealed when it
may be, and `verify` accepts honest logs and rejects a log with one changed card."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from google.protobuf import json_format
from tarok_client import connect
from tarok_client.runner import BotRunner, EngineBot
from tarok_client.tournament_cli import fetch_and_verify
from tarok_client.tournaments import Tournaments
from tarok_client.verify import verify_log, verify_tournament
from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from tarok_service.engine import fairness

from ..client.test_cli import run_tarok
from ..service.harness import FINISHED, ServerThread, new_table, step, view
from .helpers import ORGANISER_KEY, start_runner, wait_finished


def _log(server: ServerThread, token: str) -> ev.TableLog:
    return server.stub.GetTableLog(svc.GetTableLogRequest(token=token)).log


def _dealt(log: ev.TableLog) -> list[ev.HandDealt]:
    return [e.hand_dealt for e in log.events if e.HasField("hand_dealt")]


@pytest.mark.slow
def test_a_free_table_commits_reveals_and_verifies(server: ServerThread, tmp_path: Path) -> None:
    table_id, tokens = new_table(server.stub, players=4, hands=2)
    rng = random.Random(3)
    seat_logs: dict[int, ev.TableLog] = {}
    revealed_early = False
    while (shown := view(server.stub, tokens[0])).status != FINISHED:
        first = _dealt(_log(server, tokens[0]))
        assert first and all(len(d.commitment) == 32 for d in first)
        assert shown.deal_commitment == first[-1].commitment  # the view carries it too
        current = first[-1].deal_number
        assert not first[-1].order and not first[-1].salt  # the deal being played is sealed
        for seat, token in enumerate(tokens):  # what each seat was shown, kept by the seat
            seat_logs[seat] = _log(server, token)
        if any(d.order for d in first if d.deal_number < current):
            revealed_early = True  # an earlier hand of this table is over: revealed already
        step(server.stub, tokens, rng)
    assert revealed_early
    complete = _log(server, tokens[0])
    assert complete.complete
    report = verify_log(complete, list(seat_logs.values()))
    assert report.ok, report.problems
    assert report.deals == len(_dealt(complete)) >= 2 and report.seat_hands >= 4

    tampered = ev.TableLog()
    tampered.CopyFrom(complete)
    dealt = next(e.hand_dealt for e in tampered.events if e.HasField("hand_dealt"))
    dealt.order[0], dealt.order[1] = dealt.order[1], dealt.order[0]  # one card moved
    assert not verify_log(tampered).ok
    lied = ev.TableLog()
    lied.CopyFrom(seat_logs[2])
    hand = next(e.hand_dealt for e in lied.events if e.HasField("hand_dealt")).hands[0]
    held = {c.code for c in hand.cards}
    deck = next(e.hand_dealt for e in complete.events if e.HasField("hand_dealt")).order
    hand.cards[0].code = next(c for c in deck if c not in held)  # one card the seat lacked
    assert not verify_log(complete, [lied]).ok

    good, bad = tmp_path / "log.json", tmp_path / "tampered.json"  # `tarok verify` files
    good.write_text(json_format.MessageToJson(complete))
    bad.write_text(json_format.MessageToJson(tampered))
    kept = tmp_path / "seat.json"
    kept.write_text(json_format.MessageToJson(seat_logs[1]))
    done = run_tarok("verify", str(good), "--seat-log", str(kept), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ok"] is True
    refused = run_tarok("verify", str(bad))
    assert refused.returncode == 1 and "FAIL" in refused.stdout
    assert table_id == complete.table_id


@pytest.mark.slow
def test_a_tournament_s_deals_come_from_its_committed_seed(server: ServerThread) -> None:
    entrants = [("remote", ""), ("h", "heuristic"), ("r", "random")]
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        created = tours.create("slovenian", entrants, deals=2, players=3, duplicate=True)
    runner = BotRunner(server.target, [created.entrant_tokens[0].token], EngineBot("random"))
    start_runner(runner).join(60)
    doc = wait_finished(server.target, created.tournament_id)
    assert bytes.fromhex(doc["seed_commitment"]) == created.seed_commitment
    salt = bytes.fromhex(doc["seed_salt"])
    assert fairness.seed_commitment(salt, doc["seed"]) == created.seed_commitment
    with connect(server.target) as client:
        report = fetch_and_verify(client, Tournaments(client), created.tournament_id)
    assert report.ok, report.problems
    assert report.tournament_deals == created.games and report.deals >= created.games
    done = run_tarok("tournament", "verify", created.tournament_id, "--server", server.target)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stdout + done.stderr

    picked = dict(doc, seed=doc["seed"] + 1)  # an organiser who swapped the seed is caught
    assert not verify_tournament(picked, {}).ok
