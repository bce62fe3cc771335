"""`tarok demo`: seat bots at a table, play it over gRPC and print the scores."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from tarok_proto.tarok.v1 import results_pb2, views_pb2

from .bots import RandomBot
from .runner import EngineBot
from .sdk import FINISHED, Client


def play_table(
    client: Client,
    variant: str,
    players: int,
    hands: int,
    seed: int | None,
    out: TextIO,
    bot: str = "random",
) -> views_pb2.TableView:
    """Create a table, seat bots, play it to the end; returns the final view."""
    table_id = client.create(variant, players=players, hands=hands)
    seats = [client.join(table_id, name=f"bot{i + 1}") for i in range(players)]
    bots = [make_bot(bot, None if seed is None else seed + i) for i in range(players)]
    names = [f"bot{i + 1}" for i in range(players)]
    print(f"table {table_id}: {variant}, {players} players, {hands} hand(s)", file=out)
    view = seats[0].view()
    moves, deal, started = 0, 0, time.perf_counter()
    turn = view.hand.turn if view.status != FINISHED and view.hand.HasField("turn") else None
    while turn is not None:
        mine = seats[turn].view()
        reply = seats[turn].submit(bots[turn].choose(mine), expected_version=mine.version)
        moves += 1
        if reply.HasField("result"):
            deal += 1
            print(hand_line(deal, reply.result, names), file=out)
            for line in breakdown(reply.result, names):
                print(f"    {line}", file=out)
            print(f"    running: {standing(seats[0].view(), names)}", file=out)
        turn = reply.turn if reply.HasField("turn") and reply.status != FINISHED else None
    elapsed = time.perf_counter() - started
    final = seats[0].view()
    print_totals(final, names, out)
    rate = moves / elapsed if elapsed > 0 else 0.0
    print(f"{moves} moves in {elapsed:.2f} s ({rate:.0f} moves/s)", file=out)
    return final


def make_bot(name: str, seed: int | None) -> RandomBot | EngineBot:
    """The client's own random bot, or a built-in brain playing from the view."""
    return RandomBot(seed) if name == "random" else EngineBot(name, seed)


def hand_line(deal: int, result: results_pb2.HandResult, names: Sequence[str]) -> str:
    """One line per scored hand: contract, declarer (and partners), scores."""
    if result.redeal:
        return f"deal {deal}: thrown in, dealt again"
    who = "no declarer"
    if result.HasField("declarer"):
        partners = [names[s] for s in result.team if s != result.declarer]
        who = f"declarer {names[result.declarer]}"
        who += f" with {', '.join(partners)}" if partners else " alone"
        who += " - won" if result.won else " - lost"
    scores = " ".join(f"{names[i]} {s:+d}" for i, s in enumerate(result.totals))
    return f"deal {deal}: {result.contract}, {who}; scores {scores}"


def breakdown(result: results_pb2.HandResult, names: Sequence[str]) -> list[str]:
    """The hand's score lines: item, points, and whose (the declarer side when unnamed)."""
    out = []
    for line in result.lines:
        whose = f" ({', '.join(names[s] for s in line.seats)})" if line.seats else ""
        out.append(f"{line.item} {line.points:+d}{whose}")
    if len(result.side_points) == 2:
        out.append(f"card points {result.side_points[0]} : {result.side_points[1]}")
    return out


def standing(view: views_pb2.TableView, names: Sequence[str]) -> str:
    """Running totals, with radelci and the table pot (Czech zid) when the game has them."""
    text = " ".join(f"{names[i]} {t:+d}" for i, t in enumerate(view.totals))
    if any(view.radelci):
        text += "; radelci " + " ".join(str(r) for r in view.radelci)
    if view.pot or view.variant == "taroky":
        text += f"; zid {view.pot}"
    return text


def print_totals(view: views_pb2.TableView, names: Sequence[str], out: TextIO) -> None:
    print(f"final totals after {view.hands_played} hand(s): {standing(view, names)}", file=out)
