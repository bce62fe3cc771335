"""The 40-card pack, the deal and the redeal conditions."""

from __future__ import annotations

import pytest

from tarok_service.engine.cards import TAROK, tarock40
from tarok_service.engine.counting import plain
from tarok_service.engine.match import MatchState
from tarok_service.engine.options import OptionError
from tarok_service.engine.state import REDEAL
from tarok_service.variants.zwanzigerrufen.rules import needs_redeal

from .zwanzigerrufen_helpers import DECK, HANDS, VARIANT, cards, dealt

CODES = (
    "T1 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 T22 "
    "HK HQ HC HJ H1 DK DQ DC DJ D1 CK CQ CC CJ C10 SK SQ SC SJ S10"
)


def test_pack_has_40_cards_with_stable_distinct_codes() -> None:
    assert len(DECK) == 40
    assert " ".join(DECK.codes[c] for c in DECK.cards) == CODES
    assert len(set(DECK.codes.values())) == 40


def test_pack_has_no_II_III_and_one_glatze_per_suit() -> None:
    taroks = sorted(c.rank for c in DECK.cards if c.suit == TAROK)
    assert taroks == [1, *range(4, 23)]
    labels = [DECK.labels[c] for c in cards("H1 D1 C10 S10")]
    assert labels == ["♥A", "♦A", "♣10", "♠10"]


def test_card_points_add_up_to_88_by_plain_addition() -> None:
    pack = tarock40()
    assert plain(pack.cards, pack.points) == 88
    assert pack.total_points(pack.cards) == 88


@pytest.mark.parametrize(
    ("codes", "points"),
    [
        ("HK", 5),
        ("HQ", 4),
        ("HC", 3),
        ("HJ", 2),
        ("H1", 0),
        ("S10", 0),
        ("T1", 5),
        ("T21", 5),
        ("T22", 5),
        ("T4", 1),
        ("T20", 1),
    ],
)
def test_card_values(codes: str, points: int) -> None:
    assert DECK.points[DECK.card(codes)] == points


def test_deal_gives_ten_cards_each_no_talon_forehand_first() -> None:
    s = dealt(dealer=3)
    assert [len(h) for h in s.hands] == [10, 10, 10, 10]
    assert s.talon == ()
    assert s.hands[0] == DECK.sort(cards(HANDS[0]))
    assert s.turn == 0 and s.phase == "auction"
    assert s.dealt == s.hands


def test_deal_in_packets_of_five_from_forehand() -> None:
    order = list(DECK.cards)
    s = VARIANT.deal(VARIANT.make_rules(4), order, dealer=1)
    # forehand is seat 2: cards 0-4 and 20-24
    assert set(s.hands[2]) == set(order[0:5] + order[20:25])


@pytest.mark.parametrize(
    ("hand", "redeal"),
    [
        ("HK HQ HC HJ DK DQ DC DJ CK CQ", True),  # no tarok
        ("T22 HQ HC HJ DK DQ DC DJ CK CQ", True),  # one tarok
        ("T4 T5 H1 D1 C10 S10 HK HQ DK DQ", True),  # all four Glatzen
        ("T1 T22 HK HQ HC HJ DK DQ DC DJ", False),  # two trull cards: not redealt
        ("T4 T5 H1 D1 C10 HK HQ HC DK DQ", False),  # three Glatzen
    ],
)
def test_redeal_conditions(hand: str, redeal: bool) -> None:
    assert needs_redeal(cards(hand)) is redeal


ONE_TAROK = (
    "T22 HK HQ HC HJ DK DQ DC DJ CK",
    "T20 T19 T18 T17 T16 T15 T14 T13 T12 T11",
    "T21 T10 T9 T8 T7 T6 T5 T4 H1 D1",
    "T1 CQ CC CJ C10 SK SQ SC SJ S10",
)


def test_thrown_in_deal_is_redealt_with_the_same_forehand() -> None:
    s = dealt(ONE_TAROK, dealer=2)
    assert s.phase == REDEAL and s.turn is None
    assert VARIANT.legal_moves(s) == []
    result = VARIANT.result(s)
    assert result is not None and result.redeal
    match = MatchState.start(4, 3, dealer=2, rules=s.rules)
    after = VARIANT.settle(match, result)
    assert after.dealer == 2 and after.played == 0


def test_normal_deal_is_not_thrown_in() -> None:
    assert dealt().phase == "auction"


def test_options_defaults_and_errors() -> None:
    r = VARIANT.make_rules(4)
    assert r.opt("call_honours_from") == "hand"
    assert r.num("colour_solo_min_suits") == 5
    assert r.num("max_kontra") == 3
    assert not r.flag("trull_trick_mondfang")
    with pytest.raises(OptionError):
        VARIANT.make_rules(3)
    with pytest.raises(OptionError):
        VARIANT.make_rules(4, {"talon": 6})
    with pytest.raises(OptionError):
        VARIANT.make_rules(4, {"call_honours_from": "pile"})
