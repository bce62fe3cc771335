"""Golden scoring of Königrufen: every scoring rule on a hand written out trick by trick
(docs/rules/koenigrufen.md, "Scoring"). Seats 0-3, dealer 3, forehand 0; "scores" is the
tournament score (kontra ignored), "money" every item times its kontra. Each hand first
checks the card points it was written for (thirds: 3 x points + Blatt)."""

from __future__ import annotations

import pytest

from tarok_service.variants.koenigrufen import data as d
from tarok_service.variants.koenigrufen.scoring import trischaken_scores, trischaken_thirds

from .koenigrufen_helpers import VARIANT, Hand, money, played, result, scores, side_thirds

EX1 = Hand(
    discards="CC D3 C9",
    talon="H3 T5 T10",
    tricks=(
        "D2 H2 DJ C7",
        "T1 T6 H4 S8",
        "H1 SQ HC T18",
        "T7 HJ T14 T8",
        "CJ T21 T17 HQ",
        "S9 HK T2 T3",
        "T15 D4 SC T9",
        "C10 S7 T19 T4",
        "SK D1 T12 DK",
        "S10 T11 SJ T22",
        "CQ C8 CK T20",
        "T13 T16 DQ DC",
    ),
)

EX2A = Hand(
    discards="SQ S8 C7",
    talon="T18 T13 H4",
    tricks=(
        "SJ S9 T4 D1",
        "C9 C8 H3 T8",
        "T6 DC T22 HQ",
        "T11 T7 T9 H2",
        "T1 DQ T16 CJ",
        "T3 T17 T5 T21",
        "T12 D4 CK D2",
        "S7 SK HK S10",
        "T14 T19 SC T20",
        "T10 CC DJ HJ",
        "H1 HC D3 CQ",
        "T15 C10 DK T2",
    ),
)

EX2B = Hand(
    discards="SQ S8 S9",
    talon="SC T17 T4",
    tricks=(
        "S7 T2 T18 D4",
        "T21 H4 DQ T10",
        "S10 HJ T22 T20",
        "T5 H3 C8 DJ",
        "T1 T14 DC T12",
        "C10 C7 T7 T8",
        "H2 T15 CK T9",
        "D1 T19 HK T3",
        "C9 T13 T6 T11",
        "HQ T16 D2 SJ",
        "H1 HC DK CQ",
        "SK CC D3 CJ",
    ),
)

EX2C = Hand(
    discards="SQ S8 DQ",
    talon="SC T17 H3",
    tricks=(
        "T10 T13 T8 DK",
        "T18 T12 CJ T1",
        "T19 C9 T5 HJ",
        "T9 H1 D4 T2",
        "H2 T14 DJ T4",
        "T3 CK CQ T21",
        "T6 S7 D1 C10",
        "H4 T15 HK SJ",
        "C7 T7 T22 T11",
        "HQ D2 T20 T16",
        "S10 HC S9 DC",
        "SK CC D3 C8",
    ),
)

EX3 = Hand(
    discards="SC H4 D4",
    talon="DJ T2 C7",
    tricks=(
        "D2 S8 HJ T21",
        "T19 C10 T14 T6",
        "S10 T17 H3 DK",
        "HK T7 T16 D1",
        "T22 HQ T12 CK",
        "HC T13 T9 SQ",
        "T10 C9 CC T20",
        "S7 S9 T11 DQ",
        "CQ CJ H2 T3",
        "SK T4 T18 DC",
        "T15 T5 D3 T8",
        "SJ T1 C8 H1",
    ),
)

EX4 = Hand(
    discards="",
    talon="T11 CQ HQ DC T15 T18",
    tricks=(
        "HC T5 T6 DJ",
        "T20 H3 T1 S7",
        "CJ HK T22 T2",
        "S9 T13 T4 T8",
        "C9 T14 DQ C8",
        "T16 D2 T7 S10",
        "T3 D3 S8 T17",
        "SK H2 D4 DK",
        "T21 CC T12 T10",
        "CK T19 D1 C10",
        "T9 H1 SJ SQ",
        "SC HJ C7 H4",
    ),
)

