"""Golden scoring of double tarok at 4, 6 and 8 players."""

from __future__ import annotations

from typing import Any

import pytest

from tarok_service.engine.cards import Card
from tarok_service.engine.counting import in_threes
from tarok_service.engine.state import SCORED, Trick
from tarok_service.variants.double_tarok import data as dd
from tarok_service.variants.slovenian.state import SlovenianState

from .double_tarok_helpers import (
    DECK,
    DT,
    cards,
    finished,
    lines,
    pile_worth,
    result,
    rules,
)

TEAMS = {4: (0, 2), 6: (0, 2, 4), 8: (0, 3, 5)}  # declarer and partners
PLAYERS = (4, 6, 8)
NORMAL = [(c.id, c.value) for c in dd.CONTRACTS if c.bonuses]
NO_HONOURS_FOR_ULTIMOS = "HK.1 HK.2 T22.1 T22.2"  # neither side can have kings or a trula


def team_for(players: int, contract: str) -> tuple[int, ...]:
    return (0,) if contract.startswith("solo") else TEAMS[players]


# --- contracts ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("contract", "value"), NORMAL)
@pytest.mark.parametrize(
    ("points", "diff", "won"), [(84, 15, True), (73, 5, True), (71, 0, True), (70, 0, False),
                                (62, -10, False)]
)
def test_normal_contracts_value_plus_difference_from_70(
    players: int, contract: str, value: int, points: int, diff: int, won: bool
) -> None:
    team = team_for(players, contract)
    res = result(finished(players, contract, points, team=team))
    expected = (value if won else -value) + diff
    assert res.won is won
    assert res.scores == tuple(expected if s in team else 0 for s in range(players))
    assert res.side_points == (points, 140 - points)
    assert res.team == team


def test_contract_values_are_the_seed_table() -> None:
    values = {c.id: c.value for c in DT.contracts(6)}
    assert values == {
        "klop": 70, "six": 10, "four": 20, "three": 30, "two": 40, "one": 50, "solo_six": 60,
        "solo_four": 70, "solo_three": 80, "solo_two": 90, "solo_one": 100, "beggar": 110,
        "solo_without": 120, "colour_valat": 200, "valat": 500,
    }
    assert "open_beggar" not in dd.CONTRACT_INDEX


@pytest.mark.parametrize("players", PLAYERS)
def test_game_kontra_doubles_contract_and_difference(players: int) -> None:
    state = finished(players, "three", 84, team=TEAMS[players], levels=(("game", 2),))
    assert result(state).scores[0] == 4 * (30 + 15)


@pytest.mark.parametrize("players", PLAYERS)
def test_beggar_won_without_a_trick_lost_with_one(players: int) -> None:
    won = finished(players, "beggar", 10, honours="", winners=(1, 2))
    assert result(won).scores[0] == 110 and result(won).radelci
    lost = finished(players, "beggar", 10, honours="", winners=(1, 0))
    assert result(lost).scores[0] == -110


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("points", "score"), [(71, 120), (70, -120)])
def test_solo_without_needs_71(players: int, points: int, score: int) -> None:
    assert result(finished(players, "solo_without", points)).scores[0] == score


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("contract", "value"), [("colour_valat", 200), ("valat", 500)])
def test_valat_contracts_need_every_trick(players: int, contract: str, value: int) -> None:
    every = (0,) * DT.tricks_per_hand(finished(players, contract, 90))
    assert result(finished(players, contract, 90, winners=every)).scores[0] == value
    assert result(finished(players, contract, 90, winners=(0, 1))).scores[0] == -value


@pytest.mark.parametrize("players", PLAYERS)
def test_silent_valat_in_a_normal_contract_replaces_everything(players: int) -> None:
    every = (0,) * DT.tricks_per_hand(finished(players, "two", 90))
    state = finished(players, "two", 90, team=TEAMS[players], winners=every)
    assert lines(state) == {"valat (silent)": 250}


@pytest.mark.parametrize("players", PLAYERS)
def test_announced_valat_fails_alone(players: int) -> None:
    state = finished(players, "two", 90, team=TEAMS[players], announced=((dd.VALAT_BONUS, 0),))
    assert lines(state) == {"valat (announced)": -500}


# --- klop --------------------------------------------------------------------------------


