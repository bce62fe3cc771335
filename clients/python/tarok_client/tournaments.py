"""TournamentService from the SDK: create a tournament, follow it, read standings and results.

from tarok_client import connect
from tarok_client.tournaments import Tournaments

with connect("localhost:50051") as client:
    tours = Tournaments(client, organiser_key="the server's --organiser-key")
    created = tours.create("slovenian", [("h", "heuristic"), ("r", "random")], deals=10)
    for info in tours.watch(created.tournament_id):
        print(info.games_finished, "/", info.games)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc
from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from .sdk import Client, TarokError

FINISHED = tm.TOURNAMENT_STATUS_FINISHED
CANCELLED = tm.TOURNAMENT_STATUS_CANCELLED
OVER = (FINISHED, CANCELLED)


class Tournaments:
    """The tournament calls of one client connection.

    `organiser_key` (the server's) is needed to create tournaments; the organiser tokens
    CreateTournament returns are kept (tournament id -> token) and sent with the calls that
    take one, so the creator sees standings, the schedule and exports while it runs."""

    def __init__(self, client: Client, organiser_key: str = "") -> None:
        self.stub = ts_grpc.TournamentServiceStub(client.channel)
        self.timeout = client.call.timeout
        self.organiser_key = organiser_key
        self.organiser_tokens: dict[str, str] = {}

    def _call(self, method: str, request: Any) -> Any:
        try:
            return getattr(self.stub, method)(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise TarokError.from_rpc(error) from None

    def create(
        self,
        variant: str,
        entrants: Sequence[tuple[str, str]],
        deals: int,
        players: int = 4,
        duplicate: bool = False,
        time_per_move: float = 0.0,
        seed: int | None = None,
        options: Mapping[str, str] | None = None,
        parallel_tables: int = 0,
        max_timeouts: int = 0,
        bot_options: Mapping[str, Mapping[str, str]] | None = None,
        check_in: float = 0.0,
        full_rotation: bool = False,
    ) -> ts.CreateTournamentResponse:
        """Create a tournament of (name, bot) entrants; bot "" is a remote entrant (its token
        is in the answer). `bot_options`: bot name -> options of every entrant with that bot
        (e.g. {"pimc": {"budget": "0.05"}})."""
        options_of = bot_options or {}
        spec = tm.TournamentSpec(
            variant=variant,
            players=players,
            options=dict(options or {}),
            entrants=[
                tm.Entrant(name=n, bot=b, bot_options=options_of.get(b, {}) if b else {})
                for n, b in entrants
            ],
            deals=deals,
            duplicate=duplicate,
            max_timeouts=max_timeouts,
            parallel_tables=parallel_tables,
            full_rotation=full_rotation,
        )
        if time_per_move:
            spec.time_per_move.FromNanoseconds(int(time_per_move * 1e9))
        if check_in:
            spec.check_in.FromNanoseconds(int(check_in * 1e9))
        request = ts.CreateTournamentRequest(spec=spec, seed=seed, organiser_key=self.organiser_key)
        response: ts.CreateTournamentResponse = self._call("CreateTournament", request)
        self.organiser_tokens[response.tournament_id] = response.organiser_token
        return response

    def _token(self, tournament_id: str, given: str | None) -> str:
        return self.organiser_tokens.get(tournament_id, "") if given is None else given

    def get(
        self, tournament_id: str, with_games: bool = False, organiser_token: str | None = None
    ) -> tm.TournamentInfo:
        """Progress; standings and (`with_games`) the schedule only once it is over, or for
        the organiser (`organiser_token`; default: the one kept from `create`)."""
        request = ts.GetTournamentRequest(
            tournament_id=tournament_id,
            with_games=with_games,
            organiser_token=self._token(tournament_id, organiser_token),
        )
        response: ts.GetTournamentResponse = self._call("GetTournament", request)
        return response.tournament

    def cancel(
        self, tournament_id: str, reason: str = "", organiser_token: str | None = None
    ) -> tm.TournamentInfo:
        """End a running tournament (organiser only)."""
        request = ts.CancelTournamentRequest(
            tournament_id=tournament_id,
            organiser_token=self._token(tournament_id, organiser_token),
            reason=reason,
        )
        response: ts.CancelTournamentResponse = self._call("CancelTournament", request)
        return response.tournament

    def watch(self, tournament_id: str) -> Iterator[tm.TournamentInfo]:
        """Progress after every change, until the tournament has finished."""
        request = ts.WatchTournamentRequest(tournament_id=tournament_id)
        try:
            for item in self.stub.WatchTournament(request):
                yield item.tournament
        except grpc.RpcError as error:
            raise TarokError.from_rpc(error) from None

    def pause(
        self, tournament_id: str, paused: bool = True, organiser_token: str | None = None
    ) -> tm.TournamentInfo:
        """Pause (no new table starts; the tables being played finish) or resume (organiser)."""
        request = ts.PauseTournamentRequest(
            tournament_id=tournament_id,
            organiser_token=self._token(tournament_id, organiser_token),
            paused=paused,
        )
        response: ts.PauseTournamentResponse = self._call("PauseTournament", request)
        return response.tournament

    def export(self, tournament_id: str, organiser_token: str | None = None) -> str:
        """The results as JSON (standings, every table id with a token for its log); while
        the tournament runs, for its organiser only."""
        request = ts.ExportTournamentRequest(
            tournament_id=tournament_id,
            organiser_token=self._token(tournament_id, organiser_token),
        )
        response: ts.ExportTournamentResponse = self._call("ExportTournament", request)
        return response.json

    def ratings(self, variant: str) -> list[tm.Rating]:
        response: ts.GetRatingsResponse = self._call(
            "GetRatings", ts.GetRatingsRequest(variant=variant)
        )
        return list(response.ratings)
