"""A matchmaking queue folded from its log, and who is matched with whom.

The queue's log holds the tickets opened (MatchTicketOpened), those that left unmatched
(MatchTicketClosed) and the tables made (MatchMade). A table is made for the first group the
waiting tickets allow, first come first served: the oldest ticket takes the next tickets that
fit it and each other (another player, ratings inside both windows), in the order they came;
when the oldest cannot fill a table, the next oldest tries. A ticket that allows bots and has
waited long enough is given bots for the seats nobody fills (with the waiting tickets that
allow bots too). Every replica decides from the log alone, and a MatchMade is appended at the
version it was decided on, so two replicas never seat one ticket twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tarok_proto.tarok.v1 import matches_pb2 as mt

from ..usecases.context import Context
from . import logs

LEASE = 15.0  # seconds a ticket waits without its stream renewing it (MatchTicketRenewed)


def window(ticket: mt.MatchTicketOpened, now: float) -> float:
    """How far from the ticket's rating an opponent may be now (inf: anyone)."""
    if ticket.window <= 0:
        return math.inf
    return ticket.window + ticket.widen_per_second * max(0.0, now - ticket.opened)


def fits(a: mt.MatchTicketOpened, b: mt.MatchTicketOpened, now: float) -> bool:
    """Whether two tickets may sit at one table: two players, each inside the other's window."""
    gap = abs(a.rating - b.rating)
    return a.player_id != b.player_id and gap <= min(window(a, now), window(b, now))


def bots_due(ticket: mt.MatchTicketOpened, now: float) -> bool:
    return ticket.bots_after > 0 and now >= ticket.opened + ticket.bots_after


@dataclass
class Queue:
    """A queue's log folded up to `version`."""

    version: int = 0
    tickets: dict[str, mt.MatchTicketOpened] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    made: dict[str, tuple[str, int]] = field(default_factory=dict)  # ticket -> (table, seat)
    tables: dict[str, mt.MatchMade] = field(default_factory=dict)  # table id -> MatchMade
    leases: dict[str, float] = field(default_factory=dict)  # ticket -> waits until (renewed)

    def apply(self, body: logs.Body) -> None:
        if isinstance(body, mt.MatchTicketOpened):
            self.tickets[body.ticket_id] = body
            self.leases[body.ticket_id] = body.opened + LEASE
        elif isinstance(body, mt.MatchTicketRenewed):
            self.leases[body.ticket_id] = max(self.leases.get(body.ticket_id, 0.0), body.until)
        elif isinstance(body, mt.MatchTicketClosed):
            self.closed.add(body.ticket_id)
        elif isinstance(body, mt.MatchMade):
            self.tables[body.table_id] = body
            for seat, ticket in enumerate(body.tickets):
                if ticket:
                    self.made[ticket] = (body.table_id, seat)

    async def refresh(self, ctx: Context, log_id: str) -> None:
        """Fold the entries appended since `version`."""
        for item in await ctx.store.read(log_id, self.version):
            self.apply(logs.decode(item))
            self.version = item.seq

    def waiting(self, now: float) -> list[mt.MatchTicketOpened]:
        """The open tickets, oldest first (not closed, matched, lapsed or left unrenewed)."""
        return [
            t
            for tid, t in self.tickets.items()
            if tid not in self.closed
            and tid not in self.made
            and min(t.expires, self.leases[tid]) > now
        ]

    def group(self, players: int, now: float) -> list[mt.MatchTicketOpened] | None:
        """The tickets of the next table to make (fewer than `players`: bots fill the rest),
        or None when the waiting tickets allow no table yet."""
        waiting = self.waiting(now)
        for i, anchor in enumerate(waiting):
            chosen = [anchor]
            for ticket in waiting[i + 1 :]:
                if len(chosen) == players:
                    break
                if all(fits(ticket, c, now) for c in chosen):
                    chosen.append(ticket)
            if len(chosen) == players:
                return chosen
            if bots_due(anchor, now):
                return [t for t in chosen if t.bots_after > 0]
        return None

    def next_change(self, now: float) -> float:
        """When the waiting tickets next allow something new by time alone (bots due, a
        ticket lapsing, a window widening): a time to look again without news."""
        times = [math.inf]
        for ticket in self.waiting(now):
            times.append(min(ticket.expires, self.leases[ticket.ticket_id]))
            if ticket.bots_after > 0:
                times.append(ticket.opened + ticket.bots_after)
            if ticket.window > 0 and ticket.widen_per_second > 0:
                times.append(now + 1.0)
        return min(t for t in times if t > now)
