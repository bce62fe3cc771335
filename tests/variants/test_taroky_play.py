"""Czech taroky hands played through the API: written-out scenarios, views, random playouts."""

from __future__ import annotations

import random

from tarok_service.engine.counting import in_threes
from tarok_service.engine.match import MatchState
from tarok_service.selfplay import check_hand, choose
from tarok_service.variants.taroky import data as d
from tarok_service.variants.taroky.rules import TAROKY
from tarok_service.variants.taroky.state import DECK, TarokyState

from .taroky_helpers import (
    DEAL_A,
    TALON_A,
    cards,
    deal,
    last_legal,
    play,
    result,
    run_out,
    table,
)

SEATS = (None, 0, 1, 2, 3)

# Seat 1 (forehand) holds the twelve best taroks with the pagat; the talon the six low ones.
SOLO_DEAL = {
    1: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T1",
    2: "T11 T10 CK CQ CC CJ C10 C9 C8 C7 HC HJ",
    3: "T9 T8 SK SQ SC SJ S10 S9 S8 S7 DC DJ",
    0: "HK DK H1 H2 H3 H4 D1 D2 D3 D4 HQ DQ",
}
SOLO_TALON = "T2 T3 T4 T5 T6 T7"


def public(state: TarokyState, seat: int | None) -> dict[str, tuple[str, ...]]:
    """The face-up groups `seat` sees, by name, as card codes."""
    view = TAROKY.view(state, seat)
    return {g.name: tuple(DECK.codes[c] for c in g.cards) for g in view.public}


# --- a full second obligation, alone, with pagat and valat ----------------------------------


def test_second_obligation_secret_solo_pagat_valat() -> None:
    """Seat 1 calls his own XVII; discards II-V; leads his taroks high to low and the pagat
    last. Opponents' discards VI + VII count 1 -> 70 : 0 = 70; + taroky 20 + trul 10 -
    barvicka 10 - barvicka 10 - velka barva 20 + pagat 50 + valat 100 = 210 -> +630 / -210."""
    s = play(deal(SOLO_DEAL, SOLO_TALON), "bid:second pass pass pass")
    assert [mv.id for mv in TAROKY.legal_moves(s)] == ["call:T19", "call:T18", "call:T17"]
    s = play(s, "call:T17 discard:T2 discard:T3 discard:T4 discard:T5 discard:T6 discard:T7")
    assert s.partner is None and s.team() == (1,)
    assert set(s.declarations) == {
        (1, d.TAROKY),
        (1, d.TRUL),
        (2, d.BARVICKA),
        (3, d.BARVICKA),
        (0, d.VELKA_BARVA),
    }
    s = run_out(s, last_legal)
    assert s.tricks[-1].plays[0] == (1, cards("T1")[0]) and s.tricks_won() == (0, 12, 0, 0)
    res = result(s)
    assert res.side_points == (69, 1) and res.won and res.contract == d.SECOND
    assert res.totals == (-210, 630, -210, -210)
    assert {li.item for li in res.lines} >= {"game", "pagat (silent)", "valat (silent)"}
    assert check_hand(TAROKY, s, res) == []
    match = TAROKY.settle(table(pot=300), res)
    assert match.pot == 0 and match.totals == (-210, 930, -210, -210)


def test_sixth_obligation_takes_the_talon() -> None:
    """The same cards in the sixth: the talon goes to the side ahead; 70 : 0 x 32."""
    s = play(deal(SOLO_DEAL, SOLO_TALON), "bid:sixth pass pass pass")
    s = run_out(s, last_legal)
    res = result(s)
    assert res.side_points == (70, 0) and res.contract == d.SIXTH
    # 2240 + taroky 20 + trul 10 - (barvicka 10 + barvicka 10 + velka barva 20) + 50 + 100
    assert res.totals == (-2380, 3 * 2380, -2380, -2380)
    assert check_hand(TAROKY, s, res) == []


# --- views -------------------------------------------------------------------------------------


def test_view_third_obligation_rejected_cards_public() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:third pass pass pass")
    assert public(s, 1) == {"talon looked at": ("T3", "T2", "C7")}
    assert all(public(s, seat) == {} for seat in (None, 0, 2, 3))
    s = play(s, "talon:reject")
    for seat in SEATS:
        assert public(s, seat)["rejected talon 1"] == ("T3", "T2", "C7")
    assert public(s, 1)["talon looked at"] == ("S9", "S8", "S7")
    assert "talon looked at" not in public(s, 2)
    s = play(s, "talon:keep")
    assert s.multiplier == 2 and public(s, 3) == {"rejected talon 1": ("T3", "T2", "C7")}
    assert public(s, 1)["talon received"] == ("S9", "S8", "S7")
    for seat in (None, 0, 2, 3):  # the second three, now in the declarer's hand, stay hidden
        assert not set(cards("S9 S8 S7")) & TAROKY.view(s, seat).visible_cards()
    s = play(s, "discard:S9 discard:T14 discard:HC")
    assert public(s, 1)["discards"] == ("S9", "T14", "HC")
    assert all(public(s, seat)["discards"] == ("T14",) for seat in (None, 0, 2, 3))
    s = run_out(s)
    res = result(s)
    rest = [c for seat in (0, 2, 3) for c in s.piles[seat]] + list(cards("T3 T2 C7"))
    assert res.side_points[1] == in_threes(rest, DECK.points)
    assert public(s, 2)["rejected talon 1"] == ("T3", "T2", "C7")


