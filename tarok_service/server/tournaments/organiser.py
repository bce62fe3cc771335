"""Who may run and look inside a tournament: the organiser.

Creating a tournament takes the server's organiser key (`tarok serve --organiser-key`); the
answer carries an organiser token for that one tournament, which alone may see its tables
(the schedule, standings, log tokens) while it runs, and cancel it. Organiser tokens are
signed with a key derived from the server secret, so they are never valid as seat or entrant
tokens (nor the other way round).
"""

from __future__ import annotations

from .. import errors as e
from ..usecases.context import Context
from ..usecases.sharedkeys import check_shared_key
from ..usecases.tokens import TokenSigner

ORGANISER_KEY = b"tarok.v1 organiser tokens"


def organiser_signer(ctx: Context) -> TokenSigner:
    config = ctx.config
    return TokenSigner.derived(config.accepted_secrets, ORGANISER_KEY, config.token_ttl_seconds)


def check_key(ctx: Context, given: str) -> None:
    """UNAUTHENTICATED unless `given` is the server's organiser key."""
    check_shared_key(
        ctx.config.organiser_key,
        given,
        role="organiser",
        flag="--organiser-key",
        required=e.ORGANISER_KEY_REQUIRED,
        wrong=e.BAD_ORGANISER_KEY,
    )


def is_organiser(ctx: Context, signer: TokenSigner, token: str, tournament_id: str) -> bool:
    """Whether `token` is this tournament's organiser token (False when none is given;
    UNAUTHENTICATED when it is not a valid organiser token, PERMISSION_DENIED when it is
    another tournament's)."""
    if not token:
        return False
    claim = signer.verify(token, ctx.clock())  # UNAUTHENTICATED when not an organiser token
    if claim.table_id != tournament_id:
        raise e.ServiceError(
            e.PERMISSION_DENIED,
            e.WRONG_TOURNAMENT,
            "the organiser token is for another tournament",
            {"tournament_id": tournament_id},
        )
    return True


sealed = e.sealed  # the error a sealed tournament answers with
