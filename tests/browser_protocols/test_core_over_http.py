"""The core service tests, run again over every protocol of the HTTP port.

The test functions are the gRPC service suite's own (imported, not copied); this package's
`stub` fixture makes each of them run over Connect JSON, Connect binary, gRPC-Web (binary and
JSON) and native gRPC spoken to the HTTP port.
"""

from __future__ import annotations

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
    test_join_request_id_is_idempotent,
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

__all__ = [
    "test_a_legal_move_advances_the_table",
    "test_bad_and_expired_tokens",
    "test_create_table_errors_name_the_field",
    "test_create_with_options_and_preset",
    "test_errors_write_nothing_and_carry_stable_reasons",
    "test_full_match_scores_every_hand",
    "test_join_request_id_is_idempotent",
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
