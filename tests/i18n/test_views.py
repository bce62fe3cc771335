"""GetTableView, WatchTable and ListVariants in the players' languages (through gRPC)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence

import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import views_pb2

from tarok_service.engine.outcome import HandResult
from tarok_service.engine.view import Fact
from tarok_service.variants.registry import find_variant
from tests.service.harness import ServerThread, config, create, seat_all

Policy = Callable[[list[str]], str | None]  # preferred move among the legal ids, or None
Goal = Callable[[HandResult, tuple[Fact, ...]], bool]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()


@pytest.fixture
def stub(server: ServerThread) -> svc_grpc.TarokServiceStub:
    return server.stub


def prefer(*wanted: str) -> Policy:
    """The first wanted move that is legal, else a pass (or, after a Zwanzigerrufen
    statement, the end of the turn), else a random move."""

    def choose(legal: list[str]) -> str | None:
        for move in (*wanted, "pass", "end"):
            if move in legal:
                return move
        return None

    return choose


def scripted_hand(
    variant_id: str, players: int, policy: Policy, goal: Goal
) -> tuple[list[str], list[str]]:
    """(deal order, move ids) of a hand the policy plays to the goal (searched over seeds
    with the rules engine, then replayed through the service)."""
    variant = find_variant(variant_id)
    rules = variant.make_rules(players)
    deck = variant.deck(rules)
    for seed in range(500):
        rng = random.Random(seed)
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, 0)
        moves: list[str] = []
        while not state.finished:
            legal = [m.id for m in variant.legal_moves(state)]
            pick = policy(legal) if state.phase != "tricks" else None
            move = pick if pick is not None else rng.choice(legal)
            moves.append(move)
            state = variant.apply(state, variant.legal_moves(state)[legal.index(move)])
        result = variant.result(state)
        if (
            result is not None
            and not result.redeal
            and goal(result, variant.view(state, None).facts)
        ):
            return [deck.codes[c] for c in order], moves
    raise AssertionError("no seed reaches the goal")


def play(
    stub: svc_grpc.TarokServiceStub,
    variant: str,
    players: int,
    deal: list[str],
    moves: Sequence[str],
) -> list[str]:
    """A one-hand table with the preset deal, the moves made through SubmitMove; the tokens."""
    table_id = create(stub, variant=variant, players=players, presets=[deal])
    tokens = seat_all(stub, table_id, players)
    for move in moves:
        turn = stub.GetTableView(svc.GetTableViewRequest(token=tokens[0])).view.hand.turn
        stub.SubmitMove(svc.SubmitMoveRequest(token=tokens[turn], move_id=move))
    return tokens


def view_in(
    stub: svc_grpc.TarokServiceStub, token: str, language: str | None = None
) -> views_pb2.TableView:
    """GetTableView with an accept-language header (None: no header)."""
    metadata = (("accept-language", language),) if language else ()
    return stub.GetTableView(svc.GetTableViewRequest(token=token), metadata=metadata).view


def texts(view: views_pb2.TableView) -> list[str]:
    hand = view.hand
    out = [hand.phase_term.label, hand.contract_term.label, hand.result.contract_term.label]
    out += [f.label for f in hand.facts] + [line.label for line in hand.result.lines]
    return out


def test_slovenian_beggar_in_slovenian(stub: svc_grpc.TarokServiceStub) -> None:
    deal, moves = scripted_hand(
        "slovenian", 4, prefer("bid:beggar"), lambda r, _: r.contract == "beggar"
    )
    tokens = play(stub, "slovenian", 4, deal, moves)
    sl = view_in(stub, tokens[1], "sl-SI,sl;q=0.9,en;q=0.5")
    assert sl.locale == "sl"
    assert sl.hand.contract_term.id == "beggar"
    assert sl.hand.contract_term.label == "Berač"
    assert "Licitacija: Berač" in [f.label for f in sl.hand.facts]
    assert [line.id for line in sl.hand.result.lines] == ["beggar"]
    assert view_in(stub, tokens[1]).locale == "sl"  # the seat's language is remembered
    en = view_in(stub, tokens[1], "en")
    assert en.locale == "en" and en.hand.contract_term.label == "Beggar"


def test_slovenian_pagat_ultimo_lines_in_slovenian(stub: svc_grpc.TarokServiceStub) -> None:
    def goal(result: HandResult, _: tuple[Fact, ...]) -> bool:
        return any(line.item.startswith("pagat ultimo") for line in result.lines)

    deal, moves = scripted_hand("slovenian", 4, prefer("bid:two", "announce:pagat_ultimo"), goal)
    tokens = play(stub, "slovenian", 4, deal, moves)
    view = view_in(stub, tokens[0], "sl")
    lines = [x for x in view.hand.result.lines if x.id == "pagat_ultimo"]
    assert lines and all(x.params["mode"] == "announced" for x in lines)
    assert all(x.label == "Pagat ultimo (napovedano)" for x in lines)
    assert "Napoved: Pagat ultimo" in [f.label for f in view.hand.facts]
    assert {
        x.label for x in view_in(stub, tokens[0], "en").hand.result.lines if x.id == "pagat_ultimo"
    } == {"Pagat ultimo (announced)"}


def test_zwanzigerrufen_colour_solo_and_kontra_in_german(stub: svc_grpc.TarokServiceStub) -> None:
    def goal(result: HandResult, facts: tuple[Fact, ...]) -> bool:
        return result.contract == "colour_solo" and any(f.kind == "kontra" for f in facts)

    deal, moves = scripted_hand("zwanzigerrufen", 4, prefer("bid:colour_solo", "kontra:game"), goal)
    tokens = play(stub, "zwanzigerrufen", 4, deal, moves)
    view = view_in(stub, tokens[2], "de-AT")
    assert view.hand.contract_term.label == "Farbensolo"
    kontras = [f for f in view.hand.facts if f.kind == "kontra"]
    assert kontras and kontras[0].value_term.params["kontra"] == "kontra"
    assert kontras[0].label == "Kontra auf Spiel"
    games = [x for x in view.hand.result.lines if x.id == "game"]
    assert games and all(x.label.startswith("Spiel (") for x in games)
    assert all(x.label.endswith(x.params["kontra"].capitalize() + ")") for x in games)


def test_taroky_varsava_and_zid_in_czech(stub: svc_grpc.TarokServiceStub) -> None:
    deal, moves = scripted_hand(
        "taroky", 4, prefer("bid:varsava"), lambda r, _: r.contract == "varsava" and r.pot > 0
    )
    tokens = play(stub, "taroky", 4, deal, moves)
    view = view_in(stub, tokens[3], "cs")
    assert view.hand.contract_term.label == "Varšava"
    labels = [x.label for x in view.hand.result.lines]
    assert labels and all(x == "Varšava: platba do žida" for x in labels)
    assert {x.id for x in view.hand.result.lines} == {"varsava"}


def test_bolognese_matto_in_italian(stub: svc_grpc.TarokServiceStub) -> None:
    table_id = create(stub, variant="tarocco_bolognese", players=4)
    tokens = seat_all(stub, table_id, 4)
    views = [view_in(stub, t, "it") for t in tokens]
    held = [c.label for v in views for c in v.hand.cards if c.code == "Matto"]
    assert held == ["Matto"]
    assert views[0].hand.phase_term.label == "Scarto del mazziere"
    english = [
        c.label for t in tokens for c in view_in(stub, t, "en").hand.cards if c.code == "Matto"
    ]
    assert english == ["Fool (Matto)"]


def test_the_seat_keeps_its_language_and_views_carry_ids(stub: svc_grpc.TarokServiceStub) -> None:
    table_id = create(stub, variant="slovenian", players=4)
    tokens = seat_all(stub, table_id, 4)
    turn = view_in(stub, tokens[0]).hand.turn
    mine = tokens[turn]
    first = stub.GetTableView(svc.GetTableViewRequest(token=mine, locale="de")).view
    assert first.locale == "de" and first.hand.phase_term.label == "Lizitieren"
    again = view_in(stub, mine)
    assert again.locale == "de" and again.hand.phase_term.id == "bidding"
    assert view_in(stub, tokens[(turn + 1) % 4]).locale == "en"
    assert not again.HasField("deadline") and not again.HasField("server_time")
    legal = again.hand.legal_moves
    assert legal and all(m.kind_term.id == m.kind and m.kind_term.label for m in legal)
    bids = [m for m in legal if m.kind == "bid"]
    assert bids and all(m.params["contract"] == m.value for m in bids)
    assert texts(again)[0] == "Lizitieren"


def test_completed_tricks_name_their_leader(stub: svc_grpc.TarokServiceStub) -> None:
    deal, moves = scripted_hand(
        "slovenian", 4, prefer("bid:beggar"), lambda r, _: r.contract == "beggar"
    )
    tokens = play(stub, "slovenian", 4, deal, moves)
    tricks = view_in(stub, tokens[0]).hand.tricks
    assert tricks and all(t.leader == t.plays[0].seat for t in tricks)
    assert all(t.leader == prev.winner for prev, t in itertools.pairwise(tricks))


def test_list_variants_lists_every_vocabulary_with_labels(stub: svc_grpc.TarokServiceStub) -> None:
    reply = stub.ListVariants(svc.ListVariantsRequest(), metadata=(("accept-language", "sl"),))
    slovenian = next(x for x in reply.variants if x.id == "slovenian")
    assert slovenian.locale == "sl" and slovenian.name == "Slovenski tarok"
    vocab = {x.kind: {t.id: t.label for t in x.terms} for x in slovenian.vocabularies}
    assert {
        "phase",
        "move",
        "fact",
        "contract",
        "bonus",
        "kontra",
        "line",
        "reason",
        "card",
    } <= set(vocab)
    assert vocab["contract"]["open_beggar"] == "Odprti berač"
    assert vocab["kontra"] == {"kontra": "Kontra", "re": "Re", "sub": "Sub", "mort": "Mort"}
    assert vocab["card"]["T22"] == "Škis" and vocab["card"]["HQ"] == "♥D"
    assert vocab["reason"]["NOT_YOUR_TURN"] == "Niste na vrsti"
    assert vocab["word"]["zaruf"] == "Zaruf" and vocab["line"]["pagat_ultimo"] == "Pagat ultimo"
    czech = stub.ListVariants(svc.ListVariantsRequest(locale="cs"))
    taroky = next(x for x in czech.variants if x.id == "taroky")
    words = {t.id: t.label for x in taroky.vocabularies if x.kind == "word" for t in x.terms}
    assert words["zid"] == "Žid" and words["obligation"] == "Povinnost"
    rows = {c.id: c.name for c in slovenian.rules[0].contracts}
    assert rows["beggar"] == "Berač"
    plain = stub.ListVariants(svc.ListVariantsRequest())
    assert next(x for x in plain.variants if x.id == "slovenian").name != slovenian.name


def test_watch_table_views_come_in_the_requested_language(
    stub: svc_grpc.TarokServiceStub,
) -> None:
    table_id = create(stub, variant="zwanzigerrufen", players=4)
    tokens = seat_all(stub, table_id, 4)
    stream = stub.WatchTable(
        svc.WatchTableRequest(token=tokens[0]), metadata=(("accept-language", "de"),), timeout=60
    )
    try:
        first = next(iter(stream))
    finally:
        stream.cancel()  # type: ignore[no-untyped-call]  # grpc-stubs leaves it untyped
    assert first.WhichOneof("item") == "view"
    assert first.view.locale == "de" and first.view.hand.phase_term.label == "Lizitieren"