def klop_state(
    players: int, points: list[int], winners: tuple[int, ...], **options: object
) -> SlovenianState:
    """Klop with the first seats' piles worth `points`; the last seat has the rest."""
    piles: list[tuple[Card, ...]] = []
    used: set[Card] = set()
    for p in points:
        pile = pile_worth(p, exclude=used, honours=True)
        used |= set(pile)
        piles.append(tuple(pile))
    piles.append(tuple(c for c in DECK.cards if c not in used))
    tricks = tuple(Trick(((w, DECK.card("T2.1")),), w) for w in winners)
    return SlovenianState(
        rules=rules(players, **options), dealer=players - 1, phase=SCORED, turn=None,
        hands=((),) * players, talon=(), piles=tuple(piles), tricks=tricks,
        contract=dd.CONTRACT_INDEX["klop"],
    )


@pytest.mark.parametrize("players", PLAYERS)
def test_klop_everyone_pays_own_points_rounded(players: int) -> None:
    share = [20] * (players - 1) if players == 4 else [17] * (players - 1)
    share[0] = 40 if players == 4 else 22
    state = klop_state(players, share, tuple(range(players)))
    res = result(state)
    last = in_threes(state.piles[-1], DECK.points)
    assert 0 < last <= 70
    rounded = [-5 * ((p + 2) // 5) for p in [*share, last]]
    assert res.scores == tuple(rounded)
    assert abs(sum(res.side_points) - 140) <= players // 3


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("value", [70, 140])
def test_klop_full_and_empty(players: int, value: int) -> None:
    # seat 0 gets nothing and takes no trick; the last seat is full (over 70)
    share = [0] + [5] * (players - 2)
    winners = tuple(range(1, players))
    res = result(klop_state(players, share, winners, klop_value=value))
    assert res.scores[0] == value and res.scores[-1] == -value
    assert all(v == 0 for v in res.scores[1:-1])


# --- bonus groups ------------------------------------------------------------------------

KINGS_CASES = [
    ("HK.1 HK.2 DK.2 CK.1 SK.2", "kings", 10),  # one of each suit, no full pack
    ("HK.1 HK.2 DK.1 CK.1 SK.1", "colour kings", 15),  # all blue kings
    ("HK.1 HK.2 DK.1 DK.2 CK.1 CK.2 SK.1 SK.2", "double kings", 20),
]
TRULA_CASES = [
    ("T22.1 T21.2 T1.1 T1.2", "trula", 10),  # one of each, no full pack
    ("T22.1 T21.1 T1.1 T1.2", "colour trula", 15),  # the blue trula
    ("T22.1 T22.2 T21.1 T21.2 T1.1 T1.2", "double trula", 20),
]


def group_cases() -> list[tuple[str, str, int]]:
    return [(h + " T1.1 T1.2", i, v) for h, i, v in KINGS_CASES] + [
        (h + " HK.1 HK.2", i, v) for h, i, v in TRULA_CASES
    ]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("honours", "item", "silent"), group_cases())
def test_collection_items_silent_and_announced(
    players: int, honours: str, item: str, silent: int
) -> None:
    team = TEAMS[players]
    state = finished(players, "three", 80, team=team, honours=honours)
    assert lines(state) == {"three": 30, "difference": 10, f"{item} (silent)": silent}
    item_id = item.replace(" ", "_")
    said = finished(players, "three", 80, team=team, honours=honours,
                    announced=((item_id, team[-1]),), levels=((item_id, 1),))
    assert lines(said)[f"{item} (announced)"] == 2 * 2 * silent  # announced = 2 x silent, kontra
    assert result(said).scores[team[-1]] == 40 + 4 * silent


@pytest.mark.parametrize("players", PLAYERS)
def test_opponents_collection_counts_against_the_declarers(players: int) -> None:
    # the team holds one king and both pagats: the opponents have all four red-back kings
    state = finished(players, "two", 80, team=TEAMS[players], honours="HK.1 T1.1 T1.2")
    assert lines(state)["opponents' colour kings (silent)"] == -15


@pytest.mark.parametrize("players", PLAYERS)
def test_both_sides_can_make_a_trula_with_two_packs(players: int) -> None:
    state = finished(players, "two", 80, team=TEAMS[players], honours="HK.1 HK.2 T22.1 T21.1 T1.1")
    items = lines(state)
    assert items["colour trula (silent)"] == 15
    assert items["opponents' colour trula (silent)"] == -15


@pytest.mark.parametrize("players", PLAYERS)
def test_literal_rule_announced_trula_made_as_colour_trula(players: int) -> None:
    """Seed: "announced Trula but made (silent) Barvna trula counts only as silent Barvna trula"."""
    honours = "HK.1 HK.2 T22.1 T21.1 T1.1 T1.2"  # the team's blue trula; opponents: no pagat
    said = (("trula", 0),)
    literal = finished(players, "one", 80, team=TEAMS[players], honours=honours, announced=said)
    assert lines(literal) == {"one": 50, "difference": 10, "colour trula (silent)": 15}
    other = finished(players, "one", 80, team=TEAMS[players], honours=honours, announced=said,
                     options={"announced_made_higher": "announced"})
    assert lines(other)["trula (announced)"] == 20


@pytest.mark.parametrize("players", PLAYERS)
def test_announced_higher_item_not_made_fails_whole(players: int) -> None:
    honours = "HK.1 HK.2 T22.1 T21.2 T1.1 T1.2"  # a plain trula only
    state = finished(players, "one", 80, team=TEAMS[players], honours=honours,
                     announced=(("colour_trula", 0),))
    assert lines(state) == {"one": 50, "difference": 10, "colour trula (announced)": -30}


@pytest.mark.parametrize("players", PLAYERS)
def test_teammates_announcements_only_the_higher_counts(players: int) -> None:
    team = TEAMS[players]
    said = (("trula", team[0]), ("double_trula", team[1]))
    made = finished(players, "two", 80, team=team,
                    honours="HK.1 HK.2 T22.1 T22.2 T21.1 T21.2 T1.1 T1.2", announced=said)
    assert lines(made) == {"two": 40, "difference": 10, "double trula (announced)": 40}
    short = finished(players, "two", 80, team=team, honours="HK.1 HK.2 T22.1 T21.1 T1.1 T1.2",
                     announced=said)
    assert lines(short) == {"two": 40, "difference": 10, "double trula (announced)": -40}


@pytest.mark.parametrize("players", PLAYERS)
def test_announcers_of_different_teams_are_scored_separately(players: int) -> None:
    team = TEAMS[players]
    opponent = 1
    said = (("trula", team[0]), ("double_trula", opponent))
    state = finished(players, "two", 80, team=team, honours="HK.1 HK.2 T22.1 T21.1 T1.1 T1.2",
                     announced=said, levels=(("double_trula", 1),))
    assert lines(state) == {
        "two": 40, "difference": 10,
        "colour trula (silent)": 15,  # the team's trula, made as a colour trula
        "opponents' double trula (announced)": 80,  # failed, kontra'd
    }


@pytest.mark.parametrize("players", PLAYERS)
def test_silent_beside_announcement_option(players: int) -> None:
    honours = "HK.1 HK.2 DK.1 CK.1 SK.1 T1.1 T1.2"  # team: blue kings; opponents: no hearts
    said = (("kings", 1),)  # an opponent announced kings and failed
    on = finished(players, "two", 80, team=TEAMS[players], honours=honours, announced=said)
    assert lines(on)["colour kings (silent)"] == 15
    assert lines(on)["opponents' kings (announced)"] == 20
    off = finished(players, "two", 80, team=TEAMS[players], honours=honours, announced=said,
                   options={"silent_beside_announcement": False})
    assert "colour kings (silent)" not in lines(off)


def last_trick(players: int, plays: dict[int, str]) -> list[tuple[int, str]]:
    """A last trick led by seat 0: the given cards, low hearts from everybody else."""
    fillers = iter(["H4.1", "H4.2", "H3.1", "H3.2", "H2.1", "H2.2", "H1.1", "H1.2"])
    return [(seat, plays.get(seat) or next(fillers)) for seat in range(players)]


@pytest.mark.parametrize("players", PLAYERS)
def test_pagat_ultimo_silent_won_lost_and_announced(players: int) -> None:
    team = TEAMS[players]
    won = last_trick(players, {0: "T1.1"})
    state = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                     last=won, last_winner=0)
    assert lines(state)["pagat ultimo (silent)"] == 25
    lost = last_trick(players, {0: "T1.1", 1: "T5.1"})
    state = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                     last=lost, last_winner=1)
    assert lines(state)["pagat ultimo (silent)"] == -25
    said = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                    last=won, last_winner=0, announced=(("pagat_ultimo", 0),))
    assert lines(said)["pagat ultimo (announced)"] == 50


