"""A radelc is crossed out only when the declarer made his contract (Slovenian, 3 and 4
players, and double tarok): an opponents' failed valat gives the declarer points but does not
make his contract."""

from __future__ import annotations

from dataclasses import replace

from tarok_service.engine.counting import in_threes
from tarok_service.engine.match import MatchState
from tarok_service.engine.moves import Move
from tarok_service.engine.options import Rules
from tarok_service.engine.state import SCORED, Trick
from tarok_service.variants.double_tarok import data as dd
from tarok_service.variants.slovenian import data as d
from tarok_service.variants.slovenian.rules import SLOVENIAN, SlovenianState

from . import double_tarok_helpers as dth
from .slovenian_helpers import DECK, cards, finished, order_for, rules

# The declarer's only trick: the queen of spades with three small spades (4 card points).
DECLARER_TRICK = "SQ S7 S8 S9"


def with_radelc(players: int, seat: int = 0, variant_rules: Rules | None = None) -> MatchState:
    m = MatchState.start(players, 4, 0, variant_rules)
    radelci = tuple(1 if i == seat else 0 for i in range(players))
    return replace(m, radelci=radelci)


# A played hand (dealer 3, seat 0 forehand). Seat 3 holds the skis and nothing else of use.
PLAYED_HANDS = (
    "T4 T21 T20 T19 T18 T17 CK CQ CC DK DQ DC",
    "T1 T16 T15 T14 T13 T12 H1 H2 H3 H4 HQ HC",
    "T11 T10 T9 T7 T6 T5 D1 D2 D3 D4 DJ HJ",
    "T22 SK SQ SC SJ S10 S9 CJ C10 C9 C8 C7",
)
PLAYED_TALON = "T2 T3 HK T8 S7 S8"
# Seat 3 plays solo one, takes the II from the talon and lays it away; seat 0 announces valat.
AUCTION = "pass pass bid:solo_one pass bid:solo_one talon:0 discard:T2 pass announce:valat"
# The twelve tricks: seat 3 wins only the first, with the skis (IIII, I, V, skis).
PLAYS = (
    "T4 T1 T5 T22 CJ CK T12 T6 T13 T7 C10 T17 T18 T14 T9 C9 T19 T15 T10 C8 T20 T16 T11 C7 "
    "T21 HQ HJ SK DK HC DJ SQ DQ H1 D1 SC DC H2 D2 SJ CQ H3 D3 S10 CC H4 D4 S9"
)


def test_played_solo_one_lost_with_the_opponents_failed_valat_keeps_the_radelc() -> None:
    state = SLOVENIAN.deal(rules(4), order_for(PLAYED_HANDS, PLAYED_TALON, dealer=3), 3)
    for move_id in AUCTION.split():
        state = SLOVENIAN.apply(state, Move.parse(move_id))
    while state.phase == "announce":
        state = SLOVENIAN.apply(state, Move("pass"))
    for code in PLAYS.split():
        state = SLOVENIAN.apply(state, Move("play", code))
    assert state.finished and [t.winner for t in state.tricks] == [3, 1] + [0] * 10
    result = SLOVENIAN.result(state)
    assert result is not None and result.declarer == 3
    assert result.side_points == (10, 60)  # II laid away + IIII, I, V, skis: 13 - 3
    assert [(line.item, line.points) for line in result.lines] == [("valat (announced)", 500)]
    assert result.won is False  # 10 card points: the contract is lost
    m = SLOVENIAN.settle(with_radelc(4, 3, rules(4)), result)
    assert m.totals == (0, 0, 0, 1000)
    assert m.radelci == (1, 1, 1, 2)  # not crossed out; everybody draws one for the valat


