"""A table's state folded from its event log (the projector), and the checks made on replay.

`fold` is the single source of truth for how events change a table: the command side
(`commands.py`) builds events and folds them to get the state it caches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from tarok_proto.tarok.v1 import events_pb2 as ev

from ...engine.cards import Card, Deck
from ...engine.fastcopy import evolve
from ...engine.match import RECORDED, MatchState, Settlement
from ...engine.moves import Move
from ...engine.options import Rules
from ...engine.outcome import HandResult
from ...engine.state import HandState
from ...engine.variant import Variant
from ...variants.registry import find_variant
from .. import errors as e
from . import events, recorded, snapshots, wire

SEATING, PLAYING, FINISHED = "seating", "playing", "finished"


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything the service knows about a table at `version` (a cache value, never truth)."""

    table_id: str
    version: int
    variant: Variant[Any]
    rules: Rules
    deck: Deck
    hands: int
    presets: tuple[tuple[str, ...], ...]
    seats: tuple[str | None, ...]
    match: MatchState
    status: str = SEATING
    hand: HandState | None = None
    deal_number: int = 0
    last_result: HandResult | None = None
    hand_done: bool = False  # the current hand has been scored
    time_per_move: float = 0.0  # seconds a seat has for each move; 0: no limit
    deadline: float | None = None  # when the seat to move must have moved (unix seconds)
    timeouts: tuple[int, ...] = ()  # deadlines missed per seat
    tournament_id: str = ""
    commitment: bytes = b""  # the current deal's commitment (HandDealt.commitment)
    display_name: str = ""
    private: bool = False  # not listed in the lobby
    bots: tuple[str, ...] = ()  # the built-in bot playing each seat ("" for a person)
    bot_on_timeout: bool = False  # a seat that times out is handed to a bot
    generations: tuple[int, ...] = ()  # times each seat was taken (tokens carry it)
    player_ids: tuple[str, ...] = ()  # the signed-in player of each seat ("": anonymous, bot)
    rematch_of: str = ""  # the finished table this one is a rematch of
    rated: bool = False  # only signed-in players and bots sit; ratings change at the end
    closed_by: str = ""  # the operator who closed the table before its end (its key's id)
    rules_version: int = 0  # the rules version the table was created under
    last_settled: Settlement | None = None  # what the last scored hand credited, line by line
    checkpoint: ev.TableSnapshot | None = None  # the snapshot after the latest HandScored

    @property
    def rules_current(self) -> bool:
        """Whether the engine's rules are the ones the table was created under: only then are
        recorded results re-derived on replay (else the recorded numbers are authoritative)."""
        return self.rules_version == self.variant.rules_version

    @property
    def players(self) -> int:
        return self.rules.players

    def free_seats(self) -> list[int]:
        return [i for i, name in enumerate(self.seats) if name is None]

    def after_move(
        self, version: int, hand: HandState, deadline: float | None = None
    ) -> TableState:
        """This table with a new hand state (the hot path: `evolve`'s cached copier, no
        `dataclasses.replace` nor the frozen dataclass's checked `__init__`)."""
        return evolve(self, version=version, hand=hand, deadline=deadline)


def created(table_id: str, version: int, payload: ev.TableCreated) -> TableState:
    """The state right after TableCreated."""
    variant = find_variant(payload.variant)
    rules = variant.make_rules(payload.players, dict(payload.options))
    return TableState(
        table_id=table_id,
        version=version,
        variant=variant,
        rules=rules,
        deck=variant.deck(rules),
        hands=payload.hands,
        presets=tuple(tuple(d.cards) for d in payload.deals),
        seats=(None,) * payload.players,
        match=MatchState.start(payload.players, payload.hands, payload.first_dealer, rules),
        time_per_move=payload.time_per_move.ToNanoseconds() / 1e9,
        timeouts=(0,) * payload.players,
        tournament_id=payload.tournament_id,
        display_name=payload.display_name,
        private=payload.private,
        bots=("",) * payload.players,
        bot_on_timeout=payload.bot_on_timeout,
        generations=(0,) * payload.players,
        player_ids=("",) * payload.players,
        rematch_of=payload.rematch_of,
        rated=payload.rated,
        rules_version=payload.rules_version,
    )


def fold(
    table: TableState | None, table_id: str, version: int, payload: events.Payload
) -> TableState:
    """The table after one more event; ReplayMismatch when a recorded fact does not re-derive."""
    if table is None:
        if isinstance(payload, ev.TableCreated):
            return created(table_id, version, payload)
        raise e.ReplayMismatch(table_id, version, "an event before TableCreated")
    return FOLDS[type(payload)](table, version, payload)


def fold_all(
    table: TableState | None, table_id: str, items: list[tuple[int, events.Payload]]
) -> TableState | None:
    """`fold` over many events; each run of MoveMade events is replayed at once through the
    engine's fast `Variant.replay` (the same result as folding them one by one)."""
    i = 0
    while i < len(items):
        version, payload = items[i]
        if not isinstance(payload, ev.MoveMade) or table is None or table.hand is None:
            table = fold(table, table_id, version, payload)
            i += 1
            continue
        end = i
        while end < len(items) and isinstance(items[end][1], ev.MoveMade):
            end += 1
        run = [p for _, p in items[i:end] if isinstance(p, ev.MoveMade)]
        hand = table.variant.replay(table.hand, [Move.parse(p.move_id) for p in run])
        table = table.after_move(items[end - 1][0], hand, _deadline(run[-1]))
        i = end
    return table