EX5 = Hand(
    discards="SQ SJ C7 H2 D4 HJ",
    talon="",
    tricks=(
        "HC T8 DC T5",
        "T17 T16 T10 SC",
        "C8 H3 C9 D2",
        "T21 T9 T3 T14",
        "H1 SK D1 T19",
        "T4 T6 H4 D3",
        "CC CK S7 CJ",
        "T13 T12 DJ CQ",
        "S10 HK HQ T7",
        "T15 S8 T22 DQ",
        "DK T1 S9 T2",
        "T18 T11 T20 C10",
    ),
)

EX6 = Hand(
    discards="S9 H2 C8 C10 SQ S7",
    talon="",
    tricks=(
        "DC T2 SK T14",
        "HJ T9 T7 D4",
        "D1 D3 CQ CC",
        "T3 HC T1 DK",
        "D2 T6 T19 T18",
        "CK SC T12 T17",
        "H1 T16 T21 T13",
        "CJ H4 H3 C7",
        "S8 C9 DQ T5",
        "T22 T20 T15 T10",
        "S10 T4 SJ T11",
        "HQ HK DJ T8",
    ),
)

EX7 = Hand(
    discards="",
    talon="T22 T16 T8 T13 DC DJ",
    tricks=(
        "T2 T6 D2 CK",
        "T7 T9 HQ T20",
        "CJ T3 D1 H3",
        "C10 SQ H2 T11",
        "T5 T12 T4 H1",
        "T14 D3 CQ SK",
        "DQ SJ T15 T19",
        "CC SC T21 S9",
        "T17 C7 C9 S10",
        "T1 T18 S7 C8",
        "S8 T10 D4 HC",
        "H4 HJ DK HK",
    ),
)

EX8 = Hand(
    discards="",
    talon="DK T7 S8 C9 H2 D3",
    tricks=(
        "D4 T14 T16 T15",
        "T18 HK DQ T20",
        "T4 T5 S10 T12",
        "HC T2 T8 T1",
        "S7 HJ CJ C8",
        "D1 H1 T10 CQ",
        "SK HQ SQ H4",
        "T22 T21 DJ C7",
        "SC C10 T17 CK",
        "S9 CC H3 T6",
        "T9 DC SJ T11",
        "T19 T13 D2 T3",
    ),
)

EX9 = Hand(
    discards="CC C7 S9",
    talon="T4 T3 T12",
    tricks=(
        "C8 D3 T16 H2",
        "SQ S8 D1 T20",
        "DC DJ C10 T10",
        "C9 T22 T1 S10",
        "T17 H1 CJ HJ",
        "CQ T5 HQ H3",
        "HK SC T6 T14",
        "T9 D2 CK DK",
        "DQ D4 HC T21",
        "T7 SJ H4 T11",
        "S7 T15 T2 SK",
        "T18 T8 T19 T13",
    ),
)

EX10 = Hand(
    discards="HQ HC HJ",
    talon="H1 H2 H3",
    tricks=(
        "T22 T2 T3 T4",
        "T21 T5 T6 T7",
        "T20 T8 T9 T10",
        "T19 T11 DJ D1",
        "T18 D2 D3 D4",
        "T17 CQ CC CJ",
        "T16 C10 C9 C8",
        "T15 C7 SQ SC",
        "T14 SJ S10 S9",
        "T13 S8 S7 HK",
        "T12 DK CK SK",
        "T1 H4 DQ DC",
    ),
)

EX11 = Hand(
    discards="D1 D2 SJ",
    talon="CJ T8 T7",
    tricks=(
        "SQ CQ T11 T20",
        "H2 T10 T5 CC",
        "T12 SC DC S8",
        "S10 T15 T22 H4",
        "C7 HK T9 S9",
        "T14 DJ S7 T16",
        "T4 H1 T6 T17",
        "C10 T2 T3 T19",
        "HJ SK DK D4",
        "HQ D3 T18 T21",
        "T13 C8 DQ C9",
        "T1 CK HC H3",
    ),
)

