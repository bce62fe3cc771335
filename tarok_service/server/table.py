"""A table's state folded from its event log (the projector), and the checks made on replay.

`fold` is the single source of truth for how events change a table: the command side
(`commands.py`) builds events and folds them to get the state it caches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from tarok_proto.tarok.v1 import events_pb2 as ev

from ..engine.cards import Card, Deck
from ..engine.match import MatchState
from ..engine.moves import Move
from ..engine.options import Rules
from ..engine.outcome import HandResult
from ..engine.state import HandState
from ..engine.variant import Variant, find_variant
from . import codec, events
from . import errors as e

SEATING, PLAYING, FINISHED = "seating", "playing", "finished"


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything the service knows about a table at `version` (a cache value, never truth)."""

    table_id: str
    version: int
    variant: Variant
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
    display_name: str = ""
    private: bool = False  # not listed in the lobby
    bots: tuple[str, ...] = ()  # the built-in bot playing each seat ("" for a person)
    bot_on_timeout: bool = False  # a seat that times out is handed to a bot
    generations: tuple[int, ...] = ()  # times each seat was taken (tokens carry it)
    rematch_of: str = ""  # the finished table this one is a rematch of

    @property
    def players(self) -> int:
        return self.rules.players

    def free_seats(self) -> list[int]:
        return [i for i, name in enumerate(self.seats) if name is None]

    def after_move(
        self, version: int, hand: HandState, deadline: float | None = None
    ) -> TableState:
        """This table with a new hand state (the hot path: no `dataclasses.replace`)."""
        return TableState(
            self.table_id,
            version,
            self.variant,
            self.rules,
            self.deck,
            self.hands,
            self.presets,
            self.seats,
            self.match,
            self.status,
            hand,
            self.deal_number,
            self.last_result,
            self.hand_done,
            self.time_per_move,
            deadline,
            self.timeouts,
            self.tournament_id,
            self.display_name,
            self.private,
            self.bots,
            self.bot_on_timeout,
            self.generations,
            self.rematch_of,
        )


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
        rematch_of=payload.rematch_of,
    )


def fold(
    table: TableState | None, table_id: str, version: int, payload: events.Payload
) -> TableState:
    """The table after one more event; ReplayMismatch when a recorded fact does not re-derive."""
    if isinstance(payload, ev.TableCreated):
        if table is not None:
            raise e.ReplayMismatch(table_id, version, "a second TableCreated")
        return created(table_id, version, payload)
    if table is None:
        raise e.ReplayMismatch(table_id, version, "an event before TableCreated")
    if isinstance(payload, ev.PlayerSeated):
        seats, bots, taken = list(table.seats), list(table.bots), list(table.generations)
        seats[payload.seat], bots[payload.seat] = payload.name, payload.bot
        taken[payload.seat] += 1
        return replace(
            table, version=version, seats=tuple(seats), bots=tuple(bots), generations=tuple(taken)
        )
    if isinstance(payload, ev.PlayerLeft):
        if table.status != SEATING or table.seats[payload.seat] is None:
            raise e.ReplayMismatch(table_id, version, "a seat left")
        seats = list(table.seats)
        seats[payload.seat] = None
        return replace(table, version=version, seats=tuple(seats))
    if isinstance(payload, ev.HandDealt):
        return _dealt(table, version, payload)
    if isinstance(payload, ev.MoveMade):
        return fold_move(table, version, payload, None)
    if isinstance(payload, ev.HandScored):
        return _scored(table, version, payload)
    if isinstance(payload, ev.TimedOut):
        return _timed_out(table, version, payload)
    return _closed(table, version, payload)


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


def _dealt(table: TableState, version: int, payload: ev.HandDealt) -> TableState:
    if payload.dealer != table.match.dealer:
        raise e.ReplayMismatch(table.table_id, version, "dealer")
    order = cards_of(table.deck, payload.order)
    hand = table.variant.deal(table.rules, order, payload.dealer)
    return replace(
        table,
        version=version,
        status=PLAYING,
        hand=hand,
        deal_number=payload.deal_number,
        hand_done=False,
        deadline=_deadline(payload),
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


def _scored(table: TableState, version: int, payload: ev.HandScored) -> TableState:
    assert table.hand is not None
    result = table.variant.result(table.hand)
    if result is None or codec.result_msg(result) != payload.result:
        raise e.ReplayMismatch(table.table_id, version, "hand result")
    match = table.variant.settle(table.match, result)
    if list(match.totals) != list(payload.totals) or list(match.radelci) != list(payload.radelci):
        raise e.ReplayMismatch(table.table_id, version, "running totals")
    return replace(table, version=version, match=match, last_result=result, hand_done=True)


def _closed(table: TableState, version: int, payload: ev.TableClosed) -> TableState:
    match = table.variant.close(table.match)
    if list(match.totals) != list(payload.totals):
        raise e.ReplayMismatch(table.table_id, version, "final totals")
    return replace(table, version=version, match=match, status=FINISHED)
