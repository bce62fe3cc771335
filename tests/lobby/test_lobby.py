"""ListTables (AIP-132 paging and filters) and CreateTable's lobby settings and request id."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import views_pb2

from ..service.harness import ServerThread, config, expect_error, seat_all

Stub = svc_grpc.TarokServiceStub
INVALID = grpc.StatusCode.INVALID_ARGUMENT


def _page_through(stub: Stub, size: int, filter_text: str = "") -> list[svc.TableSummary]:
    out: list[svc.TableSummary] = []
    token = ""
    for _ in range(10_000):
        page = stub.ListTables(
            svc.ListTablesRequest(page_size=size, page_token=token, filter=filter_text)
        )
        assert len(page.tables) <= size
        out.extend(page.tables)
        token = page.next_page_token
        if not token:
            return out
    raise AssertionError("paging did not end")


@pytest.fixture
def fresh() -> Iterator[ServerThread]:
    running = ServerThread(config())
    yield running
    running.stop()


def test_paging_through_a_thousand_tables(fresh: ServerThread) -> None:
    stub = fresh.stub
    public, private = [], set()
    for i in range(1000):
        variant, players = ("taroky", 4) if i % 4 == 3 else ("slovenian", 4 if i % 2 else 3)
        visibility = svc.TABLE_VISIBILITY_PRIVATE if i % 10 == 9 else svc.TABLE_VISIBILITY_PUBLIC
        request = svc.CreateTableRequest(
            variant=variant, players=players, display_name=f"t{i}", visibility=visibility
        )
        table_id = stub.CreateTable(request).table_id
        if visibility == svc.TABLE_VISIBILITY_PRIVATE:
            private.add(table_id)
        else:
            public.append((table_id, variant, players))
    listed = _page_through(stub, 37)
    assert [t.table_id for t in listed] == [p[0] for p in public]  # oldest first, no repeats
    assert not private & {t.table_id for t in listed}
    taroky = _page_through(stub, 100, 'variant = "taroky"')
    assert [t.table_id for t in taroky] == [p[0] for p in public if p[1] == "taroky"]
    three = _page_through(stub, 500, "variant = slovenian AND players = 3")
    assert [t.table_id for t in three] == [
        p[0] for p in public if p[1] == "slovenian" and p[2] == 3
    ]
    first = listed[0]
    assert first.display_name == "t0" and first.variant == "slovenian"
    assert first.status == views_pb2.TABLE_STATUS_SEATING
    assert [s.free for s in first.seats] == [True] * first.players
    # Fill one table: it leaves "open" and shows up as "playing", with its players' names.
    seat_all(stub, first.table_id, first.players)
    open_ids = {t.table_id for t in _page_through(stub, 500, "state = open")}
    playing = _page_through(stub, 500, "state = playing")
    assert first.table_id not in open_ids and len(open_ids) == len(public) - 1
    assert [t.table_id for t in playing] == [first.table_id]
    assert [s.name for s in playing[0].seats] == [f"p{i}" for i in range(first.players)]
    assert not any(s.free for s in playing[0].seats)


def test_list_errors(stub: Stub) -> None:
    stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4))
    for bad in ("colour = red", "players = many", "state = sleeping", "variant ="):
        expect_error(
            lambda b=bad: stub.ListTables(svc.ListTablesRequest(filter=b)),  # type: ignore[misc]
            INVALID,
            "INVALID_FIELD",
            field="filter",
        )
    page = stub.ListTables(svc.ListTablesRequest(page_size=1))
    expect_error(
        lambda: stub.ListTables(svc.ListTablesRequest(page_token="not-a-token")),
        INVALID,
        "INVALID_FIELD",
        field="page_token",
    )
    if page.next_page_token:  # a token belongs to its filter
        expect_error(
            lambda: stub.ListTables(
                svc.ListTablesRequest(page_token=page.next_page_token, filter="players = 3")
            ),
            INVALID,
            "INVALID_FIELD",
            field="page_token",
        )
    expect_error(
        lambda: stub.ListTables(svc.ListTablesRequest(page_size=-1)),
        INVALID,
        "INVALID_FIELD",
        field="page_size",
    )


def test_create_table_request_id_is_idempotent(stub: Stub) -> None:
    request = svc.CreateTableRequest(
        variant="slovenian", players=4, display_name="Friday", request_id="create-1"
    )
    first = stub.CreateTable(request)
    again = stub.CreateTable(request)
    assert again.table_id == first.table_id
    listed = [t for t in _page_through(stub, 500) if t.table_id == first.table_id]
    assert len(listed) == 1 and listed[0].display_name == "Friday"
    other = stub.CreateTable(
        svc.CreateTableRequest(variant="slovenian", players=4, request_id="create-2")
    )
    assert other.table_id != first.table_id


def test_create_table_lobby_fields_are_checked(stub: Stub) -> None:
    def create(**fields: object) -> object:
        return stub.CreateTable(svc.CreateTableRequest(variant="slovenian", players=4, **fields))  # type: ignore[arg-type]

    expect_error(
        lambda: create(display_name="x" * 61), INVALID, "INVALID_FIELD", field="display_name"
    )
    expect_error(lambda: create(visibility=7), INVALID, "INVALID_FIELD", field="visibility")
    expect_error(lambda: create(request_id="r" * 200), INVALID, "INVALID_FIELD", field="request_id")


def test_private_tables_are_joined_by_id(stub: Stub) -> None:
    hidden = stub.CreateTable(
        svc.CreateTableRequest(
            variant="slovenian", players=4, visibility=svc.TABLE_VISIBILITY_PRIVATE
        )
    ).table_id
    assert hidden not in {t.table_id for t in _page_through(stub, 500)}
    joined = stub.JoinTable(svc.JoinTableRequest(table_id=hidden, name="ana"))
    assert joined.seat == 0
