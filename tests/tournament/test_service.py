"""TournamentService requests: validation, not found, progress, ratings kept per variant."""

from __future__ import annotations

from functools import partial

import grpc
import pytest
from tarok_client import connect
from tarok_client.tournaments import FINISHED, Tournaments
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ..service.harness import ServerThread, expect_error
from .helpers import ORGANISER_KEY, assert_fair, wait_finished

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def _spec(
    variant: str = "slovenian",
    players: int = 4,
    deals: int = 1,
    options: dict[str, str] | None = None,
    entrants: list[tm.Entrant] | None = None,
) -> tm.TournamentSpec:
    """A valid spec (two random bots, one deal) but for the fields given."""
    if entrants is None:
        entrants = [tm.Entrant(name="a", bot="random"), tm.Entrant(name="b", bot="random")]
    return tm.TournamentSpec(
        variant=variant, players=players, deals=deals, options=options, entrants=entrants
    )


def _create(
    stub: ts_grpc.TournamentServiceStub, spec: tm.TournamentSpec
) -> ts.CreateTournamentResponse:
    request = ts.CreateTournamentRequest(spec=spec, organiser_key=ORGANISER_KEY)
    return stub.CreateTournament(request)


def test_bad_specs_name_the_field(server: ServerThread) -> None:
    stub = ts_grpc.TournamentServiceStub(server.channel)
    cases = [
        (_spec(variant="chess"), "UNKNOWN_VARIANT", "spec.variant"),
        (_spec(players=5), "BAD_PLAYER_COUNT", "spec.players"),
        (_spec(options={"nope": "1"}), "BAD_OPTION", "spec.options.nope"),
        (_spec(deals=0), "INVALID_FIELD", "spec.deals"),
        (_spec(entrants=[]), "INVALID_FIELD", "spec.entrants"),
        (
            _spec(entrants=[tm.Entrant(name="x", bot="alphazero")]),
            "INVALID_FIELD",
            "spec.entrants[0].bot",
        ),
        (
            _spec(
                entrants=[tm.Entrant(name="x", bot="random"), tm.Entrant(name="x", bot="random")]
            ),
            "INVALID_FIELD",
            "spec.entrants[1].name",
        ),
        (  # two remote entrants cannot fill four seats without one sitting twice
            _spec(entrants=[tm.Entrant(name="x"), tm.Entrant(name="y")]),
            "INVALID_FIELD",
            "spec.entrants",
        ),
        (
            _spec(entrants=[tm.Entrant(name="x", bot="pimc", bot_options={"depth": "3"})]),
            "INVALID_FIELD",
            "spec.entrants[0].bot_options",
        ),
    ]
    for spec, reason, field in cases:
        expect_error(partial(_create, stub, spec), INVALID, reason, field=field)


def test_unknown_tournaments_are_not_found(server: ServerThread) -> None:
    stub = ts_grpc.TournamentServiceStub(server.channel)
    for tid in ("T0123456789abcdef", "tournaments", "abc"):
        request = ts.GetTournamentRequest(tournament_id=tid)
        expect_error(
            partial(stub.GetTournament, request),
            grpc.StatusCode.NOT_FOUND,
            "TOURNAMENT_NOT_FOUND",
        )


@pytest.mark.slow
def test_progress_schedule_and_ratings_across_tournaments(server: ServerThread) -> None:
    entrants = [("rating-h", "heuristic"), ("rating-r", "random")]
    with connect(server.target) as client:
        tours = Tournaments(client, ORGANISER_KEY)
        for seed in (1, 2):
            created = tours.create("slovenian", entrants, deals=2, players=3, seed=seed)
            wait_finished(server.target, created.tournament_id)
        info = tours.get(created.tournament_id, with_games=True)
        assert info.status == FINISHED and info.games_finished == info.games == 2
        assert all(g.finished and g.table_id and len(g.seating) == 3 for g in info.game_list)
        rated = {r.name: r for r in tours.ratings("slovenian")}
        # Kept across both tournaments (a table whose declarer side held both is not rated).
        assert 2 < rated["rating-h"].games == rated["rating-r"].games <= 4
        assert rated["rating-h"].mu != rated["rating-r"].mu
        assert "rating-h" not in {r.name for r in tours.ratings("tarocco_bolognese")}
    assert_fair(server.target, created.tournament_id)
