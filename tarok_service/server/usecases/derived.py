"""Ids derived from the server secret, so that asking again finds the same log: the table a
CreateTable request id makes, the table a rematch is played at.

Derived under the current secret AND every previous one the server still accepts: a log made
under a secret since rotated is found again (the same request id makes no second table, the
players of a rematch asking before and after a rotation meet at one table).
"""

from __future__ import annotations

import hashlib
import hmac

from .context import Context

ID_BYTES = 9  # a table id: 18 hexadecimal digits


def candidates(ctx: Context, label: str) -> list[str]:
    """The ids `label` derives, under the current secret first, then the previous ones."""
    return [
        hmac.new(s, label.encode(), hashlib.sha256).hexdigest()[: 2 * ID_BYTES]
        for s in ctx.config.accepted_secrets
    ]


async def derived_id(ctx: Context, label: str) -> str:
    """The id `label` derives: the first candidate whose log exists, else the current one."""
    ids = candidates(ctx, label)
    for known in ids[1:]:
        if await ctx.store.version(known) > 0:
            return known
    return ids[0]
