"""Königrufen played through the engine: the auction, the call and exchange, announcements
and kontra, trick play of each kind of contract, and random playouts that keep every rule."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tarok_service import selfplay
from tarok_service.engine.cards import Card
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import IllegalMove, Move, MoveKind
from tarok_service.engine.options import OptionValue
from tarok_service.engine.state import TRICKS, Trick
from tarok_service.variants.koenigrufen import data as d
from tarok_service.variants.slovenian.state import Phase, SlovenianState

from .koenigrufen_helpers import PLAYERS, VARIANT, cards

DECK = VARIANT.deck(VARIANT.make_rules(PLAYERS))
# Seats' hands (dealer 3, forehand 0) and the talon, dealt by `order_for`.
HANDS = (
    "T1 T2 T3 T21 T22 HK SK S7 S8 D4 C7 C8",
    "T4 T5 T6 T7 T8 DK HQ HC HJ H1 H2 H3",
    "T9 T10 T11 T12 T13 CK DQ DC DJ D1 D2 D3",
    "T14 T15 T16 T17 T18 T19 SQ SC SJ S10 S9 CQ",
)
TALON = "T20 H4 CC CJ C10 C9"


def order_for(hands: Sequence[str], talon: str, dealer: int = 3) -> list[Card]:
    """A card order dealing `hands` by seat and `talon` (the talon first, then packets of 6
    from forehand)."""
    by_seat = [list(cards(h)) for h in hands]
    order = list(cards(talon))
    seat = (dealer + 1) % PLAYERS
    while any(by_seat):
        order += by_seat[seat][:6]
        by_seat[seat] = by_seat[seat][6:]
        seat = (seat + 1) % PLAYERS
    return order


def dealt(hands: Sequence[str] = HANDS, **options: OptionValue) -> SlovenianState:
    rules = VARIANT.make_rules(PLAYERS, options)
    state: SlovenianState = VARIANT.deal(rules, order_for(hands, TALON), 3)
    return state


def run(state: SlovenianState, *moves: str) -> SlovenianState:
    for text in moves:
        state = VARIANT.apply(state, Move.parse(text))
    return state


def ids(moves: Sequence[Move]) -> list[str]:
    return [str(m) for m in moves]


def legal(state: SlovenianState) -> list[str]:
    return ids(VARIANT.legal_moves(state))


def test_the_deal_gives_12_cards_each_and_a_talon_of_6() -> None:
    state = dealt()
    assert [len(h) for h in state.hands] == [12] * 4
    assert len(state.talon) == 6
    assert state.phase == Phase.BIDDING and state.turn == 1  # the player after forehand opens


def test_a_hand_without_tarocks_is_played() -> None:
    no_tarock = (
        "HK SK S7 S8 D4 C7 C8 HQ HC HJ H1 H2",
        "T1 T2 T3 T21 T22 T4 T5 T6 T7 T8 DK H3",
        "T9 T10 T11 T12 T13 CK DQ DC DJ D1 D2 D3",
        "T14 T15 T16 T17 T18 T19 SQ SC SJ S10 S9 CQ",
    )
    state = dealt(no_tarock)
    assert state.phase == Phase.BIDDING


def test_forehands_own_contracts_come_only_after_three_passes() -> None:
    state = dealt()
    first = legal(state)
    assert "bid:rufer" not in first and "bid:trischaken" not in first
    assert "bid:sechserdreier" not in first and "bid:zwiccolo" not in first
    assert "bid:piccolo" in first and "bid:solodreier" in first
    state = run(state, "pass", "pass", "pass")
    own = legal(state)
    assert {"bid:trischaken", "bid:rufer", "bid:sechserdreier"} <= set(own)
    assert "pass" not in own


def test_zwiccolo_is_biddable_with_its_option() -> None:
    assert "bid:zwiccolo" in legal(dealt(zwiccolo=True))


def test_rufer_calls_a_king_the_declarer_does_not_hold_and_takes_a_half() -> None:
    state = run(dealt(), "pass", "pass", "pass", "bid:rufer")
    assert state.phase == Phase.CALLING
    assert sorted(legal(state)) == ["call:CK", "call:DK"]  # seat 0 holds HK and SK
    state = run(state, "call:DK")
    assert state.partners == (1,)
    assert legal(state) == ["talon:0", "talon:1"]
    state = run(state, "talon:0")
    assert state.to_discard == 3
    discardable = {m.value for m in VARIANT.legal_moves(state)}
    assert not discardable & {"HK", "SK", "T1", "T21", "T22"}  # no king, no trull card
    assert not any(code.startswith("T") for code in discardable)  # suit cards first
    state = run(state, "discard:S7", "discard:S8", "discard:D4")
    assert state.phase == Phase.ANNOUNCE


def test_own_king_call_option() -> None:
    state = run(dealt(own_king_call=True), "pass", "pass", "pass", "bid:rufer")
    assert "call:HK" in legal(state)
    state = run(state, "call:HK")
    assert state.partners == ()  # he plays alone


def test_solorufer_goes_from_the_call_to_the_announcements() -> None:
    state = run(dealt(), "bid:solorufer", "pass", "pass", "pass", "bid:solorufer")
    assert state.declarer == 1 and state.phase == Phase.CALLING
    state = run(state, "call:SK")
    assert state.phase == Phase.ANNOUNCE and state.talon == cards(TALON)


def test_sechserdreier_takes_the_whole_talon_and_lays_away_six() -> None:
    state = run(dealt(), "pass", "pass", "pass", "bid:sechserdreier")
    assert legal(state) == ["talon:0"]
    state = run(state, "talon:0")
    assert len(state.hands[0]) == 18 and state.to_discard == 6


def test_farbendreier_lays_away_tarocks_first() -> None:
    state = run(dealt(), "bid:farbendreier", "pass", "pass", "pass", "bid:farbendreier", "talon:1")
    codes = {m.value for m in VARIANT.legal_moves(state)}
    assert codes and all(code.startswith("T") for code in codes)
    assert not codes & {"T1", "T21", "T22"}


def dreier_announcing() -> SlovenianState:
    """Seat 0 (holding I, II, III) plays a Dreier, talon half 1 taken, suit cards laid away."""
    state = run(dealt(), "pass", "pass", "pass", "bid:dreier", "talon:1")
    return run(state, "discard:S7", "discard:S8", "discard:D4")


def test_birds_are_announced_by_their_holder_only() -> None:
    state = dreier_announcing()
    mine = {m.value for m in VARIANT.legal_moves(state) if m.kind == MoveKind.ANNOUNCE}
    assert {d.PAGAT, d.UHU, d.KAKADU, d.TRULL, d.KINGS, d.VALAT} <= mine
    assert d.QUAPIL not in mine and d.KING_ULTIMO not in mine  # IIII is seat 1's; no call
    state = run(state, "pass")
    theirs = {m.value for m in VARIANT.legal_moves(state) if m.kind == MoveKind.ANNOUNCE}
    assert d.QUAPIL in theirs and d.PAGAT not in theirs


def test_an_announced_bird_is_kept_for_its_trick() -> None:
    state = run(dreier_announcing(), "announce:uhu", "pass", "pass", "pass", "pass")
    assert state.phase == TRICKS and state.turn == 0
    assert "play:T2" not in legal(state)
    late = evolve(state, hands=(cards("T2 T3"), *state.hands[1:]))
    assert legal(late) == ["play:T3"]  # trick 1: kept while another card is legal
    earlier = Trick(tuple((seat, card) for seat, card in enumerate(cards("S9 S10 SJ SQ"))), 3)
    eleventh = evolve(late, tricks=(earlier,) * 10)  # ten tricks played (as far as it counts)
    assert legal(eleventh) == ["play:T2", "play:T3"]  # trick 11: the uhu's own trick


def test_colour_games_announce_only_kings_and_valat() -> None:
    state = run(dealt(), "bid:farbensolo", "pass", "pass", "pass", "bid:farbensolo")
    assert state.phase == Phase.ANNOUNCE and state.declarer == 1
    items = {m.value for m in VARIANT.legal_moves(state) if m.kind == MoveKind.ANNOUNCE}
    assert items == {d.KINGS, d.VALAT}


def test_negative_games_have_no_announcements_and_trischaken_no_kontra() -> None:
    state = run(dealt(), "bid:bettel", "pass", "pass", "pass", "bid:bettel")
    assert all(m.kind != MoveKind.ANNOUNCE for m in VARIANT.legal_moves(state))
    trischaken = run(dealt(), "pass", "pass", "pass", "bid:trischaken")
    assert trischaken.phase == TRICKS and trischaken.turn == 0


def test_kontra_stops_at_subkontra() -> None:
    state = run(dreier_announcing(), "pass", "kontra:game", "pass", "pass", "pass")
    state = run(state, "kontra:game", "pass", "kontra:game")  # rekontra, subkontra
    assert state.level(d.GAME) == 3
    assert all(m.kind != MoveKind.KONTRA for m in VARIANT.legal_moves(state))


def test_colour_game_tricks_tarocks_do_not_win_a_suit_lead() -> None:
    state = run(dealt(), "bid:farbensolo", "pass", "pass", "pass", "bid:farbensolo", *["pass"] * 4)
    assert state.phase == TRICKS and state.turn == 0
    assert not any(code.startswith("T") for code in {m.value for m in VARIANT.legal_moves(state)})
    state = run(state, "play:S7", "play:T4")  # seat 1 has no spade: a tarock, which cannot win
    state = run(state, "play:T9", "play:S9")
    assert state.tricks[-1].winner == 3  # S9 beats S7; the tarocks do not count


def test_bettel_ends_at_the_declarers_first_trick() -> None:
    state = run(dealt(), "pass", "pass", "pass", "bid:bettel", *["pass"] * 4)
    assert state.phase == TRICKS and state.turn == 0  # the declarer leads
    assert "play:T1" not in legal(state)  # the pagat only as the last tarock
    state = run(state, "play:T22")
    assert legal(state) == ["play:T4", "play:T5", "play:T6", "play:T7", "play:T8"]
    state = run(state, "play:T4", "play:T9", "play:T14")
    assert state.finished and len(state.tricks) == 1
    result = VARIANT.result(state)
    assert result is not None and result.scores == (-6, 2, 2, 2)


def test_negative_games_the_pagat_only_as_the_last_tarock() -> None:
    state = run(dealt(), "bid:piccolo", "pass", "pass", "pass", "bid:piccolo", *["pass"] * 4)
    assert state.turn == 1  # the declarer (seat 1) leads
    state = run(state, "play:T4", "play:T13", "play:T19")
    assert "play:T1" not in legal(state)  # seat 0 must beat with T21 or T22, never the pagat
    assert legal(state) == ["play:T21", "play:T22"]


def test_illegal_moves_are_refused_with_a_reason() -> None:
    state = dealt()
    try:
        VARIANT.apply(state, Move(MoveKind.BID, "rufer"))
    except IllegalMove as err:
        assert err.reason == "BID_NOT_ALLOWED"
    else:
        raise AssertionError("a bid of forehand's own contract by another seat was accepted")


def random_hands(games: int, seed: int, **options: OptionValue) -> Counter[str]:
    """Random playouts (passing often, so that every contract comes up); every finished hand
    keeps the engine's invariants and the scores add up to 0."""
    rng = random.Random(seed)
    rules = VARIANT.make_rules(PLAYERS, options)
    seen: Counter[str] = Counter()
    for game in range(games):
        state: Any = VARIANT.random_deal(rules, rng, game % PLAYERS)
        while not state.finished:
            moves = VARIANT.legal_moves(state)
            passes = [m for m in moves if m.kind == MoveKind.PASS]
            state = VARIANT.apply(
                state, passes[0] if passes and rng.random() < 0.8 else rng.choice(moves)
            )
        result = VARIANT.result(state)
        assert result is not None
        assert selfplay.check_hand(VARIANT, state, result) == []
        assert sum(result.scores) == 0
        seen[result.contract] += 1
    return seen