def test_view_discards_hidden_taroks_face_up() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass pass call:T19")
    assert public(s, 1) == {"talon received": ("T3", "T2", "C7", "S9")}
    assert public(s, 2) == {"talon received": ("S8",)} and public(s, 3) == {
        "talon received": ("S7",)
    }
    assert public(s, 0) == {} and public(s, None) == {}
    s = play(s, "discard:T2 discard:C7 discard:S9 discard:T3 discard:S8 discard:S7")
    assert public(s, 1)["discards"] == ("T2", "C7", "S9", "T3")
    for seat in (None, 0, 2, 3):
        groups = [g for g in TAROKY.view(s, seat).public if g.name == "discards" and g.seat == 1]
        assert [DECK.codes[c] for g in groups for c in g.cards] == ["T2", "T3"]
    assert ("discards", ("S8",)) in public(s, 2).items()
    for seat in (None, 0, 1, 3):
        seen = TAROKY.view(s, seat).visible_cards()
        assert cards("S8")[0] not in seen or seat == 2
        assert cards("S7")[0] not in seen or seat == 3


def test_view_partner_known_to_himself_then_to_all() -> None:
    s = play(
        deal(DEAL_A, TALON_A),
        "bid:basic pass pass pass pass call:T19 discard:T2 discard:T3 discard:C7 discard:S9 "
        "discard:S8 discard:S7 pass pass pass pass",
    )
    assert TAROKY.view(s, 2).partners == (2,)
    assert all(TAROKY.view(s, seat).partners == () for seat in (None, 0, 1, 3))
    assert TAROKY.view(s, 0).called == "T19"
    s = play(s, "play:T14 play:T19")
    assert all(TAROKY.view(s, seat).partners == (2,) for seat in SEATS)


# --- varsava ----------------------------------------------------------------------------------


def test_varsava_talon_to_the_first_six_tricks() -> None:
    s = play(deal(DEAL_A, TALON_A), "bid:basic pass pass pass bid:varsava")
    assert s.turn == 1 and TAROKY.legal_moves(s)
    s = run_out(s)
    assert [c for _, c in s.gifts] == list(cards(TALON_A)) and s.talon == ()
    assert [w for w, _ in s.gifts] == [tr.winner for tr in s.tricks[:6]]
    assert public(s, None)["talon cards given"] == tuple(TALON_A.split())
    res = result(s)
    assert res.contract == d.VARSAVA and res.pot == -sum(res.totals) >= 0
    assert check_hand(TAROKY, s, res) == []


# --- random playouts --------------------------------------------------------------------------


def leaks(state: TarokyState) -> list[str]:
    """Cards a view shows that its seat may not see: other hands, the hidden talon, others'
    face-down discards (rejected talon cards are public)."""
    shown = {c for g in state.shown for c in g}
    problems = []
    for seat in SEATS:
        view = TAROKY.view(state, seat)
        seen = view.visible_cards() - set(view.hand) - shown
        hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h}
        hidden |= {c for s, c in state.discards if s != seat and not c.is_tarok}
        if state.phase != "third_talon" or seat != state.declarer:
            hidden |= set(state.talon)
        if seen & hidden:
            problems.append(f"seat {seat} sees {sorted(DECK.codes[c] for c in seen & hidden)}")
    return problems


def test_random_playouts_conform() -> None:
    """Random legal hands through the whole API, the match pot carried from hand to hand."""
    rng = random.Random(6)
    rules = TAROKY.make_rules(4)
    match = MatchState.start(4, 150, 0, rules)
    seen: set[str] = set()
    zid: set[bool] = set()  # second obligations played for a non-empty zid: won / lost
    while not match.over:
        order = list(DECK.cards)
        rng.shuffle(order)
        state = TAROKY.deal(rules, order, match.dealer)
        while not state.finished:
            legal = TAROKY.legal_moves(state)
            assert legal, state.phase
            state = TAROKY.apply(state, choose(legal, rng, 0.7))
            if rng.random() < 0.1:
                assert leaks(state) == []
        res = result(state)
        assert check_hand(TAROKY, state, res) == []
        seen.add(res.contract)
        pot = match.pot
        match = TAROKY.settle(match, res)
        assert sum(match.totals) + match.pot == 0
        if res.contract == d.SECOND and pot:
            zid.add(bool(res.won))
            assert match.pot == (0 if res.won else 2 * pot)
    assert seen == {d.BASIC, d.SECOND, d.THIRD, d.SIXTH, d.VARSAVA}
    assert False in zid  # a lost second doubled the zid (won ones: see the golden tests)
