"""What a viewer receives: table views, and log events filtered to what the viewer may see.

Hidden information leaves only through the engine's `variant.view(state, seat)`; an event
is shown to a viewer only as far as the views before and after it show its cards.
"""

from __future__ import annotations

import re
import time

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import views_pb2

from ...engine.moves import Move
from ...engine.state import HandState
from ..model import recorded, wire
from ..model.events import Payload, timestamp
from ..model.fold import FINISHED, PLAYING, SEATING, TableState
from . import codec
from .i18n import DEFAULT_LOCALE, Labels

STATUS = {
    SEATING: views_pb2.TABLE_STATUS_SEATING,
    PLAYING: views_pb2.TABLE_STATUS_PLAYING,
    FINISHED: views_pb2.TABLE_STATUS_FINISHED,
}
_SPLIT = re.compile(r"[,+]")


def table_view(
    table: TableState, seat: int | None, words: Labels | None = None, now: float | None = None
) -> views_pb2.TableView:
    """The table as `seat` (None: a spectator) sees it now, labelled in `words`' language
    (else the rule set's English); `now` is the server's clock, shown beside the deadline."""
    match = table.match
    msg = views_pb2.TableView(
        table_id=table.table_id,
        version=table.version,
        status=STATUS[table.status],
        variant=table.variant.id,
        players=table.players,
        hands=table.hands,
        hands_played=match.played,
        deal_number=table.deal_number,
        totals=match.totals,
        radelci=match.radelci,
        pot=match.pot,
    )
    if seat is not None:
        msg.seat = seat
    for i, name in enumerate(table.seats):
        msg.seats.add(seat=i, name=name or "", taken=name is not None, bot=table.bots[i])
    if table.hand is not None:
        view = table.variant.view(table.hand, seat)
        msg.hand.CopyFrom(codec.hand_view_msg(table.variant, table.deck, table.hand, view, words))
    terms = words or Labels(DEFAULT_LOCALE, table.variant.id)
    msg.locale = terms.locale
    if table.last_result is not None:
        msg.last_result.CopyFrom(codec.result_view_msg(table.last_result, terms))
        if table.last_settled is not None:
            msg.last_result.settled.CopyFrom(recorded.settlement_msg(table.last_settled))
    if table.deadline is not None:
        msg.deadline.CopyFrom(timestamp(table.deadline))
        msg.server_time.CopyFrom(timestamp(time.time() if now is None else now))
    msg.deal_commitment = table.commitment
    msg.options.update({k: wire.option_text(v) for k, v in table.rules.options.items()})
    msg.display_name = table.display_name
    msg.rematch_of = table.rematch_of
    return msg


def placements(table: TableState, hand: HandState, seat: int | None) -> set[tuple[str, str]]:
    """(where, card code) for every card `seat` sees in this hand state, facts included."""
    view = table.variant.view(hand, seat)
    codes = table.deck.codes
    out = {("hand", codes[c]) for c in view.hand}
    out.update(("trick", codes[c]) for _, c in view.trick)
    out.update(("last_trick", codes[c]) for _, c in view.last_trick)
    for group in view.public:
        out.update((f"public:{group.name}:{group.seat}", codes[c]) for c in group.cards)
    out.update((f"fact:{f.kind}:{f.seat}", f.value) for f in view.facts if f.value)
    if view.called:
        out.add(("called", view.called))
    return out


def move_visible(
    table: TableState, before: HandState, after: HandState, mover: int, move: Move, seat: int | None
) -> bool:
    """Whether `seat` may see the card argument of `mover`'s move.

    Only if the move visibly put each card somewhere the viewer sees it (a trick, a shown
    group, a public fact): a card that merely stays visible where it was (say, in the
    exposed talon) says nothing about where it went, so a concealed discard stays hidden.
    """
    if seat == mover or not move.value:
        return True
    cards = [t for t in _SPLIT.split(move.value) if t in table.deck.by_code]
    if not cards:
        return True
    new = placements(table, after, seat) - placements(table, before, seat)
    shown = {code for _, code in new}
    return all(c in shown for c in cards)


def filter_event(
    before: TableState | None, after: TableState, payload: Payload, seat: int | None, complete: bool
) -> Payload:
    """The payload as `seat` may see it; `complete` (finished table) shows everything."""
    if isinstance(payload, ev.TableCreated):
        return payload if complete else _without_deals(payload)
    if isinstance(payload, ev.HandDealt):
        return _dealt(after, payload, seat, complete)
    if isinstance(payload, ev.MoveMade) and not complete:
        return _move(before, after, payload, seat)
    return payload


def _without_deals(payload: ev.TableCreated) -> ev.TableCreated:
    out = ev.TableCreated()
    out.CopyFrom(payload)
    del out.deals[:]
    return out


def _dealt(
    table: TableState, payload: ev.HandDealt, seat: int | None, complete: bool
) -> ev.HandDealt:
    out = ev.HandDealt(
        deal_number=payload.deal_number,
        dealer=payload.dealer,
        preset=payload.preset,
        commitment=payload.commitment,
    )
    hand = table.hand
    assert hand is not None
    cards = codec.cards_for(table.deck)
    if complete:
        out.order.extend(payload.order)
        out.salt = payload.salt
        for i, held in enumerate(hand.hands):
            cards.fill(out.hands.add(seat=i).cards, held)
        cards.fill(out.talon, hand.talon)
    elif seat is not None:
        cards.fill(out.hands.add(seat=seat).cards, hand.hands[seat])
    return out


def _move(
    before: TableState | None, after: TableState, payload: ev.MoveMade, seat: int | None
) -> ev.MoveMade:
    assert before is not None and before.hand is not None and after.hand is not None
    move = Move.parse(payload.move_id)
    if move_visible(after, before.hand, after.hand, payload.seat, move, seat):
        return payload
    return ev.MoveMade(
        seat=payload.seat,
        move_id=move.kind,
        label=move.kind.capitalize(),
        time=payload.time,
        hidden=True,
    )