def test_random_playouts_keep_the_rules() -> None:
    seen = random_hands(300, 1)
    assert {"trischaken", "rufer", "dreier", "bettel", "solorufer", "sechserdreier"} <= set(seen)


def test_random_playouts_under_every_option() -> None:
    seen = random_hands(
        150,
        2,
        emperor_trick=True,
        silent_failure_counts=True,
        own_king_call=True,
        kontra_in_score=True,
        zwiccolo=True,
        trischaken_talon="first_six",
        jungfrauen_full=True,
        early_end=False,
    )
    assert "zwiccolo" in seen


def test_selfplay_has_no_invariant_failures() -> None:
    tally = selfplay.run(VARIANT, PLAYERS, 150, seed=3, pass_rate=0.7)
    assert tally.failures == []


def test_the_besserrufer_declarer_must_announce_his_bird_first() -> None:
    state = run(dealt(), "bid:besserrufer", "pass", "pass", "pass", "bid:besserrufer")
    state = run(state, "call:CK", "talon:0", "discard:H2", "discard:H3", "discard:H4")
    assert state.phase == Phase.ANNOUNCE and state.turn == 1
    assert legal(state) == ["announce:quapil"]  # seat 1 holds the IIII, no other bird
    try:
        VARIANT.apply(state, Move(MoveKind.PASS))
    except IllegalMove as err:
        assert err.reason == "PASS_NOT_ALLOWED"
    else:
        raise AssertionError("the Besserrufer declarer passed without his bird")
    state = run(state, "announce:quapil")
    assert "pass" in legal(state)


