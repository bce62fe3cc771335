"""No seat ever receives a card it may not see, for every registered variant and player count.

Everything a seat (and a spectator) receives during play is recorded: views after every
move, watch streams with views, and the filtered log now and then. Afterwards the complete
log is replayed through the engine to learn when each card first became visible to each
viewer (`variant.view(state, seat)`: visible cards, the called card, public facts). Every
Card message a viewer received - and every card code in a move id - must have been visible
to that viewer, in that deal, at the version of the message.
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator

import pytest
from google.protobuf.message import Message
from tarok_proto.tarok.v1 import events_pb2, views_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant, all_variants, find_variant

from .harness import PLAYING, ServerThread, choose, new_table, view

Seen = dict[tuple[int, int | None, str], int]  # (deal, viewer, card code) -> first version
CASES = [(v.id, n) for v in all_variants() for n in v.player_counts]


def cards_in(message: Message) -> Iterator[str]:
    """Codes of every tarok.v1.Card anywhere inside `message`."""
    if message.DESCRIPTOR.full_name == "tarok.v1.Card":
        yield message.code  # type: ignore[attr-defined]
        return
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated:
            if field.message_type.GetOptions().map_entry:
                continue
            for item in value:
                yield from cards_in(item)
        else:
            yield from cards_in(value)


class Recorder:
    """What each viewer received: (viewer, message)."""

    def __init__(self) -> None:
        self.items: list[tuple[int | None, Message]] = []
        self.lock = threading.Lock()

    def add(self, viewer: int | None, message: Message) -> None:
        with self.lock:
            self.items.append((viewer, message))


def watch_all(
    stub: svc_grpc.TarokServiceStub, tokens: dict[int | None, str], rec: Recorder
) -> list[threading.Thread]:
    def follow(viewer: int | None, token: str) -> None:
        request = svc.WatchTableRequest(token=token, with_views=True)
        for item in stub.WatchTable(request, timeout=120):
            rec.add(viewer, item)

    threads = [threading.Thread(target=follow, args=(v, t)) for v, t in tokens.items()]
    for thread in threads:
        thread.start()
    return threads


def play_recording(
    stub: svc_grpc.TarokServiceStub, tokens: dict[int | None, str], rec: Recorder, seed: int
) -> None:
    """Random play; the mover's view, one other view and now and then a log are recorded
    (the watch streams already carry every viewer's view after every move)."""
    rng, viewers, moves = random.Random(seed), list(tokens), 0
    while True:
        other = viewers[moves % len(viewers)]
        public = view(stub, tokens[other])
        rec.add(other, public)
        if moves % 5 == 0:
            rec.add(other, stub.GetTableLog(svc.GetTableLogRequest(token=tokens[other])).log)
        if public.status != PLAYING:
            return
        turn = public.hand.turn
        mine = view(stub, tokens[turn])
        rec.add(turn, mine)
        stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=choose(mine, rng)))
        moves += 1


def known(variant: Variant, hand: HandState, viewer: int | None) -> set[str]:
    deck = variant.deck(hand.rules)
    shown = variant.view(hand, viewer)
    codes = {deck.codes[c] for c in shown.visible_cards()}
    codes.update(f.value for f in shown.facts if f.value in deck.by_code)
    if shown.called:
        codes.add(shown.called)
    return codes


def first_seen(log: events_pb2.TableLog, viewers: list[int | None]) -> Seen:
    """Replay the complete log with the engine: when each card became visible to whom."""
    created = log.events[0].table_created
    variant = find_variant(created.variant)
    rules = variant.make_rules(created.players, dict(created.options))
    deck = variant.deck(rules)
    seen: Seen = {}
    hand, deal = None, 0
    for event in log.events:
        kind = event.WhichOneof("body")
        if kind == "hand_dealt":
            d = event.hand_dealt
            deal = d.deal_number
            hand = variant.deal(rules, [deck.by_code[c] for c in d.order], d.dealer)
        elif kind == "move_made":
            assert hand is not None
            hand = variant.apply(hand, Move.parse(event.move_made.move_id), check=False)
        if hand is None or kind not in ("hand_dealt", "move_made"):
            continue
        for viewer in viewers:
            for code in known(variant, hand, viewer):
                seen.setdefault((deal, viewer, code), event.version)
    return seen