def test_four_players_solo_one_opponents_failed_valat_keeps_the_radelc() -> None:
    """Solo one: the declarer takes one trick (4 card points), seat 1 announced valat and so
    failed; the failed valat alone is scored (+500, doubled by the radelc), the contract is
    lost and the radelc stays."""
    team = cards(DECLARER_TRICK)
    state = finished("solo_one", team, partner=None, announced=((d.VALAT_BONUS, 1),))
    result = SLOVENIAN.result(state)
    assert result is not None
    assert result.side_points[0] == 4
    assert [(line.item, line.points) for line in result.lines] == [("valat (announced)", 500)]
    assert result.won is False
    m = SLOVENIAN.settle(with_radelc(4, 0, rules(4)), result)
    assert m.totals == (1000, 0, 0, 0)
    # the announced valat draws a radelc for everybody; the declarer's old one stays
    assert m.radelci == (2, 1, 1, 1)


def test_four_players_failed_valat_added_mode_keeps_contract_outcome() -> None:
    """With the failed valat added to the ordinary score, the contract decides the radelc:
    made with 40 card points -> crossed out; the declarer's own failed valat never crosses."""
    pile = [c for c in DECK.cards if c.suit == "T"][:3] + list(cards("HK DK SK CK SQ DQ HQ"))
    pile += list(cards("HC DC SC CC HJ DJ SJ CJ S7 S8 S9 S10 C7 C8"))
    points = in_threes(pile, DECK.points)
    assert points > 35
    opts = {"failed_announced_valat_mode": "add"}
    theirs = finished("solo_one", pile, partner=None, announced=((d.VALAT_BONUS, 1),), options=opts)
    result = SLOVENIAN.result(theirs)
    assert result is not None and result.won is True
    assert SLOVENIAN.settle(with_radelc(4, 0, rules(4)), result).radelci == (1, 1, 1, 1)
    ours = finished("solo_one", pile, partner=None, announced=((d.VALAT_BONUS, 0),), options=opts)
    result = SLOVENIAN.result(ours)
    assert result is not None and result.won is False
    assert SLOVENIAN.settle(with_radelc(4, 0, rules(4)), result).radelci == (2, 1, 1, 1)


def three_player_hand(announcer: int) -> SlovenianState:
    """Three players, One: the declarer (seat 0) takes the first trick "SQ S7 S8" (+ a fourth
    spade in his discards), seat 1 takes the other 15 tricks."""
    team = cards(DECLARER_TRICK)
    rest = [c for c in DECK.cards if c not in team]
    tricks = [Trick(tuple(zip((0, 1, 2), team[:3], strict=True)), 0)]
    for i in range(15):
        chunk = rest[3 * i : 3 * i + 3]
        tricks.append(Trick(tuple(zip((1, 2, 0), chunk, strict=True)), 1))
    return SlovenianState(
        rules=rules(3),
        dealer=2,
        phase=SCORED,
        turn=None,
        hands=((),) * 3,
        talon=(),
        piles=(team, tuple(rest), ()),
        tricks=tuple(tricks),
        contract=d.CONTRACT_INDEX["one"],
        declarer=0,
        announced=((d.VALAT_BONUS, announcer),),
    )


def test_three_players_opponents_failed_valat_keeps_the_radelc() -> None:
    state = three_player_hand(announcer=1)
    result = SLOVENIAN.result(state)
    assert result is not None
    assert result.side_points == (4, 66) and result.won is False
    m = SLOVENIAN.settle(with_radelc(3, 0, rules(3)), result)
    assert m.totals == (1000, 0, 0) and m.radelci == (2, 1, 1)


def test_double_tarok_opponents_failed_valat_keeps_the_radelc() -> None:
    """Double tarok, 4 players, solo one: the declarer takes 4 of 140 card points, seat 2
    announced valat and failed."""
    trick = "SQ.1 S7.1 S8.1 S9.2"
    state = dth.finished(4, "solo_one", 4, honours=trick, announced=((dd.VALAT_BONUS, 2),))
    result = dth.result(state)
    assert result.side_points[0] == 4
    assert [(line.item, line.points) for line in result.lines] == [("valat (announced)", 500)]
    assert result.won is False
    m = dth.DT.settle(with_radelc(4, 0, dth.rules(4)), result)
    assert m.totals == (1000, 0, 0, 0) and m.radelci == (2, 1, 1, 1)
