"""Tarocco Bolognese scoring: golden examples, a team without a trick, the Matto
exchange, and the score/lines convention."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tarok_service.engine.cards import Card
from tarok_service.engine.counting import in_pairs
from tarok_service.engine.match import MatchState
from tarok_service.engine.moves import Move
from tarok_service.engine.state import SCORED, Trick
from tarok_service.selfplay import check_hand
from tarok_service.variants.tarocco_bolognese.combinations import find
from tarok_service.variants.tarocco_bolognese.rules import DECK, BologneseState
from tarok_service.variants.tarocco_bolognese.scoring import team_totals

from .bolognese_helpers import V, cards, deal, passing, play_out, random_deal

PIPS = [c for c in DECK.cards if not c.is_tarok and c.rank <= 6 and c.suit != "F"]
TEAM_B_9_5 = (*PIPS, *cards("SwK BaK CuK CoK SwJ BaJ"))


def finished(piles: dict[int, tuple[Card, ...]], last_winner: int) -> BologneseState:
    """A scored state with these piles (other seats empty) and the last trick to a seat."""
    start = random_deal(0)
    trick = Trick(tuple((seat, DECK.cards[seat]) for seat in range(4)), last_winner)
    return replace(
        start,
        phase=SCORED,
        turn=None,
        hands=((),) * 4,
        piles=tuple(piles.get(seat, ()) for seat in range(4)),
        tricks=(trick,),
    )


def test_rules_9_5_card_points_in_pairs() -> None:
    team_b = TEAM_B_9_5
    team_a = tuple(c for c in DECK.cards if c not in team_b)
    assert (len(team_a), DECK.total_points(team_a)) == (32, 70)
    assert (len(team_b), DECK.total_points(team_b)) == (30, 48)
    assert in_pairs(team_a, DECK.points) == 54
    assert in_pairs(team_b, DECK.points) == 33


def test_rules_9_5_as_a_scored_hand() -> None:
    team_a = tuple(c for c in DECK.cards if c not in TEAM_B_9_5)
    state = finished({0: team_a, 3: TEAM_B_9_5}, last_winner=2)
    result = V.result(state)
    assert result is not None
    assert result.side_points == (54, 33)
    lines = {(x.item, x.seats): x.points for x in result.lines}
    assert lines[("cards", (0, 2))] == 54 and lines[("cards", (1, 3))] == 33
    assert lines[("last trick", (0, 2))] == 6 and ("last trick", (1, 3)) not in lines
    # team A: tarocchi, queens, cavalli (doubled); grande x22 (Moors + contatori), moors x6
    assert lines[("captured: tarocchi x4", (0, 2))] == 36
    assert lines[("captured: sets doubled", (0, 2))] == 36 + 28 + 26
    assert lines[("captured: grande x22", (0, 2))] == 105
    assert lines[("captured: moors x6", (0, 2))] == 25
    # team B: kings x4 and aces x4 (no contatori)
    assert lines[("captured: kings x4", (1, 3))] == 34
    assert lines[("captured: aces x4", (1, 3))] == 15
    a, b = 54 + 6 + 2 * (36 + 28 + 26) + 105 + 25, 33 + 34 + 15
    assert team_totals(result) == (a, b) == (370, 82)
    assert result.scores == (288, -288, 288, -288)
    assert result.won is True and result.team == (0, 2)


def test_equal_totals_are_a_draw() -> None:
    half_a = cards("Sw6 Sw7 Ba6 Ba7")
    half_b = cards("Cu7 Cu8 Co7 Co8")
    state = finished({0: half_a, 1: half_b}, last_winner=0)
    result = V.result(state)
    assert result is not None
    assert team_totals(result) == (2 + 6, 2)
    numbered = cards(" ".join(f"T{n}" for n in range(5, 17)))
    even = replace(state, piles=(half_a, (*half_b, *numbered), (), ()))
    drawn = V.result(even)
    assert drawn is not None and team_totals(drawn) == (8, 8)
    assert drawn.scores == (0, 0, 0, 0) and drawn.won is None


# The team of seats 0 and 2 holds every trump, king and queen and the swords cavallo: whatever
# is played, the other team (dealer 1, holding the Matto) takes no trick.
STRONG = (
    "TAngel TWorld TSun TMoon T16 T15 T14 T13 T12 T11 SwK BaK SwQ BaQ SwC",
    "Matto BaC CuC CoC SwJ BaJ CuJ CoJ Sw10 Sw9 Sw8 Sw7 Sw6 SwA Ba10 Ba9 Ba8",
    "T10 T9 T8 T7 T6 T5 TMoor1 TMoor2 TMoor3 TMoor4 TBegato CuK CoK CuQ CoQ",
    "Ba7 Ba6 BaA CuA Cu6 Cu7 Cu8 Cu9 Cu10 CoA Co6 Co7 Co8 Co9 Co10",
)


def test_team_without_a_trick_loses_the_matto_and_the_discards() -> None:
    state = play_out(deal(STRONG, 1), passing)
    assert state.phase == SCORED and state.given is None
    assert {tr.winner % 2 for tr in state.tricks} == {0}
    assert state.piles[1] == () and state.piles[3] == ()
    assert sorted(state.piles[0] + state.piles[2]) == sorted(DECK.cards)
    result = V.result(state)
    assert result is not None
    assert result.side_points == (87, 0)
    assert team_totals(result) == (87 + 6 + 846, 0)
    assert result.scores == (939, -939, 939, -939)


@pytest.mark.parametrize("seed", range(6))
def test_team_without_a_trick_under_any_play(seed: int) -> None:
    rng = random.Random(seed)

    def policy(state: BologneseState, legal: list[Move]) -> Move:
        return rng.choice(legal)

    state = play_out(deal(STRONG, 1), policy)
    result = V.result(state)
    assert result is not None and check_hand(V, state, result) == []
    assert len(state.piles[0] + state.piles[2]) == 62
    declared = sum(c.total for seat, c in state.declared if seat % 2 == 0)
    assert team_totals(result)[0] == 939 + declared
    assert team_totals(result)[1] == sum(c.total for seat, c in state.declared if seat % 2)


def _owing(team_cards: str, partner_cards: str = "") -> BologneseState:
    """The end of play with seat 0 owing a card for its Matto, taken by seat 1."""
    state = finished({0: cards(team_cards), 2: cards(partner_cards)}, last_winner=0)
    return replace(state, phase="matto", turn=0, matto_due=0, matto_taker=1)


def test_exchange_offers_one_point_cards_suit_pips_first_lowest_first() -> None:
    state = _owing("Matto SwK Sw6 CuA T5 TMoor2", "Co10 SwQ TSun Ba9")
    ids = [mv.id for mv in V.legal_moves(state)]
    assert ids == [
        "give:Co10",  # rank 1 of coins (the lowest pip)
        "give:Sw6",
        "give:Ba9",
        "give:CuA",
        "give:TMoor2",  # then trumps, lowest first
        "give:T5",
        "give:TSun",
    ]
    after = V.apply(state, Move("give", "Ba9"))
    assert cards("Ba9")[0] in after.piles[1] and cards("Ba9")[0] not in after.piles[2]


def test_exchange_without_one_point_cards_gives_a_lowest_valued_card() -> None:
    state = _owing("Matto SwJ SwQ TAngel", "CuJ CoK")
    assert [mv.id for mv in V.legal_moves(state)] == ["give:SwJ", "give:CuJ"]


def test_captured_combinations_count_after_the_exchange() -> None:
    state = _owing("Matto SwA BaA CuA SwK", "BaK CuK")
    before = {c.describe(): c.points for c in find(state.piles[0] + state.piles[2]).all}
    assert before == {"kings x3": 17, "aces x4": 15}  # three aces and the Matto
    after = V.apply(state, Move("give", "SwA"))
    result = V.result(after)
    assert result is not None
    captured = {x.item: x.points for x in result.lines if x.item.startswith("captured")}
    assert captured == {"captured: kings x3": 17, "captured: aces x3": 10}
    assert cards("SwA")[0] in after.piles[1]


def test_scores_accumulate_over_a_match() -> None:
    rules = V.make_rules(4)
    match = MatchState.start(4, 2, rules=rules)
    for seed in (3, 4):
        state = play_out(random_deal(seed, match.dealer))
        result = V.result(state)
        assert result is not None
        match = V.settle(match, result)
    assert sum(match.totals) == 0 and match.over and match.dealer == 2
    assert match.totals[0] == match.totals[2] and match.totals[1] == match.totals[3]


def test_every_seat_score_is_the_sum_of_its_lines() -> None:
    for seed in range(20):
        state = play_out(random_deal(seed))
        result = V.result(state)
        assert result is not None
        for seat in range(4):
            own = sum(x.points for x in result.lines if seat in x.seats)
            assert result.scores[seat] == own
        assert all(x.seats in ((0, 2), (1, 3)) for x in result.lines)