def _seated(table: TableState, version: int, payload: ev.PlayerSeated) -> TableState:
    seats, bots, taken = list(table.seats), list(table.bots), list(table.generations)
    seats[payload.seat], bots[payload.seat] = payload.name, payload.bot
    taken[payload.seat] += 1
    players = list(table.player_ids)
    players[payload.seat] = payload.player_id
    return replace(
        table,
        version=version,
        seats=tuple(seats),
        bots=tuple(bots),
        generations=tuple(taken),
        player_ids=tuple(players),
    )


def _handed_to_bot(table: TableState, version: int, payload: ev.SeatHandedToBot) -> TableState:
    if table.status != PLAYING or table.seats[payload.seat] is None:
        raise e.ReplayMismatch(table.table_id, version, "a seat handed to a bot")
    bots = list(table.bots)
    bots[payload.seat] = payload.bot
    return replace(table, version=version, bots=tuple(bots))


def _left(table: TableState, version: int, payload: ev.PlayerLeft) -> TableState:
    if table.status != SEATING or table.seats[payload.seat] is None:
        raise e.ReplayMismatch(table.table_id, version, "a seat left")
    seats, players = list(table.seats), list(table.player_ids)
    seats[payload.seat], players[payload.seat] = None, ""
    return replace(table, version=version, seats=tuple(seats), player_ids=tuple(players))


def _second_created(table: TableState, version: int, payload: ev.TableCreated) -> TableState:
    raise e.ReplayMismatch(table.table_id, version, "a second TableCreated")


def _moved(table: TableState, version: int, payload: ev.MoveMade) -> TableState:
    return fold_move(table, version, payload, None)


def _dealt(table: TableState, version: int, payload: ev.HandDealt) -> TableState:
    if payload.dealer != table.match.dealer:
        raise e.ReplayMismatch(table.table_id, version, "dealer")
    order = cards_of(table.deck, payload.order)
    hand = table.variant.deal(table.rules, order, payload.dealer)
    return evolve(
        table,
        version=version,
        status=PLAYING,
        hand=hand,
        deal_number=payload.deal_number,
        hand_done=False,
        deadline=_deadline(payload),
        commitment=payload.commitment,
    )


def cards_of(deck: Deck, codes: Iterable[str]) -> list[Card]:
    return [deck.by_code[c] for c in codes]


def fold_move(
    table: TableState, version: int, payload: ev.MoveMade, hand: HandState | None
) -> TableState:
    """The table after a MoveMade; `hand` is the already-validated result, if known."""
    if hand is None:
        assert table.hand is not None
        hand = table.variant.apply(table.hand, Move.parse(payload.move_id), check=False)
    return table.after_move(version, hand, _deadline(payload))


def _deadline(payload: ev.MoveMade | ev.HandDealt) -> float | None:
    return events.seconds(payload.deadline) if payload.HasField("deadline") else None


def _timed_out(table: TableState, version: int, payload: ev.TimedOut) -> TableState:
    hand = table.hand
    if hand is None or hand.turn != payload.seat or table.status != PLAYING:
        raise e.ReplayMismatch(table.table_id, version, "timed-out seat")
    timeouts, bots = list(table.timeouts), list(table.bots)
    if not payload.forfeited:
        timeouts[payload.seat] += 1
    if payload.bot:
        bots[payload.seat] = payload.bot
    return replace(table, version=version, timeouts=tuple(timeouts), bots=tuple(bots))


def scored_payload(table: TableState, result: HandResult, match: MatchState) -> ev.HandScored:
    """The HandScored recording `result`, settled into `match`."""
    msg = wire.result_msg(result)
    if match.settled is not None:
        msg.settled.CopyFrom(recorded.settlement_msg(match.settled))
    return ev.HandScored(
        deal_number=table.deal_number,
        result=msg,
        totals=match.totals,
        radelci=match.radelci,
        pot=match.pot,
    )


def fold_scored(
    table: TableState, version: int, payload: ev.HandScored, result: HandResult, match: MatchState
) -> TableState:
    """`fold` of a HandScored the command side has just derived from `table` (`payload` is
    `scored_payload(table, result, match)`): the same state, without scoring the hand again
    to check it. A table under other rules is folded as the recorded numbers say."""
    if not table.rules_current:
        return fold(table, table.table_id, version, payload)
    return _hand_over(table, version, match, result)