EX12 = Hand(
    discards="HQ HC HJ H1 H2 H3",
    talon="",
    tricks=(
        "H4 T22 T1 T2",
        "T21 T3 T4 DQ",
        "T20 T5 T6 DC",
        "T19 T7 T8 DJ",
        "T18 T9 T10 D1",
        "T17 C9 C8 D2",
        "T16 C7 SQ D3",
        "T15 SC SJ D4",
        "T14 S10 S9 CQ",
        "T13 S8 S7 CC",
        "T12 HK DK CJ",
        "T11 CK SK C10",
    ),
)

EX13 = Hand(
    discards="SJ S10 D1",
    talon="HK T15 T21",
    tricks=(
        "T6 C8 T2 CJ",
        "T17 T13 T19 H4",
        "HC C7 T8 S7",
        "CC DK T10 D2",
        "CK D3 T22 T5",
        "T20 T1 S8 H2",
        "T14 T12 T9 T11",
        "C9 T4 T18 T7",
        "DC SC D4 HQ",
        "CQ S9 DQ SQ",
        "T16 H3 SK T3",
        "C10 DJ H1 HJ",
    ),
)

EX14 = Hand(
    discards="",
    talon="D4 HJ T18 SQ T16 T21",
    tricks=(
        "T1 D2 S8 T4",
        "H4 T19 SJ SK",
        "D1 T17 T14 S7",
        "T20 DJ T6 C8",
        "DK HC S10 CJ",
        "DQ C7 H1 T15",
        "T2 HQ C10 HK",
        "T10 CC CK S9",
        "H3 H2 C9 SC",
        "CQ T11 T13 T5",
        "T22 T7 T3 DC",
        "T8 T9 D3 T12",
    ),
)

EX15 = Hand(
    discards="",
    talon="H4 T13 HC C9 T8 DK",
    tricks=(
        "T6 CK H1 T2",
        "D2 CQ T7 T21",
        "T15 D1 S7 C8",
        "T1 SK H3 T12",
        "T4 T18 T16 DC",
        "S9 H2 HJ S10",
        "HQ C7 D3 T10",
        "CC T19 T5 T11",
        "C10 T9 S8 T14",
        "D4 SQ T20 SC",
        "CJ DQ HK T17",
        "T3 SJ T22 DJ",
    ),
)

EX17 = Hand(
    discards="",
    talon="HJ H2 T2 T1 CJ CQ",
    tricks=(
        "T12 DC T17 T14",
        "T7 C7 C9 T6",
        "DQ T4 DJ T15",
        "SK D2 T10 T11",
        "DK C8 T5 S10",
        "CC H3 C10 T9",
        "S7 HC H1 SJ",
        "S9 T13 S8 CK",
        "H4 SQ SC HK",
        "T18 T20 T21 T3",
        "T19 HQ T16 D4",
        "D3 T8 D1 T22",
    ),
)


EX18 = Hand(
    discards="HJ S8 D1",
    talon="T17 SQ T6",
    tricks=(
        "T13 S7 T10 SK",
        "T12 H1 CQ CK",
        "T16 T8 HK T9",
        "T11 T20 DJ H3",
        "D2 CC T2 T21",
        "C8 SJ DK S9",
        "SC T14 T18 HC",
        "DC T5 T15 S10",
        "HQ T7 CJ H2",
        "T3 T19 T4 H4",
        "D4 D3 C10 T22",
        "DQ C9 T1 C7",
    ),
)

EX19 = Hand(
    discards="D2 SC H2",
    talon="T2 T14 S7",
    tricks=(
        "D3 T11 T9 HC",
        "H3 SQ CQ S10",
        "T15 T3 S9 CC",
        "C8 T18 T12 DC",
        "S8 DJ HQ DK",
        "H4 T16 HJ T5",
        "T21 CK CJ T19",
        "SJ C10 D4 T13",
        "D1 SK T22 HK",
        "DQ T17 T6 T20",
        "T8 T7 T10 H1",
        "T4 C9 C7 T1",
    ),
)

