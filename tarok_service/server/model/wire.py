"""Engine values as the event log records them (plain, no labels): option values as text,
a hand's result as a `HandResult` message. The model writes these into events; presentation
adds labels on top (`present/codec.py`)."""

from __future__ import annotations

from tarok_proto.tarok.v1 import results_pb2

from ...engine.options import OptionValue
from ...engine.outcome import HandResult


def option_text(value: OptionValue) -> str:
    """Option values as text: booleans as "true"/"false"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def result_msg(result: HandResult) -> results_pb2.HandResult:
    msg = results_pb2.HandResult(
        contract=result.contract,
        team=result.team,
        scores=result.scores,
        penalties=result.penalties,
        side_points=result.side_points,
        radelci=result.radelci,
        redeal=result.redeal,
        pot=result.pot,
        totals=result.totals,
    )
    if result.declarer is not None:
        msg.declarer = result.declarer
    if result.won is not None:
        msg.won = result.won
    for line in result.lines:
        msg.lines.add(item=line.item, points=line.points, seats=line.seats)
    return msg
