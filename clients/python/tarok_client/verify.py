"""Check that a server dealt fairly: every revealed deal matches the commitment published
when it was dealt, the hands each seat was shown came from it, and a tournament's deals are
the ones its committed seed gives (the scheme: docs/fair-deals.md).

from tarok_client.verify import verify_log
report = verify_log(complete_log, seat_logs=[my_log_from_during_play])
assert report.ok, report.problems
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format
from tarok_proto.tarok.v1 import events_pb2 as ev

from tarok_service.engine import fairness
from tarok_service.engine.fairness import deal_orders
from tarok_service.engine.variant import Variant
from tarok_service.variants.registry import find_variant

from . import replay


@dataclass
class Report:
    """What was checked, and every mismatch found (empty: the log passed)."""

    deals: int = 0  # revealed deals whose commitment and hands were checked
    replayed: int = 0  # complete logs replayed move by move to their recorded scores
    sealed: int = 0  # deals not revealed yet (commitment only)
    seat_hands: int = 0  # hands seen by a seat during play, checked against revealed deals
    tournament_deals: int = 0  # preset deals checked against the tournament's seed
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, other: Report) -> None:
        self.deals += other.deals
        self.replayed += other.replayed
        self.sealed += other.sealed
        self.seat_hands += other.seat_hands
        self.tournament_deals += other.tournament_deals
        self.problems += other.problems


def read_log(text: str) -> ev.TableLog:
    """A TableLog from its JSON (GetTableLog with LOG_FORMAT_JSON, `tarok` exports)."""
    return json_format.Parse(text, ev.TableLog())


def _dealt(log: ev.TableLog) -> list[ev.HandDealt]:
    return [e.hand_dealt for e in log.events if e.HasField("hand_dealt")]


def _created(log: ev.TableLog) -> ev.TableCreated | None:
    found = [e.table_created for e in log.events if e.HasField("table_created")]
    return found[0] if found else None


def _codes(cards: Iterable[Any]) -> list[str]:
    return sorted(c.code for c in cards)


class _Table:
    """The rules of a logged table, for re-dealing revealed orders."""

    def __init__(self, created: ev.TableCreated) -> None:
        self.variant: Variant[Any] = find_variant(created.variant)
        self.rules = self.variant.make_rules(created.players, dict(created.options))
        self.deck = self.variant.deck(self.rules)

    def hands(self, order: Sequence[str], dealer: int) -> tuple[list[list[str]], list[str]]:
        """(hand codes per seat, talon codes) from dealing `order`."""
        hand = self.variant.deal(self.rules, [self.deck.by_code[c] for c in order], dealer)
        codes = self.deck.codes
        return [sorted(codes[c] for c in h) for h in hand.hands], sorted(
            codes[c] for c in hand.talon
        )


def verify_log(log: ev.TableLog, seat_logs: Sequence[ev.TableLog] = ()) -> Report:
    """Check every deal of a table's log (revealed ones fully) and each seat log's hands."""
    report = Report()
    created = _created(log)
    if created is None:
        report.problems.append(f"{log.table_id}: the log has no TableCreated")
        return report
    table = _Table(created)
    deck = sorted(table.deck.codes[c] for c in table.deck.cards)
    revealed: dict[int, ev.HandDealt] = {}
    presets = [list(d.cards) for d in created.deals]
    preset_used = 0
    for dealt in _dealt(log):
        where = f"{log.table_id} deal {dealt.deal_number}"
        if len(dealt.commitment) != 32:
            report.problems.append(f"{where}: no commitment")
            continue
        if not dealt.order:
            report.sealed += 1
            continue
        report.deals += 1
        revealed[dealt.deal_number] = dealt
        order = list(dealt.order)
        if fairness.deal_commitment(dealt.salt, order) != dealt.commitment:
            report.problems.append(f"{where}: the order and salt do not match the commitment")
        if sorted(order) != deck:
            report.problems.append(f"{where}: the order is not the deck")
            continue
        if dealt.preset and presets:
            if preset_used >= len(presets) or presets[preset_used] != order:
                report.problems.append(f"{where}: not the table's preset deal {preset_used}")
            preset_used += 1
        hands, talon = table.hands(order, dealt.dealer)
        for shown in dealt.hands:
            if _codes(shown.cards) != hands[shown.seat]:
                report.problems.append(f"{where}: seat {shown.seat}'s hand is not from the order")
        if dealt.talon and _codes(dealt.talon) != talon:
            report.problems.append(f"{where}: the talon is not from the order")
    if log.complete:
        _replay(table, created, log, report)
    for seat_log in seat_logs:
        _check_seat_log(table, log, seat_log, revealed, report)
    return report


def _replay(table: _Table, created: ev.TableCreated, log: ev.TableLog, report: Report) -> None:
    """A complete log: every deal revealed and every move legal up to the recorded scores."""
    if created.rules_version != table.variant.rules_version:
        return  # played under other rules: its scores are not this version's to check
    found = replay.problems(log, table.variant, table.rules, created)
    report.problems += found
    if not found:
        report.replayed += 1


def _check_seat_log(
    table: _Table,
    log: ev.TableLog,
    seat_log: ev.TableLog,
    revealed: Mapping[int, ev.HandDealt],
    report: Report,
) -> None:
    """The hands a seat was shown during play came from the deals revealed later."""
    if seat_log.table_id != log.table_id:
        report.problems.append(f"{seat_log.table_id}: a seat log of another table")
        return
    for dealt in _dealt(seat_log):
        where = f"{log.table_id} deal {dealt.deal_number}"
        final = revealed.get(dealt.deal_number)
        if final is None:
            if log.complete:  # the table's log must reveal every deal a seat was dealt
                report.problems.append(f"{where}: seen by a seat, not revealed in the table's log")
            continue
        if dealt.commitment != final.commitment:
            report.problems.append(f"{where}: the commitment shown during play differs")
            continue
        hands, _ = table.hands(list(final.order), final.dealer)
        for shown in dealt.hands:
            report.seat_hands += 1
            if _codes(shown.cards) != hands[shown.seat]:
                report.problems.append(f"{where}: seat {shown.seat} was shown other cards")


def verify_tournament(
    export: Mapping[str, Any],
    logs: Mapping[str, ev.TableLog],
    seat_logs: Mapping[str, Sequence[ev.TableLog]] | None = None,
) -> Report:
    """A finished tournament (its export): the revealed seed matches the commitment, and
    each logged table's preset deals are the ones the seed gives for its deal (plus
    `verify_log` of each, with the seat logs kept for it)."""
    report = Report()
    seats = seat_logs or {}
    seed, salt = export.get("seed"), export.get("seed_salt")
    if seed is None or salt is None:
        report.problems.append("the tournament's seed is not revealed yet")
        return report
    commitment = bytes.fromhex(export["seed_commitment"])
    if fairness.seed_commitment(bytes.fromhex(salt), int(seed)) != commitment:
        report.problems.append("the seed and salt do not match the seed commitment")
    for game in export["games"]:
        log = logs.get(game["table_id"])
        if log is None:
            continue
        report.add(verify_log(log, seats.get(game["table_id"], ())))
        created = _created(log)
        if created is None:
            continue
        table = _Table(created)
        codes = [table.deck.codes[c] for c in table.deck.cards]
        expected = deal_orders(codes, int(seed), int(game["deal"]))
        if [list(d.cards) for d in created.deals] != expected:
            report.problems.append(
                f"{log.table_id}: its deals are not the seed's deal {game['deal']}"
            )
        else:
            report.tournament_deals += 1
    return report


def verify_files(
    log_paths: Sequence[str], seat_paths: Sequence[str] = (), tournament_path: str | None = None
) -> Report:
    """`tarok verify`: table logs (JSON), seat logs kept during play, a tournament export."""
    logs = {}
    for path in log_paths:
        with open(path, encoding="utf-8") as f:
            log = read_log(f.read())
        logs[log.table_id] = log
    seats: dict[str, list[ev.TableLog]] = {}
    for path in seat_paths:
        with open(path, encoding="utf-8") as f:
            seat_log = read_log(f.read())
        seats.setdefault(seat_log.table_id, []).append(seat_log)
    if tournament_path is None:
        report = Report()
        for table_id, log in logs.items():
            report.add(verify_log(log, seats.get(table_id, ())))
    else:
        with open(tournament_path, encoding="utf-8") as f:
            export = json.load(f)
        report = verify_tournament(export, logs, seats)
        listed = {g["table_id"] for g in export.get("games", [])}
        for table_id in logs.keys() - listed:
            report.problems.append(f"{table_id}: not a table of the tournament")
    for table_id in seats.keys() - logs.keys():
        report.problems.append(f"{table_id}: a seat log without the table's revealed log")
    return report
