"""Keys given to the people who run a server (the organiser key of tournaments, the operator
key of the players feature): one check for all of them, in constant time."""

from __future__ import annotations

import hmac

from .. import errors as e


def check_shared_key(
    configured: str, given: str, *, role: str, flag: str, required: str, wrong: str
) -> None:
    """UNAUTHENTICATED unless `given` is the server's `configured` key: `required` (the
    reason) when the server has none or none is given, `wrong` when it differs. `role` names
    the key in messages ("organiser", "operator"), `flag` the option that sets it."""
    if not configured:
        reason = required
        message = (
            f"this server has no {role} key: start it with {flag} (or TAROK_{role.upper()}_KEY)"
        )
    elif not given:
        reason, message = required, f"{role}_key is required"
    elif not hmac.compare_digest(given.encode(), configured.encode()):
        reason, message = wrong, f"the {role} key is wrong"
    else:
        return
    raise e.ServiceError(e.UNAUTHENTICATED, reason, message)
