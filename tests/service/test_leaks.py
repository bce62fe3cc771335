"""No seat ever receives a card it may not see, for every registered variant and player count.

Everything a seat (and a spectator) receives during play is recorded: views after every
move, watch streams with views, the filtered log now and then, and the errors of illegal
moves. Afterwards the complete log is replayed through the engine and the knowledge model of
`tests/engine/knowledge.py` (written from the rules, not from `variant.view`) to learn when
each card first became known to each viewer. Every Card message a viewer received, and every
card named by code or label in any string it received (move ids and labels, fact values, the
called cards, score lines, public group names, error messages), must have been known to that
viewer, in that deal, at the version of the message; a card named by a call may be named.
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.message import Message
from tarok_proto.tarok.v1 import cards_pb2, events_pb2, moves_pb2, views_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.engine.cards import Deck
from tarok_service.engine.moves import Move
from tarok_service.variants.registry import all_variants, find_variant

from ..engine.knowledge import Knowledge, mentioned
from .harness import PLAYING, ServerThread, choose, new_table, reason_of, view

Seen = dict[tuple[int, int | None, str], int]  # (deal, viewer, card code) -> first version
CASES = [(v.id, n) for v in all_variants() for n in v.player_counts]
NAMED = -1  # the viewer key under which cards named by a call are recorded
# String fields that carry no game text (ids, tokens, names chosen by clients, option maps).
NOT_GAME_TEXT = frozenset(
    {"table_id", "token", "tokens", "tournament_id", "request_id", "variant", "json", "bot"}
)


def strings_in(message: Message) -> Iterator[tuple[str, str]]:
    """(field name, text) of every string anywhere inside `message` that may carry game
    text; a call move names its card without saying where it lies, so its id is skipped."""
    if isinstance(message, moves_pb2.LegalMove) and message.kind == "call":
        return
    for field, value in message.ListFields():
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                continue
            for item in value if field.is_repeated else [value]:
                yield from strings_in(item)
        elif field.type == field.TYPE_STRING and field.name not in NOT_GAME_TEXT:
            for text in value if field.is_repeated else [value]:
                yield field.name, text


def cards_in(message: Message) -> Iterator[str]:
    """Codes of every tarok.v1.Card anywhere inside `message`."""
    if isinstance(message, cards_pb2.Card):
        yield message.code
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
        # (viewer, deal, version, card code submitted, error text) of refused moves
        self.errors: list[tuple[int | None, int, int, str, str]] = []
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
        if moves % 9 == 4:
            refuse(stub, tokens[turn], turn, mine, rec, rng)
        stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=choose(mine, rng)))
        moves += 1


def refuse(
    stub: svc_grpc.TarokServiceStub,
    token: str,
    seat: int,
    mine: views_pb2.TableView,
    rec: Recorder,
    rng: random.Random,
) -> None:
    """Submit a move naming a card the seat does not hold; record the error it gets."""
    variant = find_variant(mine.variant)
    deck = variant.deck(variant.make_rules(len(mine.seats), dict(mine.options)))
    held = {c.code for c in mine.hand.cards}
    kind = mine.hand.legal_moves[0].kind
    legal = {m.id for m in mine.hand.legal_moves}  # e.g. calling a king one does not hold
    code = rng.choice([c for c in deck.by_code if c not in held and f"{kind}:{c}" not in legal])
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitMove(svc.SubmitMoveRequest(token=token, move_id=f"{kind}:{code}"))
    _, reason, metadata = reason_of(caught.value)
    details = caught.value.details() if isinstance(caught.value, grpc.Call) else ""
    text = " ".join([details or "", reason, *metadata.values()])
    rec.errors.append((seat, mine.deal_number, mine.version, code, text))


def first_seen(log: events_pb2.TableLog, viewers: list[int | None]) -> tuple[Seen, Deck]:
    """Replay the complete log with the engine and the knowledge model: when each card became
    known to whom (and, under the viewer NAMED, when a call named it)."""
    created = log.events[0].table_created
    variant = find_variant(created.variant)
    rules = variant.make_rules(created.players, dict(created.options))
    deck = variant.deck(rules)
    seen: Seen = {}
    hand, deal, model = None, 0, None
    for event in log.events:
        kind = event.WhichOneof("body")
        if kind == "hand_dealt":
            d = event.hand_dealt
            deal = d.deal_number
            hand = variant.deal(rules, [deck.by_code[c] for c in d.order], d.dealer)
            model = Knowledge.dealt(variant, hand)
        elif kind == "move_made":
            assert hand is not None and model is not None
            move = Move.parse(event.move_made.move_id)
            after = variant.apply(hand, move, check=False)
            model.observe(hand, move, after)
            hand = after
        if model is None or kind not in ("hand_dealt", "move_made"):
            continue
        for viewer in viewers:
            for card in model.of(viewer):
                seen.setdefault((deal, viewer, deck.codes[card]), event.version)
        for card in model.named:
            seen.setdefault((deal, NAMED, deck.codes[card]), event.version)
    return seen, deck


def may_know(seen: Seen, deal: int, viewer: int | None, code: str, version: int) -> bool:
    for who in (viewer, NAMED):
        first = seen.get((deal, who, code))
        if first is not None and first <= version:
            return True
    return False


def check_strings(
    seen: Seen, deck: Deck, viewer: int | None, message: Message, deal: int, version: int
) -> None:
    for name, text in strings_in(message):
        for card in mentioned(deck, text):
            code = deck.codes[card]
            assert may_know(seen, deal, viewer, code, version), (viewer, name, text, version)


def check_view(seen: Seen, deck: Deck, viewer: int | None, v: views_pb2.TableView) -> None:
    for code in cards_in(v):
        first = seen.get((v.deal_number, viewer, code))
        assert first is not None and first <= v.version, (viewer, code, v.version, first)
    check_strings(seen, deck, viewer, v, v.deal_number, v.version)


def check_events(
    seen: Seen, deck: Deck, viewer: int | None, events: list[events_pb2.Event], deal: int
) -> int:
    """Check log/stream events in order; returns the deal number reached. A free table's deal
    is revealed (order, salt, every hand) once its hand has been scored: allowed only then."""
    scored = {e.hand_scored.deal_number for e in events if e.HasField("hand_scored")}
    for event in events:
        kind = event.WhichOneof("body")
        if kind == "hand_dealt":
            deal = event.hand_dealt.deal_number
            if event.hand_dealt.order:
                assert deal in scored, "the dealt order leaked before its hand was over"
                continue
        if kind == "table_created":
            assert not event.table_created.deals, "preset deals leaked"
        codes = list(cards_in(event))
        if kind == "move_made":
            value = Move.parse(event.move_made.move_id).value
            codes += [t for t in re.split(r"[,+]", value) if t in deck.by_code]
        for code in codes:
            assert may_know(seen, deal, viewer, code, event.version), (viewer, code, event.version)
        check_strings(seen, deck, viewer, event, deal, event.version)
    return deal


def check(
    seen: Seen, deck: Deck, viewer: int | None, message: Message, deals: dict[int | None, int]
) -> None:
    if isinstance(message, views_pb2.TableView):
        check_view(seen, deck, viewer, message)
    elif isinstance(message, events_pb2.TableLog):
        if message.complete:  # the table had finished: everything may be shown
            assert message.events[-1].HasField("table_closed")
            return
        check_events(seen, deck, viewer, list(message.events), 0)
    elif isinstance(message, svc.WatchTableResponse):
        item = message.WhichOneof("item")
        if item == "view":
            check_view(seen, deck, viewer, message.view)
        elif item == "event":
            events = [message.event]
            deals[viewer] = check_events(seen, deck, viewer, events, deals.get(viewer, 0))


@pytest.mark.slow
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
    seen, deck = first_seen(complete, list(tokens))
    deals: dict[int | None, int] = {}
    for viewer, message in rec.items:
        check(seen, deck, viewer, message, deals)
    for viewer, deal, version, submitted, text in rec.errors:
        for card in mentioned(deck, text):
            code = deck.codes[card]
            ok = code == submitted or may_know(seen, deal, viewer, code, version)
            assert ok, (viewer, text)
    counts = {v: sum(1 for w, _ in rec.items if w == v) for v in tokens}
    assert all(n > 10 for n in counts.values())


def test_the_checker_catches_a_leak(server: ServerThread) -> None:
    stub = server.stub
    _, tokens = new_table(stub, players=4)
    mine, other = view(stub, tokens[0]), view(stub, tokens[1])
    seen: Seen = {(mine.deal_number, 0, c.code): 1 for c in mine.hand.cards}
    variant = find_variant(mine.variant)
    deck = variant.deck(variant.make_rules(4))
    check_view(seen, deck, 0, mine)
    with pytest.raises(AssertionError):
        check_view(seen, deck, 0, other)  # seat 1's cards in a message to seat 0


def test_the_checker_catches_a_leaked_string(server: ServerThread) -> None:
    """A card named only in a string (a fact value, a label) is caught like a Card message."""
    stub = server.stub
    _, tokens = new_table(stub, players=4)
    mine, other = view(stub, tokens[0]), view(stub, tokens[1])
    seen: Seen = {(mine.deal_number, 0, c.code): 1 for c in mine.hand.cards}
    variant = find_variant(mine.variant)
    deck = variant.deck(variant.make_rules(4))
    check_view(seen, deck, 0, mine)
    hidden = other.hand.cards[0]
    as_fact = views_pb2.TableView()
    as_fact.CopyFrom(mine)
    as_fact.hand.facts.add(seat=1, kind="discard", value=hidden.code)
    with pytest.raises(AssertionError):
        check_view(seen, deck, 0, as_fact)
    as_label = views_pb2.TableView()
    as_label.CopyFrom(mine)
    as_label.hand.legal_moves.add(id="pass", kind="pass", label=f"Pass, seat 1 has {hidden.label}")
    with pytest.raises(AssertionError):
        check_view(seen, deck, 0, as_label)


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
