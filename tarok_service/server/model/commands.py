"""Commands: decide which events a request produces (pure apart from the shuffle).

Each command returns the new table state (by folding its events with `table.fold`) and
the event payloads to append in one batch. After a hand ends the server itself adds
HandScored and then HandDealt (next hand, or the same dealer again after a redeal) or
TableClosed, in the same batch as the move that ended it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tarok_proto.tarok.v1 import cards_pb2
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...engine import fairness
from ...engine.moves import EngineBug, Move
from ...engine.state import HandState
from ...engine.variant import Variant
from .. import errors as e
from . import wire
from .events import Payload, seconds, stamp, timestamp
from .fold import PLAYING, TableState, closed_payload, fold, fold_scored, scored_payload

MAX_CHAINED_DEALS = 64  # redeals in a row before giving up (a broken preset deal, say)

# Chooses the card order of the next deal: (card codes, preset?).
Shuffler = Callable[[TableState], tuple[list[str], bool]]


def secure_shuffle(table: TableState) -> tuple[list[str], bool]:
    """The next preset deal if any is left, else a CSPRNG shuffle of the deck."""
    if table.deal_number < len(table.presets):
        return list(table.presets[table.deal_number]), True
    order = list(table.deck.cards)
    secrets.SystemRandom().shuffle(order)
    return [table.deck.codes[c] for c in order], False


@dataclass
class Batch:
    """Events being built for one append, with the table folded as they are added."""

    table: TableState
    payloads: list[Payload] = field(default_factory=list)

    def add(self, payload: Payload) -> None:
        self.table = fold(self.table, self.table.table_id, self.table.version + 1, payload)
        self.payloads.append(payload)

    def add_folded(self, payload: Payload, table: TableState) -> None:
        """Add `payload` whose fold (`table`) the caller already has."""
        self.table = table
        self.payloads.append(payload)


def table_created(
    variant: Variant[Any],
    players: int,
    options: Mapping[str, str],
    hands: int,
    presets: Sequence[Sequence[str]],
) -> ev.TableCreated:
    """The TableCreated event for validated inputs (options resolved to text)."""
    rules = variant.make_rules(players, options)
    return ev.TableCreated(
        variant=variant.id,
        players=players,
        options={k: wire.option_text(v) for k, v in rules.options.items()},
        hands=hands,
        rules_version=variant.rules_version,
        preset=bool(presets),
        deals=[cards_pb2.Deal(cards=list(p)) for p in presets],
        first_dealer=0,
    )


def seat_player(
    table: TableState, seat: int, name: str, shuffle: Shuffler, player_id: str = ""
) -> Batch:
    """PlayerSeated (with the signed-in player, if any), and the first deal when that was the
    last free seat."""
    batch = Batch(table)
    batch.add(ev.PlayerSeated(seat=seat, name=name, player_id=player_id))
    if not batch.table.free_seats():
        deal_next(batch, shuffle)
    return batch


def make_move(
    table: TableState, seat: int, move: Move, hand: HandState, now: float, shuffle: Shuffler
) -> Batch:
    """MoveMade (already validated into `hand`), then scoring and the next deal if it ended."""
    assert table.hand is not None
    payload = ev.MoveMade(seat=seat, move_id=move.id, label=table.variant.label(table.hand, move))
    stamp(payload.time, now)
    # = fold_move(table, version, payload, hand): a new MoveMade has no deadline yet
    batch = Batch(table.after_move(table.version + 1, hand), [payload])
    if hand.finished:
        settle_finished(batch, shuffle)
    if table.time_per_move:
        stamp_deadline(batch, now)
    return batch


def stamp_deadline(batch: Batch, now: float) -> None:
    """Record on the batch's last MoveMade or HandDealt when the seat now to move must move.

    Only tables with a time per move have deadlines; the table state gets the same value
    that folding the stamped event gives on replay.
    """
    table = batch.table
    if not table.time_per_move or table.status != PLAYING or table.hand is None:
        return
    if table.hand.turn is None:
        return
    for payload in reversed(batch.payloads):
        if isinstance(payload, ev.MoveMade | ev.HandDealt):
            stamp(payload.deadline, now + table.time_per_move)
            batch.table = replace(table, deadline=seconds(payload.deadline))
            return


def default_move(table: TableState) -> Move:
    """The safe move played for a late seat: the variant's `default_move` (by default the
    first legal move)."""
    hand = table.hand
    assert hand is not None
    move = table.variant.default_move(hand)
    if move is None:
        raise EngineBug(f"{table.variant.id}: no default move in phase {hand.phase!r}")
    return move


def time_out(table: TableState, now: float, shuffle: Shuffler, forfeited: bool = False) -> Batch:
    """TimedOut for the seat to move, then its default move (and what follows that move).

    `forfeited`: the seat's entrant has forfeited, so the move is played without waiting.
    """
    hand = table.hand
    assert hand is not None and hand.turn is not None
    seat = hand.turn
    missed = timestamp(table.deadline) if table.deadline is not None else timestamp(now)
    batch = Batch(table)
    batch.add(ev.TimedOut(seat=seat, deadline=missed, forfeited=forfeited))
    move = default_move(batch.table)
    after = table.variant.apply(hand, move, check=True)
    made = make_move(batch.table, seat, move, after, now, shuffle)
    return Batch(made.table, batch.payloads + made.payloads)


def deal_next(batch: Batch, shuffle: Shuffler) -> None:
    """HandDealt for the next deal (and, if it is thrown in at once, what follows)."""
    _deal(batch, shuffle)
    settle_finished(batch, shuffle)


def settle_finished(batch: Batch, shuffle: Shuffler) -> None:
    """While the current hand is over and unscored: HandScored, then the next deal or close."""
    for _ in range(MAX_CHAINED_DEALS):
        table = batch.table
        if table.status != PLAYING or table.hand is None or not table.hand.finished:
            return
        if table.hand_done:
            return
        result = table.variant.result(table.hand)
        assert result is not None
        match = table.variant.settle(table.match, result)
        scored = scored_payload(table, result, match)
        batch.add_folded(scored, fold_scored(table, table.version + 1, scored, result, match))
        if match.over:
            batch.add(closed_payload(table.variant.close(match)))
            return
        _deal(batch, shuffle)
    raise e.ServiceError(e.INTERNAL, e.INTERNAL_ERROR, "too many redeals in a row")


def _deal(batch: Batch, shuffle: Shuffler) -> None:
    """HandDealt with the order and its commitment (see `tournament.fairness`)."""
    order, preset = shuffle(batch.table)
    salt = secrets.token_bytes(fairness.SALT_BYTES)
    batch.add(
        ev.HandDealt(
            deal_number=batch.table.deal_number + 1,
            dealer=batch.table.match.dealer,
            preset=preset,
            order=order,
            commitment=fairness.deal_commitment(salt, order),
            salt=salt,
        )
    )