EX20 = Hand(
    discards="D4 S8 SQ",
    talon="DK T16 T17",
    tricks=(
        "T20 T13 H2 CQ",
        "T21 HJ DQ T18",
        "D1 T12 T9 HQ",
        "T15 T10 C8 T8",
        "T1 T5 SJ HC",
        "C7 DC T7 DJ",
        "T6 SC CK S9",
        "H3 S7 HK T3",
        "C9 T19 S10 T11",
        "T2 T4 D2 H4",
        "H1 SK T14 T22",
        "C10 CC D3 CJ",
    ),
)


EX21 = Hand(
    discards="HJ D2 DQ",
    talon="S8 CC T22",
    tricks=(
        "T2 T8 DC T12",
        "S9 T4 CQ D1",
        "T15 C7 HQ T3",
        "DK H1 T21 CJ",
        "T10 C10 D4 T18",
        "S10 C9 S7 SK",
        "T17 T1 H3 T7",
        "T6 T9 T19 T16",
        "T20 T13 CK T11",
        "H2 D3 C8 T5",
        "SJ DJ SC T14",
        "HK SQ HC H4",
    ),
)


def test_rufer_won_with_silent_trull_against_and_silent_kings_for() -> None:
    """41 points 2 Blatt; the opponents hold the trull, the declarer side all four kings:
    game 1, kings +1, trull -1."""
    state = played(EX1, "rufer", 0, partner=2, called="SK")
    assert side_thirds(state) == (125, 85)
    assert scores(state) == money(state) == (1, -1, 1, -1)


@pytest.mark.parametrize(
    ("hand", "thirds", "expected"),
    [
        (EX2A, 107, (-4, 12, -4, -4)),  # 35 points 2 Blatt: won
        (EX2B, 106, (4, -12, 4, 4)),  # 35 points 1 Blatt: lost
        (EX2C, 108, (-4, 12, -4, -4)),  # 36 points: won
    ],
)
def test_the_winning_mark_is_35_points_and_2_blatt(
    hand: Hand, thirds: int, expected: tuple[int, ...]
) -> None:
    state = played(hand, "dreier", 1)
    assert side_thirds(state)[0] == thirds
    assert scores(state) == expected


def test_besserrufer_with_announced_pagat_made_and_kontrad() -> None:
    state = played(
        EX3,
        "besserrufer",
        2,
        partner=0,
        called="HK",
        announced=[(d.PAGAT, 2)],
        levels=[(d.PAGAT, 1)],
    )
    assert side_thirds(state)[0] == 120
    assert scores(state) == (3, -3, 3, -3)
    assert money(state) == (5, -5, 5, -5)


def test_piccolo_won_with_exactly_one_trick() -> None:
    state = played(EX4, "piccolo", 1)
    assert state.tricks_won()[1] == 1
    assert scores(state) == (-2, 6, -2, -2)
    # kontra in a negative game is raised by the opponents together (docs: a decision)
    kontra = played(EX4, "piccolo", 1, levels=[(d.GAME, 1)])
    assert money(kontra) == (-4, 12, -4, -4)


def test_sechserdreier_lost_costs_8_and_the_announced_uhu_still_counts() -> None:
    state = played(EX5, "sechserdreier", 0, announced=[(d.UHU, 0)])
    assert side_thirds(state)[0] == 90
    assert scores(state) == (-12, 4, 4, 4)


def test_sechserdreier_lost_with_the_game_kontrad() -> None:
    state = played(EX6, "sechserdreier", 0, levels=[(d.GAME, 1)])
    assert side_thirds(state)[0] == 103
    assert scores(state) == (-24, 8, 8, 8)
    assert money(state) == (-48, 16, 16, 16)


def test_solorufer_lost_with_king_ultimo_made_counts_double() -> None:
    state = played(EX7, "solorufer", 0, partner=3, called="HK", announced=[(d.KING_ULTIMO, 3)])
    assert side_thirds(state)[0] == 99
    assert scores(state) == (2, -2, -2, 2)