def test_the_hand_rules_out_some_bids() -> None:
    """Seat 2 holds no bird: no Besserrufer; a hand with all four kings calls no king."""
    state = run(dealt(), "pass")
    assert state.turn == 2 and "bid:besserrufer" not in legal(state)
    try:
        VARIANT.apply(state, Move(MoveKind.BID, "besserrufer"))
    except IllegalMove as err:
        assert err.reason == "BID_NOT_ALLOWED"
    else:
        raise AssertionError("a Besserrufer without a bird was accepted")
    four_kings = (
        "T1 T2 T3 T21 T22 HK SK DK CK S8 D4 C8",
        "T4 T5 T6 T7 T8 S7 HQ HC HJ H1 H2 H3",
        "T9 T10 T11 T12 T13 C7 DQ DC DJ D1 D2 D3",
        HANDS[3],
    )
    own = legal(run(dealt(four_kings), "pass", "pass", "pass"))
    assert "bid:rufer" not in own and "bid:solorufer" not in own and "bid:besserrufer" not in own
    assert "bid:trischaken" in own and "bid:dreier" in own


def test_the_ouverts_rank_above_farbensolo_and_below_solodreier() -> None:
    order = [c.id for c in VARIANT.contracts(PLAYERS)]
    assert order.index("farbensolo") < order.index(d.PICCOLO_OUVERT)
    assert order.index(d.PICCOLO_OUVERT) < order.index(d.BETTEL_OUVERT) < order.index("solodreier")
    state = run(dealt(), "bid:farbensolo")
    assert {"bid:piccolo_ouvert", "bid:bettel_ouvert"} <= set(legal(state))
    state = run(state, "bid:bettel_ouvert")
    assert "bid:piccolo_ouvert" not in legal(state) and "bid:solodreier" in legal(state)