@pytest.mark.parametrize("players", PLAYERS)
def test_double_pagat_ultimo(players: int) -> None:
    team = TEAMS[players]
    both = last_trick(players, {0: "T1.2", team[1]: "T1.1"})  # the red pagat led, and wins
    silent = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                      last=both, last_winner=0)
    assert lines(silent)["double pagat ultimo (silent)"] == 50
    said = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                    last=both, last_winner=0, announced=(("double_pagat_ultimo", team[1]),))
    assert lines(said)["double pagat ultimo (announced)"] == 100
    single = finished(players, "three", 80, team=team, honours=NO_HONOURS_FOR_ULTIMOS,
                      last=last_trick(players, {0: "T1.1"}), last_winner=0,
                      announced=(("double_pagat_ultimo", 0),))
    assert lines(single)["double pagat ultimo (announced)"] == -100


@pytest.mark.parametrize("players", PLAYERS)
def test_pagats_of_both_sides_in_the_last_trick(players: int) -> None:
    plays = last_trick(players, {0: "T1.1", 1: "T1.2"})  # blue led: the blue pagat wins
    state = finished(players, "three", 80, team=TEAMS[players], honours=NO_HONOURS_FOR_ULTIMOS,
                     last=plays, last_winner=0)
    items = lines(state)
    assert items["pagat ultimo (silent)"] == 25
    assert items["opponents' pagat ultimo (silent)"] == 25  # their pagat lost: for the team


