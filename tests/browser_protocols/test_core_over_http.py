"""The core service tests, run again over every protocol of the HTTP port.

The test functions are the gRPC service suite's own (imported, not copied); this package's
`stub` fixture makes each of them run over Connect JSON, Connect binary, gRPC-Web (binary and
JSON) and native gRPC spoken to the HTTP port.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..service import test_moves
from ..service.harness import ServerThread
from ..service.test_moves import (
    test_a_legal_move_advances_the_table,
    test_errors_write_nothing_and_carry_stable_reasons,
    test_full_match_scores_every_hand,
    test_oversized_request_is_resource_exhausted,
    test_repeated_request_id_returns_the_first_answer,
    test_structured_move_equals_move_id,
    test_table_not_started_and_finished,
)
from ..service.test_tables import (
    test_bad_and_expired_tokens,
    test_create_table_errors_name_the_field,
    test_create_with_options_and_preset,
    test_join_request_id_takes_one_seat_and_never_replays_its_token,
    test_join_seats_and_errors,
    test_list_variants_covers_the_registry,
    test_ping_echoes,
    test_views_before_and_after_seating,
)
from ..service.test_watch_log import (
    test_log_as_json,
    test_log_is_filtered_during_play_and_complete_after,
    test_watch_errors,
    test_watch_from_version_and_end_of_table,
)
from .conftest import http_url
from .harness import HttpStub

__all__ = [
    "test_a_legal_move_advances_the_table",
    "test_bad_and_expired_tokens",
    "test_create_table_errors_name_the_field",
    "test_create_with_options_and_preset",
    "test_errors_write_nothing_and_carry_stable_reasons",
    "test_full_match_scores_every_hand",
    "test_join_request_id_takes_one_seat_and_never_replays_its_token",
    "test_join_seats_and_errors",
    "test_list_variants_covers_the_registry",
    "test_log_as_json",
    "test_log_is_filtered_during_play_and_complete_after",
    "test_oversized_request_is_resource_exhausted",
    "test_ping_echoes",
    "test_repeated_request_id_returns_the_first_answer",
    "test_structured_move_equals_move_id",
    "test_table_not_started_and_finished",
    "test_views_before_and_after_seating",
    "test_watch_errors",
    "test_watch_from_version_and_end_of_table",
]


# Whole matches of the newest rule sets cost 20 s each here: each rule set and player count is
# played once over the HTTP port (every one over gRPC in test_moves), the two protocols the
# browser clients speak (the web table's Connect JSON, gRPC-Web binary) taking turns.
FAMILY_OVER_HTTP = [
    (variant, players, ("connect-json", "grpc-web")[i % 2])
    for i, (variant, players) in enumerate(test_moves.FAMILY_MATCHES)
]


@pytest.mark.parametrize(("variant", "players", "protocol"), FAMILY_OVER_HTTP, ids=str)
def test_family_full_matches_over_the_http_port(
    server: ServerThread, variant: str, players: int, protocol: str
) -> None:
    stub: Any = HttpStub(http_url(server), protocol)  # the gRPC stub's methods, over HTTP
    test_moves.test_full_match_of_each_rule_set_and_player_count(stub, variant, players)
