"""The pure schedule: duplicate seat rotations and preset deals."""

from __future__ import annotations

from collections import Counter

import pytest

from tarok_service.competition import deal_orders, schedule
from tarok_service.competition.schedule import rotations


@pytest.mark.parametrize(("entrants", "players"), [(4, 4), (2, 4), (3, 4), (5, 4), (3, 3), (6, 4)])
def test_duplicate_every_entrant_plays_every_seat_of_every_deal(
    entrants: int, players: int
) -> None:
    games = schedule(entrants, players, deals=6, duplicate=True)
    for deal in range(6):
        tables = [g for g in games if g.deal == deal]
        present = {e for g in tables for e in g.seating}
        for entrant in present:
            seats = {s for g in tables for s, e in enumerate(g.seating) if e == entrant}
            assert seats == set(range(players)), (deal, entrant)
        assert len({g.seating for g in tables}) == len(tables)  # no table played twice
    assert [g.index for g in games] == list(range(len(games)))


def test_every_entrant_plays_when_there_are_more_entrants_than_seats() -> None:
    games = schedule(6, 4, deals=3, duplicate=True)
    assert {e for g in games for e in g.seating} == set(range(6))
    assert all(len(set(g.seating)) == 4 for g in games)


def test_plain_schedule_rotates_seats_from_deal_to_deal() -> None:
    games = schedule(4, 4, deals=8, duplicate=False)
    assert len(games) == 8
    seats = Counter((s, e) for g in games for s, e in enumerate(g.seating))
    assert set(seats.values()) == {2}  # every entrant at every seat twice


def test_rotations_drop_repeats() -> None:
    assert rotations((0, 1, 0, 1)) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert len(rotations((0, 1, 2, 3))) == 4


def test_deal_orders_are_permutations_fixed_by_seed_and_deal() -> None:
    codes = [f"c{i}" for i in range(54)]
    first = deal_orders(codes, seed=7, deal=3)
    assert first == deal_orders(codes, seed=7, deal=3)
    assert first != deal_orders(codes, seed=8, deal=3)
    assert first[0] != deal_orders(codes, seed=7, deal=4)[0]
    assert all(sorted(order) == sorted(codes) for order in first)
    assert len({tuple(o) for o in first}) == len(first)  # spare deals for redeals differ


@pytest.mark.parametrize(
    ("entrants", "remote", "players", "duplicate"),
    [
        (3, 1, 4, True),
        (4, 4, 4, True),
        (8, 8, 4, True),
        (5, 2, 4, True),
        (6, 3, 3, True),
        (9, 9, 3, False),
        (5, 1, 3, False),
        (12, 12, 4, True),
    ],
)
def test_a_remote_entrant_sits_at_most_once_per_deal(
    entrants: int, remote: int, players: int, duplicate: bool
) -> None:
    once = list(range(remote))
    games = schedule(entrants, players, deals=7, duplicate=duplicate, once=once)
    assert [g.index for g in games] == list(range(len(games)))
    seated = Counter((g.deal, e) for g in games for e in g.seating if e in once)
    assert seated and max(seated.values()) == 1
    assert {e for g in games for e in g.seating} >= set(once)  # everyone gets to play
    for deal in range(7):
        tables = [g for g in games if g.deal == deal]
        assert all(len(g.seating) == players for g in tables)
        if duplicate and len(tables) > 1:  # each remote seat is compared with other players
            for seat in range(players):
                at_seat = [g.seating[seat] for g in tables if g.seating[seat] in once]
                assert len(at_seat) == len(set(at_seat))
    if duplicate and entrants > remote:
        assert len(games) == 7 * players  # as many tables per deal as full rotation


def test_remote_entrants_too_few_to_fill_a_table_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot fill"):
        schedule(3, 4, deals=1, duplicate=True, once=[0, 1, 2])
    assert len(schedule(3, 4, deals=1, duplicate=True)) == 4  # full rotation still works