def test_solorufer_with_the_king_in_the_talon_gets_its_half_and_kontras_are_void() -> None:
    state = played(EX8, "solorufer", 0, called="DK", king_in_talon=True, levels=[(d.GAME, 2)])
    assert side_thirds(state)[0] == 114  # with DK T7 S8, the talon half holding the king
    assert scores(state) == money(state) == (6, -2, -2, -2)


def test_besserrufer_won_with_announced_uhu_lost_and_kontrad() -> None:
    state = played(
        EX9,
        "besserrufer",
        1,
        partner=3,
        called="CK",
        announced=[(d.UHU, 1)],
        levels=[(d.UHU, 1)],
    )
    assert side_thirds(state)[0] == 117
    assert scores(state) == (3, -3, 3, -3)
    assert money(state) == (7, -7, 7, -7)


def test_silent_valat_replaces_the_game_and_drops_silent_premiums() -> None:
    """Dreier valat: 4 x 4 = 16, announced trull +2; the silent pagat is not scored."""
    state = played(EX10, "dreier", 0, announced=[(d.TRULL, 0)])
    assert all(trick.winner == 0 for trick in state.tricks)
    assert scores(state) == (54, -18, -18, -18)


def test_announced_valat_lost_by_the_declarer() -> None:
    state = played(EX11, "dreier", 0, announced=[(d.VALAT, 0), (d.PAGAT, 0)])
    assert side_thirds(state)[0] == 120
    assert scores(state) == (-90, 30, 30, 30)


def test_opponents_silent_valat_against_a_sechserdreier_is_doubled_and_takes_the_game_kontra() -> (
    None
):
    state = played(EX12, "sechserdreier", 0, levels=[(d.GAME, 1)])
    assert all(trick.winner != 0 for trick in state.tricks)
    assert scores(state) == (-96, 32, 32, 32)
    assert money(state) == (-192, 64, 64, 64)


def test_announced_valat_made_with_its_own_kontra() -> None:
    state = played(
        EX13,
        "rufer",
        0,
        partner=2,
        called="CK",
        announced=[(d.VALAT, 0)],
        levels=[(d.VALAT, 1)],
    )
    assert scores(state) == (8, -8, 8, -8)
    assert money(state) == (16, -16, 16, -16)


def test_farbensolo_scores_only_the_kings_doubled() -> None:
    state = played(EX14, "farbensolo", 3)
    assert side_thirds(state)[0] == 135
    assert scores(state) == (-8, -8, -8, 24)


def test_bettel_lost_with_the_game_kontrad() -> None:
    state = played(EX15, "bettel", 0, levels=[(d.GAME, 1)])
    assert state.tricks_won()[0] == 2
    assert scores(state) == (-6, 2, 2, 2)
    assert money(state) == (-12, 4, 4, 4)


def test_bettel_ouvert_lost_is_worth_7_per_opponent() -> None:
    """Example 15's hand as Bettel ouvert (the digest's own case): seat 0 takes two tricks.
    The kontra of a negative game is raised by the opponents together (a decision, as for
    Bettel), so the digest's per-opponent kontra money is not reproduced."""
    state = played(EX15, d.BETTEL_OUVERT, 0)
    assert state.tricks_won()[0] == 2
    assert scores(state) == (-21, 7, 7, 7)
    rekontra = played(EX15, d.BETTEL_OUVERT, 0, levels=[(d.GAME, 2)])
    assert scores(rekontra) == (-21, 7, 7, 7) and money(rekontra) == (-84, 28, 28, 28)


def test_piccolo_ouvert_won_with_exactly_one_trick_is_worth_6() -> None:
    state = played(EX4, d.PICCOLO_OUVERT, 1)
    assert state.tricks_won()[1] == 1
    assert scores(state) == (-6, 18, -6, -6)
    assert money(played(EX4, d.PICCOLO_OUVERT, 1, levels=[(d.GAME, 1)])) == (-12, 36, -12, -12)