def test_bettel_ouvert_lays_the_declarers_hand_open_after_the_first_trick() -> None:
    """Forehand (seat 0) names Bettel ouvert after three passes. Nobody sees his hand until
    the first trick is over, then everybody sees what he still holds; he loses at the first
    trick he takes, paying 7 to each opponent."""
    state = run(dealt(), "pass", "pass", "pass", "bid:bettel_ouvert", *["pass"] * 4)
    assert state.phase == TRICKS and state.turn == 0 and state.declarer == 0

    def shown(s: SlovenianState, seat: int | None) -> list[tuple[Card, ...]]:
        return [g.cards for g in VARIANT.view(s, seat).public if g.name == "declarer's hand"]

    assert all(shown(state, seat) == [] for seat in (None, 1, 2, 3))
    state = run(state, "play:D4", "play:DK", "play:D1", "play:T14")  # seat 3 trumps
    assert state.tricks[-1].winner == 3 and not state.finished
    hand = state.hands[0]
    assert len(hand) == 11 and all(shown(state, seat) == [hand] for seat in (None, 1, 2, 3))
    state = run(state, "play:CQ", "play:C7", "play:T4", "play:CK")  # seat 1 trumps
    assert state.tricks[-1].winner == 1 and shown(state, 2) == [state.hands[0]]
    state = run(state, "play:T5", "play:T9", "play:T15")  # a tarock lead: each must beat
    assert "play:T22" in legal(state) and "play:T2" not in legal(state)
    state = run(state, "play:T21")
    assert state.finished and state.tricks[-1].winner == 0 and len(state.tricks) == 3
    result = VARIANT.result(state)
    assert result is not None and result.scores == (-21, 7, 7, 7)