def check_view(seen: Seen, viewer: int | None, v: views_pb2.TableView) -> None:
    for code in cards_in(v):
        first = seen.get((v.deal_number, viewer, code))
        assert first is not None and first <= v.version, (viewer, code, v.version, first)


def check_events(seen: Seen, viewer: int | None, events: list[events_pb2.Event], deal: int) -> int:
    """Check log/stream events in order; returns the deal number reached."""
    for event in events:
        kind = event.WhichOneof("body")
        if kind == "hand_dealt":
            deal = event.hand_dealt.deal_number
            assert not event.hand_dealt.order, "the dealt order leaked"
        if kind == "table_created":
            assert not event.table_created.deals, "preset deals leaked"
        codes = list(cards_in(event))
        if kind == "move_made":
            value = Move.parse(event.move_made.move_id).value
            codes += [t for t in re.split(r"[,+]", value) if t]
            codes = [c for c in codes if any(k[2] == c for k in seen)]
        for code in codes:
            first = seen.get((deal, viewer, code))
            assert first is not None and first <= event.version, (viewer, code, event.version)
    return deal


def check(seen: Seen, viewer: int | None, message: Message, deals: dict[int | None, int]) -> None:
    if isinstance(message, views_pb2.TableView):
        check_view(seen, viewer, message)
    elif isinstance(message, events_pb2.TableLog):
        if message.complete:  # the table had finished: everything may be shown
            assert message.events[-1].HasField("table_closed")
            return
        check_events(seen, viewer, list(message.events), 0)
    elif isinstance(message, svc.WatchTableResponse):
        item = message.WhichOneof("item")
        if item == "view":
            check_view(seen, viewer, message.view)
        elif item == "event":
            deals[viewer] = check_events(seen, viewer, [message.event], deals.get(viewer, 0))


@pytest.mark.parametrize(("variant_id", "players"), CASES)
def test_no_seat_receives_a_card_it_may_not_see(
    server: ServerThread, variant_id: str, players: int
) -> None:
    stub = server.stub
    table_id, seat_tokens = new_table(stub, players=players, variant=variant_id, hands=1)
    spectator = stub.JoinTable(svc.JoinTableRequest(table_id=table_id, spectator=True)).token
    tokens: dict[int | None, str] = {i: t for i, t in enumerate(seat_tokens)}
    tokens[None] = spectator
    rec = Recorder()
    threads = watch_all(stub, tokens, rec)
    play_recording(stub, tokens, rec, seed=players)
    for thread in threads:
        thread.join(60)
    complete = stub.GetTableLog(svc.GetTableLogRequest(token=spectator)).log
    assert complete.complete
    seen = first_seen(complete, list(tokens))
    deals: dict[int | None, int] = {}
    for viewer, message in rec.items:
        check(seen, viewer, message, deals)
    counts = {v: sum(1 for w, _ in rec.items if w == v) for v in tokens}
    assert all(n > 10 for n in counts.values())


def test_the_checker_catches_a_leak(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub, players=4)
    mine, other = view(stub, tokens[0]), view(stub, tokens[1])
    seen: Seen = {(mine.deal_number, 0, c.code): 1 for c in mine.hand.cards}
    check_view(seen, 0, mine)
    with pytest.raises(AssertionError):
        check_view(seen, 0, other)  # seat 1's cards in a message to seat 0


def test_concealed_discards_are_hidden_from_the_others(server: ServerThread) -> None:
    stub = server.stub
    for seed in range(40):
        _, tokens = new_table(stub, players=4)
        rng = random.Random(seed)
        while True:
            public = view(stub, tokens[0])
            if public.status != PLAYING:
                break
            turn = public.hand.turn
            move = choose(view(stub, tokens[turn]), rng)
            stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=move))
            if move.startswith("discard:") and not move.startswith("discard:T"):
                logs = [stub.GetTableLog(svc.GetTableLogRequest(token=t)).log for t in tokens]
                last = [lg.events[-1].move_made for lg in logs]
                assert last[turn].move_id == move and not last[turn].hidden
                assert all(
                    m.hidden and m.move_id == "discard" for i, m in enumerate(last) if i != turn
                )
                return
    pytest.fail("no concealed discard in 40 random tables")
