"""The server's clock beside a deadline, so that a UI counts down without trusting its own."""

from __future__ import annotations

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from tarok_service.server.model.commands import secure_shuffle
from tarok_service.server.present.i18n import Labels
from tarok_service.server.present.views import table_view
from tarok_service.server.tournaments.games import creation_batch
from tarok_service.server.tournaments.log import created_state


def test_a_view_with_a_deadline_carries_the_server_time() -> None:
    spec = tm.TournamentSpec(variant="taroky", players=4, deals=1, duplicate=True)
    spec.entrants.extend(tm.Entrant(name=f"e{i}") for i in range(4))
    spec.time_per_move.FromSeconds(30)
    state = created_state("T" + "0" * 16, 1, tm.TournamentCreated(spec=spec, seed=3))
    table = creation_batch(state, state.games[0], 1000.0, secure_shuffle).table
    assert table.hand is not None and table.hand.turn is not None
    seat = table.hand.turn
    view = table_view(table, seat, Labels("cs", "taroky"), now=1012.5)
    assert view.deadline.seconds == 1030
    assert (view.server_time.seconds, view.server_time.nanos) == (1012, 500_000_000)
    assert view.hand.phase_term.id == "bidding" and view.hand.phase_term.label == "Licitace"
    assert view.hand.legal_moves and all(m.label for m in view.hand.legal_moves)
    # No clock given: the server's own clock is shown beside the deadline all the same.
    assert table_view(table, seat).server_time.seconds > 1_000_000_000