def test_piccolo_ouvert_is_a_piccolo_played_open() -> None:
    state = run(dealt(), "bid:piccolo_ouvert", "pass", "pass", "pass", "bid:piccolo_ouvert")
    state = run(state, *["pass"] * 4)
    assert state.phase == TRICKS and state.declarer == 1 and state.turn == 1
    assert [g.name for g in VARIANT.view(state, 2).public] == []
    state = run(state, "play:H1", "play:T9", "play:T14", "play:HK")  # seat 3 wins
    assert [g.name for g in VARIANT.view(state, 2).public] == ["declarer's hand"]


# The called king in the talon: HANDS with the C-king moved to the talon and, for a
# Besserrufer on the Uhu by seat 2, the II with seat 2 and the XIII with seat 0.
CONCEDE_HANDS = (
    "T1 T13 T3 T21 T22 HK SK S7 S8 D4 C7 C8",
    "T4 T5 T6 T7 T8 DK HQ HC HJ H1 H2 H3",
    "T9 T10 T11 T12 T2 C9 DQ DC DJ D1 D2 D3",
    "T14 T15 T16 T17 T18 T19 SQ SC SJ S10 S9 CQ",
)
CONCEDE_TALON = "T20 H4 CC CJ C10 CK"


def king_in_talon(**options: OptionValue) -> SlovenianState:
    rules = VARIANT.make_rules(PLAYERS, options)
    state: SlovenianState = VARIANT.deal(rules, order_for(CONCEDE_HANDS, CONCEDE_TALON), 3)
    return state


def test_a_besserrufer_with_the_called_king_in_the_talon_may_be_conceded() -> None:
    """Seat 2 bids Besserrufer holding the Uhu (II) but not the Pagat and calls the C-king,
    which lies in the talon: he may take a half and play alone, or concede and pay the game
    (1) and the Uhu's announced value (4) to each of the others (the digest's example 16)."""
    state = run(king_in_talon(), "pass", "bid:besserrufer", "pass", "pass", "bid:besserrufer")
    assert state.declarer == 2 and "call:CK" in legal(state)
    state = run(state, "call:CK")
    assert state.phase == Phase.TALON and state.partners == ()
    assert legal(state) == ["talon:0", "talon:1", "pass"]
    conceded = run(state, "pass")
    assert conceded.finished and not conceded.tricks
    result = VARIANT.result(conceded)
    assert result is not None and result.won is False
    assert result.scores == (5, 5, -15, 5)
    assert [line.item for line in result.lines[::2]] == ["game (lost)", "uhu (announced, lost)"]
    played = run(state, "talon:1")  # playing on alone: no concession any more
    assert "pass" not in legal(played) and played.partners == ()


def test_a_rufer_conceded_costs_the_game_and_needs_the_king_in_the_talon() -> None:
    state = run(king_in_talon(), "pass", "pass", "pass", "bid:rufer", "call:CK")
    result = VARIANT.result(run(state, "pass"))
    assert result is not None and result.scores == (-3, 1, 1, 1)
    assert "pass" not in legal(run(dealt(), "pass", "pass", "pass", "bid:rufer", "call:DK"))
    off = run(king_in_talon(concede=False), "pass", "pass", "pass", "bid:rufer", "call:CK")
    assert legal(off) == ["talon:0", "talon:1"]
    with_reason = VARIANT.explain(off, Move(MoveKind.PASS))
    assert with_reason[0] == "PASS_NOT_ALLOWED"
