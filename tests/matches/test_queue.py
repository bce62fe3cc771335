"""Who is matched with whom: the queue folded from its entries, first come first served."""

from __future__ import annotations

from tarok_proto.tarok.v1 import matches_pb2 as mt

from tarok_service.server.matches.queue import LEASE, Queue, window


def ticket(
    tid: str,
    player: str,
    *,
    rating: float = 0.0,
    win: float = 0.0,
    widen: float = 0.0,
    bots_after: float = 0.0,
    opened: float = 0.0,
) -> mt.MatchTicketOpened:
    return mt.MatchTicketOpened(
        ticket_id=tid, player_id=player, rating=rating, window=win, widen_per_second=widen,
        bots_after=bots_after, opened=opened, expires=opened + 600,
    )  # fmt: skip


def queue(*tickets: mt.MatchTicketOpened) -> Queue:
    out = Queue()
    for t in tickets:
        out.apply(t)
    return out


def ids(group: list[mt.MatchTicketOpened] | None) -> list[str] | None:
    return None if group is None else [t.ticket_id for t in group]


def test_first_come_first_served() -> None:
    q = queue(ticket("a", "p1"), ticket("b", "p2"), ticket("c", "p3"))
    assert ids(q.group(2, 1.0)) == ["a", "b"]
    assert ids(q.group(3, 1.0)) == ["a", "b", "c"]
    assert q.group(4, 1.0) is None


def test_a_player_is_never_matched_with_itself() -> None:
    q = queue(ticket("a", "p1"), ticket("a2", "p1"), ticket("b", "p2"))
    assert ids(q.group(2, 1.0)) == ["a", "b"]
    assert queue(ticket("a", "p1"), ticket("a2", "p1")).group(2, 1.0) is None


def test_rating_windows_must_hold_both_ways_and_widen_over_time() -> None:
    a = ticket("a", "p1", rating=10, win=2)
    far = ticket("far", "p2", rating=20, win=50)
    near = ticket("near", "p3", rating=11, win=2)
    assert ids(queue(a, far, near).group(2, 0.0)) == ["a", "near"]
    assert queue(a, far).group(2, 0.0) is None  # inside far's window, not inside a's
    widening = ticket("a", "p1", rating=10, win=2, widen=1.0)
    assert queue(widening, far).group(2, 7.0) is None  # a's window is 9 at 7 s
    assert ids(queue(widening, far).group(2, 8.0)) == ["a", "far"]  # and 10 at 8 s
    assert window(widening, 8.0) == 10.0


def test_the_oldest_that_cannot_fill_a_table_lets_the_next_ones_play() -> None:
    lonely = ticket("old", "p1", rating=0, win=1)
    q = queue(lonely, ticket("b", "p2", rating=30, win=1), ticket("c", "p3", rating=30.5, win=1))
    assert ids(q.group(2, 0.0)) == ["b", "c"]


def test_bots_fill_the_table_once_the_oldest_has_waited_long_enough() -> None:
    q = queue(ticket("a", "p1", bots_after=5.0), ticket("never", "p2"))
    assert q.group(4, 4.9) is None
    assert ids(q.group(4, 5.0)) == ["a"]  # the ticket without bots keeps waiting
    assert q.next_change(1.0) == 5.0


def test_closed_made_and_lapsed_tickets_do_not_wait() -> None:
    q = queue(ticket("a", "p1"), ticket("b", "p2"), ticket("c", "p3"), ticket("d", "p4"))
    q.apply(mt.MatchTicketClosed(ticket_id="a"))
    q.apply(mt.MatchMade(table_id="t", tickets=["b", "", ""]))
    assert [t.ticket_id for t in q.waiting(1.0)] == ["c", "d"]
    assert q.made["b"] == ("t", 0) and q.tables["t"].tickets[0] == "b"
    assert q.waiting(601.0) == []


def test_a_ticket_its_stream_stops_renewing_lapses_after_the_lease() -> None:
    q = queue(ticket("a", "p1"), ticket("b", "p2"))
    assert ids(q.group(2, LEASE - 1)) == ["a", "b"]
    assert q.group(2, LEASE) is None  # neither stream renewed: a server that died
    q.apply(mt.MatchTicketRenewed(ticket_id="a", until=LEASE * 2))
    q.apply(mt.MatchTicketRenewed(ticket_id="b", until=LEASE * 2))
    assert ids(q.group(2, LEASE + 1)) == ["a", "b"]
    assert q.next_change(LEASE + 1) == LEASE * 2
