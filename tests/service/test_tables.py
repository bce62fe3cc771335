"""Ping, ListVariants, CreateTable, JoinTable and GetTableView over gRPC, errors included."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from tarok_proto.tarok.v1 import cards_pb2
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

from tarok_service.server.usecases.tokens import TokenSigner
from tarok_service.variants.registry import all_variants

from .harness import PLAYING, SEATING, SECRET, ServerThread, create, expect_error, seat_all, view

Stub = svc_grpc.TarokServiceStub
INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION


def test_ping_echoes(stub: Stub) -> None:
    assert stub.Ping(svc.PingRequest(payload=b"hi")).payload == b"hi"


def test_health_and_reflection(server: ServerThread) -> None:
    health = health_pb2_grpc.HealthStub(server.channel)
    reply = health.Check(health_pb2.HealthCheckRequest(service="tarok.v1.TarokService"))
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflect = reflection_pb2_grpc.ServerReflectionStub(server.channel)
    ask = reflection_pb2.ServerReflectionRequest(list_services="")
    services = next(iter(reflect.ServerReflectionInfo(iter([ask]))))
    names = {s.name for s in services.list_services_response.service}
    assert "tarok.v1.TarokService" in names and "grpc.health.v1.Health" in names


def test_list_variants_covers_the_registry(stub: Stub) -> None:
    reply = stub.ListVariants(svc.ListVariantsRequest())
    by_id = {v.id: v for v in reply.variants}
    assert set(by_id) == {v.id for v in all_variants()}
    slo = by_id["slovenian"]
    assert slo.name and set(slo.player_counts) == {3, 4}
    assert any(o.name == "radelc_mode" and "own" in o.allowed for o in slo.options)
    four = next(r for r in slo.rules if r.players == 4)
    assert {"three", "klop", "valat"} <= {c.id for c in four.contracts}
    assert any(b.id == "trula" and b.silent > 0 for b in four.bonuses)
    assert len(four.deck) == 54 and four.deck[0].code and four.deck[0].label


def test_create_table_errors_name_the_field(stub: Stub) -> None:
    def bad(
        field: str,
        reason: str,
        variant: str = "slovenian",
        players: int = 4,
        options: dict[str, str] | None = None,
        hands: int = 0,
        preset_deals: list[cards_pb2.Deal] | None = None,
    ) -> None:
        request = svc.CreateTableRequest(
            variant=variant,
            players=players,
            options=options,
            hands=hands,
            preset_deals=preset_deals,
        )
        expect_error(lambda: stub.CreateTable(request), INVALID, reason, field=field)

    bad("variant", "UNKNOWN_VARIANT", variant="chess")
    bad("variant", "UNKNOWN_VARIANT", variant="")
    bad("players", "BAD_PLAYER_COUNT", players=5)
    bad("options.nonsense", "BAD_OPTION", options={"nonsense": "1"})
    bad("options.radelc_mode", "BAD_OPTION", options={"radelc_mode": "nobody"})
    bad("options.max_kontra", "BAD_OPTION", options={"max_kontra": "nine"})
    bad("hands", "INVALID_FIELD", hands=-1)
    bad("preset_deals[0]", "BAD_DEAL", preset_deals=[cards_pb2.Deal(cards=["T1", "T2"])])


def test_create_with_options_and_preset(stub: Stub) -> None:
    deck = [
        c.code
        for c in next(
            r
            for r in stub.ListVariants(svc.ListVariantsRequest()).variants[0].rules
            if r.players == 3
        ).deck
    ]
    table = create(stub, players=3, presets=[deck], options={"radelc_mode": "own"})
    tokens = seat_all(stub, table, 3)
    assert view(stub, tokens[0]).status == PLAYING


def test_every_allowed_choice_of_every_option_is_accepted(stub: Stub) -> None:
    """What a lobby offers is what the server takes: every rule set's every option at each
    choice it lists (both ends of a range), "20/30/40" included."""
    for variant in all_variants():
        players = variant.player_counts[0]
        for spec in variant.option_specs:
            for allowed in spec.allowed():
                for value in allowed.split("..") if ".." in allowed else [allowed]:
                    create(stub, variant.id, players, options={spec.name: value})
        everything = {s.name: s.allowed()[0].split("..")[0] for s in variant.option_specs}
        create(stub, variant.id, players, options=everything)


def test_join_seats_and_errors(stub: Stub) -> None:
    table = create(stub)
    join = stub.JoinTable
    first = join(svc.JoinTableRequest(table_id=table, name="ana", seat=2))
    assert first.seat == 2 and first.token and first.expires.seconds > 0
    expect_error(
        lambda: join(svc.JoinTableRequest(table_id=table, seat=2)), PRECONDITION, "SEAT_TAKEN"
    )
    expect_error(
        lambda: join(svc.JoinTableRequest(table_id=table, seat=4)),
        INVALID,
        "INVALID_FIELD",
        field="seat",
    )
    expect_error(
        lambda: join(svc.JoinTableRequest(table_id=table, name="x" * 41)),
        INVALID,
        "INVALID_FIELD",
        field="name",
    )
    expect_error(
        lambda: join(svc.JoinTableRequest(table_id="nope")),
        grpc.StatusCode.NOT_FOUND,
        "TABLE_NOT_FOUND",
    )
    expect_error(lambda: join(svc.JoinTableRequest()), INVALID, "INVALID_FIELD", field="table_id")
    assert [join(svc.JoinTableRequest(table_id=table)).seat for _ in range(3)] == [0, 1, 3]
    expect_error(lambda: join(svc.JoinTableRequest(table_id=table)), PRECONDITION, "TABLE_FULL")
    watcher = join(svc.JoinTableRequest(table_id=table, spectator=True))
    assert not watcher.HasField("seat")
    seen = view(stub, watcher.token)
    assert not seen.HasField("seat") and not seen.hand.cards and seen.status == PLAYING
    assert [s.name for s in seen.seats] == ["Player 1", "Player 2", "ana", "Player 4"]


def test_join_request_id_takes_one_seat_and_never_replays_its_token(stub: Stub) -> None:
    table = create(stub)
    once = stub.JoinTable(svc.JoinTableRequest(table_id=table, name="a", request_id="j1"))
    again = lambda: stub.JoinTable(  # noqa: E731
        svc.JoinTableRequest(table_id=table, name="a", request_id="j1")
    )
    expect_error(again, PRECONDITION, "ALREADY_JOINED", seat="0")
    assert once.seat == 0
    assert stub.JoinTable(svc.JoinTableRequest(table_id=table)).seat == 1


def test_views_before_and_after_seating(stub: Stub) -> None:
    table = create(stub, hands=2)
    token = stub.JoinTable(svc.JoinTableRequest(table_id=table, seat=1)).token
    waiting = view(stub, token)
    assert waiting.status == SEATING and not waiting.HasField("hand") and waiting.seat == 1
    assert waiting.version == 2 and waiting.hands == 2
    tokens = [token] + [
        stub.JoinTable(svc.JoinTableRequest(table_id=table)).token for _ in range(3)
    ]
    mine = view(stub, tokens[0])
    # A hand without a tarok (about 1 deal in 250) is thrown in: HandScored and HandDealt again.
    assert mine.status == PLAYING and mine.deal_number >= 1
    assert mine.version == 6 + 2 * (mine.deal_number - 1)
    assert len(mine.hand.cards) == 12 and list(mine.hand.hand_sizes) == [12] * 4
    assert mine.hand.HasField("turn") and mine.hand.phase
    turn = mine.hand.turn
    to_move = view(stub, tokens[[1, 0, 2, 3].index(turn)])
    assert to_move.hand.legal_moves and all(m.id and m.label for m in to_move.hand.legal_moves)
    others = [view(stub, t) for t in tokens if view(stub, t).seat != turn]
    assert all(not v.hand.legal_moves for v in others)


def test_bad_and_expired_tokens(stub: Stub) -> None:
    table = create(stub)
    unauth = grpc.StatusCode.UNAUTHENTICATED
    get = stub.GetTableView
    expect_error(lambda: get(svc.GetTableViewRequest(token="")), unauth, "BAD_TOKEN")
    expect_error(lambda: get(svc.GetTableViewRequest(token="a.b")), unauth, "BAD_TOKEN")
    forged, _ = TokenSigner(b"not-the-secret", 60).issue(table, 0, 0)
    expect_error(lambda: get(svc.GetTableViewRequest(token=forged)), unauth, "BAD_TOKEN")
    old, _ = TokenSigner(SECRET, 60).issue(table, 0, 1000.0)
    expect_error(lambda: get(svc.GetTableViewRequest(token=old)), unauth, "TOKEN_EXPIRED")
    ghost, _ = TokenSigner(SECRET, 60).issue("no-such-table", 0, 2e9)
    expect_error(
        lambda: get(svc.GetTableViewRequest(token=ghost)),
        grpc.StatusCode.NOT_FOUND,
        "TABLE_NOT_FOUND",
    )