def test_piccolo_ouvert_lost_with_two_tricks() -> None:
    """Example 15's hand as seat 0's Piccolo ouvert: his second trick loses it."""
    state = played(EX15, d.PICCOLO_OUVERT, 0)
    assert state.tricks_won()[0] == 2
    assert scores(state) == (-18, 6, 6, 6)


def test_silent_kings_for_and_silent_pagat_against() -> None:
    state = played(EX18, "dreier", 0)
    assert side_thirds(state)[0] == 114
    assert scores(state) == (12, -4, -4, -4)


def test_a_silent_failure_costs_only_with_its_option() -> None:
    """The declarer side's pagat is played in trick 12 and loses it."""
    state = played(EX19, "rufer", 0, partner=1, called="DK")
    assert side_thirds(state)[0] == 111
    assert scores(state) == (1, 1, -1, -1)
    strict = played(
        EX19, "rufer", 0, partner=1, called="DK", options={"silent_failure_counts": True}
    )
    assert scores(strict) == (0, 0, 0, 0)


def test_kontra_counts_in_the_score_only_with_its_option() -> None:
    state = played(EX20, "dreier", 0, levels=[(d.GAME, 2)])
    assert side_thirds(state)[0] == 120
    assert scores(state) == (12, -4, -4, -4)
    counted = played(EX20, "dreier", 0, levels=[(d.GAME, 2)], options={"kontra_in_score": True})
    assert scores(counted) == (48, -16, -16, -16)
    assert sum(line.points for line in result(counted).lines if 0 in line.seats) == 48


def test_trischaken_hand_the_talon_goes_to_the_last_trick() -> None:
    """Seat 1 has the most (91 thirds with the talon, won in the last trick); seat 3 took no
    trick: the Jungfrau gets all 3 the loser pays."""
    state = played(EX17, "trischaken", None)
    assert state.tricks[-1].winner == 1 and state.tricks_won()[3] == 0
    assert trischaken_thirds(VARIANT, state) == (60, 91, 59, 0)  # type: ignore[arg-type]
    assert scores(state) == (0, -3, 0, 3)


@pytest.mark.parametrize(
    ("thirds", "expected"),
    [
        ((60, 91, 59, 0), (0, -3, 0, 3)),  # loser 1, Jungfrau 3
        ((108, 40, 40, 22), (-12, 4, 4, 4)),  # forehand Buergermeister
        ((36, 75, 75, 24), (2, -2, -2, 2)),  # two tied losers
        ((0, 106, 104, 0), (2, -4, 0, 2)),  # two Jungfrauen, base 1
        ((0, 107, 103, 0), (3, -6, 0, 3)),  # two Jungfrauen, base 2
        ((30, 60, 60, 60), (3, -1, -1, -1)),  # three tied losers
        ((75, 75, 30, 30), (-6, 2, 2, 2)),  # forehand tied for the most
        ((50, 110, 30, 20), (2, -6, 2, 2)),  # seat 1 Buergermeister
    ],
)
def test_trischaken_payments(thirds: tuple[int, ...], expected: tuple[int, ...]) -> None:
    tricks = tuple(0 if x == 0 else 3 for x in thirds)  # no card points: no trick
    assert trischaken_scores(thirds, tricks, 0, jungfrauen_full=False) == expected


def test_trischaken_jungfrauen_full_each_gets_the_whole_pay() -> None:
    assert trischaken_scores((0, 106, 104, 0), (0, 6, 6, 0), 0, jungfrauen_full=True) == (
        3,
        -6,
        0,
        3,
    )


def test_own_king_call_the_declarer_alone_with_king_ultimo() -> None:
    """Option own_king_call: seat 0 calls his own HK, plays alone, announces king ultimo and
    wins the last trick with it: game 1 and king ultimo 2, 1 against 3."""
    options = {"own_king_call": True}
    state = played(EX21, "rufer", 0, called="HK", announced=[(d.KING_ULTIMO, 0)], options=options)
    assert state.tricks[-1].winner == 0 and side_thirds(state)[0] == 120
    assert scores(state) == (9, -3, -3, -3)
