"""What a log records about a hand's score, and what replay checks of it.

A recorded HandScored is authoritative in its numbers: the scores, penalties, pot and
radelci of the hand, the running totals, and the settlement (what each seat was credited,
line by line). Its lines' wording is presentation and is never compared, so a label can be
reworded without breaking a stored table.
"""

from __future__ import annotations

from tarok_proto.tarok.v1 import results_pb2

from ...engine.match import SettledLine, Settlement
from ...engine.outcome import HandResult, ScoreLine


def settlement_msg(settled: Settlement) -> results_pb2.Settlement:
    msg = results_pb2.Settlement(amounts=settled.amounts, pot=settled.pot)
    for line in settled.lines:
        msg.lines.add(id=line.id, seat=line.seat, amount=line.amount)
    return msg


def settlement_of(msg: results_pb2.Settlement) -> Settlement:
    lines = tuple(SettledLine(x.id, x.seat, x.amount) for x in msg.lines)
    return Settlement(tuple(msg.amounts), lines, msg.pot)


def result_of(msg: results_pb2.HandResult) -> HandResult:
    """The engine value of a recorded result (for tables whose results are not re-derived)."""
    return HandResult(
        contract=msg.contract,
        declarer=msg.declarer if msg.HasField("declarer") else None,
        team=tuple(msg.team),
        won=msg.won if msg.HasField("won") else None,
        scores=tuple(msg.scores),
        penalties=tuple(msg.penalties),
        side_points=tuple(msg.side_points),
        lines=tuple(ScoreLine(x.item, x.points, tuple(x.seats)) for x in msg.lines),
        radelci=msg.radelci,
        redeal=msg.redeal,
        pot=msg.pot,
    )


def _numbers(msg: results_pb2.HandResult) -> tuple[object, ...]:
    return (
        list(msg.scores),
        list(msg.penalties),
        list(msg.totals),
        msg.pot,
        msg.radelci,
        msg.redeal,
    )


def _settled_numbers(msg: results_pb2.Settlement) -> tuple[object, ...]:
    lines = sorted((x.id, x.seat, x.amount) for x in msg.lines)
    return list(msg.amounts), msg.pot, lines


def differs(derived: results_pb2.HandResult, recorded: results_pb2.HandResult) -> str | None:
    """What of a re-derived result disagrees with the recorded one (None: nothing). Only
    numbers are compared; a settlement only when the log recorded one (older logs did not)."""
    if _numbers(derived) != _numbers(recorded):
        return "hand result"
    if recorded.HasField("settled") and differs_settled(derived.settled, recorded.settled):
        return "settlement"
    return None


def differs_settled(derived: results_pb2.Settlement, recorded: results_pb2.Settlement) -> bool:
    return _settled_numbers(derived) != _settled_numbers(recorded)


def explains(settled: Settlement, before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether a settlement adds up: lines to amounts per seat, and before + amounts == after."""
    if len(settled.amounts) != len(before) or len(before) != len(after):
        return False
    per_seat = [0] * len(before)
    for line in settled.lines:
        if not 0 <= line.seat < len(per_seat):
            return False
        per_seat[line.seat] += line.amount
    moved = [b + a for b, a in zip(before, settled.amounts, strict=True)]
    return per_seat == list(settled.amounts) and moved == list(after)