@pytest.mark.parametrize("players", PLAYERS)
def test_king_ultimo(players: int) -> None:
    team = TEAMS[players]
    called = "HK.1" if players == 4 else "HK.1 HK.2"
    won = last_trick(players, {team[1]: "HK.1", 1: "H1.1"})
    state = finished(players, "three", 80, team=team, honours="T22.1 T22.2 DK.1 DK.2",
                     last=won, last_winner=team[1], called=cards(called))
    assert lines(state)["king ultimo (silent)"] == 10
    said = finished(players, "three", 80, team=team, honours="T22.1 T22.2 DK.1 DK.2",
                    last=won, last_winner=team[1], called=cards(called),
                    announced=(("king_ultimo", team[1]),))
    assert lines(said)["king ultimo (announced)"] == 20
    lost = last_trick(players, {team[1]: "HK.1", 1: "T3.1"})
    state = finished(players, "three", 80, team=team, honours="T22.1 T22.2 DK.1 DK.2",
                     last=lost, last_winner=1, called=cards(called))
    assert lines(state)["king ultimo (silent)"] == -10


@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.parametrize(("value", "silent"), [(20, 10), (40, 20)])
def test_double_king_ultimo(players: int, value: int, silent: int) -> None:
    team = TEAMS[players]
    both = last_trick(players, {team[1]: "HK.2", team[2]: "HK.1", 0: "H1.2"})
    kw: dict[str, Any] = dict(
        team=team, honours="T22.1 T22.2 DK.1 DK.2", last=both, last_winner=team[1],
        called=cards("HK.1 HK.2"), options={"double_king_ultimo_value": value},
    )
    assert lines(finished(players, "four", 80, **kw))["double king ultimo (silent)"] == silent
    said = finished(players, "four", 80, announced=(("double_king_ultimo", team[2]),), **kw)
    assert lines(said)["double king ultimo (announced)"] == value


# --- mondfang and radelci ----------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_mondfang_once_per_captured_mond(players: int) -> None:
    state = finished(players, "three", 80, team=TEAMS[players], mondfangs=(1, TEAMS[players][1]))
    res = result(state)
    assert res.penalties[1] == -21 and res.penalties[TEAMS[players][1]] == -21
    assert res.totals[1] == -21


@pytest.mark.parametrize("players", PLAYERS)
def test_monds_left_in_the_talon_cost_the_declarer_each(players: int) -> None:
    base = finished(players, "solo_one", 80)
    monds = cards("T21.1 T21.2")
    piles = tuple(tuple(c for c in pile if c not in monds) for pile in base.piles)
    from dataclasses import replace

    state = replace(base, piles=piles, talon=monds, group=3)
    assert result(state).penalties[0] == -42


def test_radelci_for_big_contracts_only() -> None:
    assert result(finished(4, "valat", 80, winners=(0, 1))).radelci
    assert not result(finished(4, "solo_one", 80)).radelci
