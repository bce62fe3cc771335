"""Czech taroky scenarios with the deal written out: valat judged per side, and the partner
discarding the called tarok."""

from __future__ import annotations

from tarok_service.variants.taroky import data as d
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.state import DECK

from .taroky_helpers import DEAL_A, TALON_A, cards, deal, last_legal, play, result, run_out

# Seat 1 (forehand) holds the twelve best taroks with the pagat; the talon the six low ones.
SOLO_DEAL = {
    1: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T1",
    2: "T11 T10 CK CQ CC CJ C10 C9 C8 C7 HC HJ",
    3: "T9 T8 SK SQ SC SJ S10 S9 S8 S7 DC DJ",
    0: "HK DK H1 H2 H3 H4 D1 D2 D3 D4 HQ DQ",
}
SOLO_TALON = "T2 T3 T4 T5 T6 T7"


def test_opponents_failed_valat_and_the_declarers_silent_valat_both_score() -> None:
    """Sixth obligation: seat 2 (an opponent) announces valat, the declarer takes all twelve
    tricks. The failed announcement pays 200 and the declarer's silent valat 100 more:
    2240 + taroky 20 + trul 10 - barvicka 10 - barvicka 10 - velka barva 20 + pagat 50
    + 200 + 100 = 2580 -> +7740 / -2580."""
    s = play(deal(SOLO_DEAL, SOLO_TALON), "bid:sixth pass pass pass pass announce:valat")
    while s.phase == "declaring":
        s = play(s, "pass")
    s = run_out(s, last_legal)
    assert s.tricks_won() == (0, 12, 0, 0) and s.announced == ((d.VALAT, 2),)
    res = result(s)
    items = {li.item: li.points for li in res.lines if 1 in li.seats}
    assert items["valat (announced)"] == 3 * 200
    assert items["valat (silent)"] == 3 * 100
    assert res.totals == (-2580, 7740, -2580, -2580)
    assert sum(res.totals) == 0


def test_a_made_announced_valat_is_not_scored_twice() -> None:
    s = play(deal(SOLO_DEAL, SOLO_TALON), "bid:sixth pass pass pass announce:valat")
    while s.phase == "declaring":
        s = play(s, "pass")
    s = run_out(s, last_legal)
    items = {li.item: li.points for li in result(s).lines if 1 in li.seats}
    assert items["valat (announced)"] == 3 * 200 and "valat (silent)" not in items


def test_the_partner_may_discard_the_called_tarok() -> None:
    """Basic obligation, seat 1 calls XIX held by seat 2, who receives one talon card (S8) and
    lays away the XIX face up: he stays the partner, and everybody now knows it."""
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass pass call:T19")
    assert s.partner == 2
    s = play(s, "discard:T2 discard:T3 discard:C7 discard:S9")
    assert "discard:T19" in [mv.id for mv in TAROKY.legal_moves(s)]
    s = play(s, "discard:T19 discard:S7")
    assert s.partner == 2 and s.team() == (1, 2)
    assert s.piles[2] == cards("T19") and s.phase == "declaring"
    for seat in (None, 0, 1, 2, 3):
        view = TAROKY.view(s, seat)
        assert view.partners == (2,)
        shown = [DECK.codes[c] for g in view.public if g.name == "discards" and g.seat == 2
                 for c in g.cards]
        assert shown == ["T19"]
    s = run_out(s)
    res = result(s)
    assert res.team == (1, 2) and sum(res.side_points) == 70