def _scored(table: TableState, version: int, payload: ev.HandScored) -> TableState:
    if not table.rules_current:
        return _scored_as_recorded(table, version, payload)
    assert table.hand is not None
    result = table.variant.result(table.hand)
    if result is None:
        raise e.ReplayMismatch(table.table_id, version, "hand result")
    match = table.variant.settle(table.match, result)
    derived = scored_payload(table, result, match)
    problem = recorded.differs(derived.result, payload.result)
    if problem is not None:
        raise e.ReplayMismatch(table.table_id, version, problem)
    if (derived.totals, derived.radelci, derived.pot) != (
        payload.totals,
        payload.radelci,
        payload.pot,
    ):
        raise e.ReplayMismatch(table.table_id, version, "running totals")
    return _hand_over(table, version, match, result)


def _scored_as_recorded(table: TableState, version: int, payload: ev.HandScored) -> TableState:
    """A table created under other rules: the recorded numbers are taken as they are."""
    before, after = table.match.totals, tuple(payload.totals)
    if len(after) != len(before):
        raise e.ReplayMismatch(table.table_id, version, "running totals")
    result = recorded.result_of(payload.result)
    if payload.result.HasField("settled"):
        settled = recorded.settlement_of(payload.result.settled)
        if not recorded.explains(settled, before, after):
            raise e.ReplayMismatch(table.table_id, version, "settlement")
    else:
        moved = [a - b for a, b in zip(after, before, strict=True)]
        settled = Settlement.of(len(before), [(RECORDED, moved)], payload.pot - table.match.pot)
    match = replace(
        table.match.record(settled.amounts, redeal=result.redeal, settled=settled),
        radelci=tuple(payload.radelci),
        pot=payload.pot,
    )
    return _hand_over(table, version, match, result)


def _hand_over(
    table: TableState, version: int, match: MatchState, result: HandResult
) -> TableState:
    """The table after a HandScored: the settled match, the result, a checkpoint."""
    over = evolve(
        table,
        version=version,
        match=match,
        last_result=result,
        hand_done=True,
        last_settled=match.settled,
    )
    return evolve(over, checkpoint=snapshots.snapshot_of(over))


def closed_payload(match: MatchState) -> ev.TableClosed:
    """The TableClosed recording the end of `match` (after the variant's `close`)."""
    out = ev.TableClosed(
        totals=match.totals, radelci=match.radelci, pot=match.pot, hands_played=match.played
    )
    if match.settled is not None:
        out.adjustments.CopyFrom(recorded.settlement_msg(match.settled))
    return out


def operator_closed(table: TableState, closed_by: str, reason: str) -> ev.TableClosed:
    """The TableClosed of an operator ending `table` now: the totals of the hands scored so
    far (a hand in play is not scored; no end-of-match adjustments)."""
    match = table.match
    return ev.TableClosed(
        totals=match.totals,
        radelci=match.radelci,
        pot=match.pot,
        hands_played=match.played,
        closed_by=closed_by,
        reason=reason,
    )


def _closed(table: TableState, version: int, payload: ev.TableClosed) -> TableState:
    if payload.closed_by:
        recorded_end = operator_closed(table, payload.closed_by, payload.reason)
        if list(recorded_end.totals) != list(payload.totals):
            raise e.ReplayMismatch(table.table_id, version, "final totals")
        return replace(
            table, version=version, status=FINISHED, closed_by=payload.closed_by, deadline=None
        )
    if not table.rules_current:
        return _closed_as_recorded(table, version, payload)
    match = table.variant.close(table.match)
    derived = closed_payload(match)
    if list(match.totals) != list(payload.totals):
        raise e.ReplayMismatch(table.table_id, version, "final totals")
    if payload.HasField("adjustments") and recorded.differs_settled(
        derived.adjustments, payload.adjustments
    ):
        raise e.ReplayMismatch(table.table_id, version, "end-of-match adjustments")
    return replace(table, version=version, match=match, status=FINISHED)


def _closed_as_recorded(table: TableState, version: int, payload: ev.TableClosed) -> TableState:
    before, after = table.match.totals, tuple(payload.totals)
    if len(after) != len(before):
        raise e.ReplayMismatch(table.table_id, version, "final totals")
    if payload.HasField("adjustments"):
        settled = recorded.settlement_of(payload.adjustments)
        if not recorded.explains(settled, before, after):
            raise e.ReplayMismatch(table.table_id, version, "end-of-match adjustments")
    else:
        moved = [a - b for a, b in zip(after, before, strict=True)]
        settled = Settlement.of(len(before), [(RECORDED, moved)])
    match = replace(
        table.match, totals=after, radelci=tuple(payload.radelci), pot=payload.pot, settled=settled
    )
    return replace(table, version=version, match=match, status=FINISHED)


# How each event type changes a table that exists: one entry per type of the `Event` oneof
# (`events.CLASSES`), checked below, so a new event type cannot be forgotten here.
FOLDS: dict[type[Any], Callable[[TableState, int, Any], TableState]] = {
    ev.TableCreated: _second_created,
    ev.PlayerSeated: _seated,
    ev.SeatHandedToBot: _handed_to_bot,
    ev.PlayerLeft: _left,
    ev.HandDealt: _dealt,
    ev.MoveMade: _moved,
    ev.HandScored: _scored,
    ev.TimedOut: _timed_out,
    ev.TableClosed: _closed,
}
assert set(FOLDS) == set(events.CLASSES.values()), "every event type needs its fold"
