"""The Bolognese combination finder, case by case."""

from __future__ import annotations

import itertools

import pytest

from tarok_service.variants.tarocco_bolognese.combinations import (
    SET_MEMBERS,
    SET_VALUES,
    find,
    sequence_value,
)
from tarok_service.variants.tarocco_bolognese.rules import DECK

from .bolognese_helpers import cards, combos, points, sizes

# --- sets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SET_MEMBERS))
def test_every_set_of_three_and_four(name: str) -> None:
    members = SET_MEMBERS[name]
    three, four = SET_VALUES[name]
    for triple in itertools.combinations(members, 3):
        assert {c.name: c.points for c in find(triple).sets} == {name: three}
    assert {c.name: c.points for c in find(members).sets} == {name: four}
    for pair in itertools.combinations(members, 2):
        assert not find(pair).sets


def test_set_values_from_the_seed() -> None:
    assert SET_VALUES == {
        "tarocchi": (18, 36),
        "kings": (17, 34),
        "queens": (14, 28),
        "cavalli": (13, 26),
        "jacks": (12, 24),
    }


def test_tarocchi_members_are_angel_world_begato_matto() -> None:
    assert points("TAngel TWorld Matto") == {"tarocchi": 18, "grande": 10}
    assert points("TWorld TBegato Matto") == {"tarocchi": 18}
    assert points("TAngel TWorld TBegato Matto")["tarocchi"] == 36
    assert points("TAngel TWorld TSun") == {"grande": 10}  # the Sun is no tarocco


def test_contatori_do_not_complete_sets_by_default() -> None:
    assert points("SwK BaK TBegato") == {}
    assert points("SwK BaK CuK Matto") == {"kings": 17}


def test_option_contatori_complete_sets_of_two_real_cards() -> None:
    assert points("SwK BaK TBegato", contatori_in_sets=True) == {"kings": 17}
    assert points("SwK BaK TBegato Matto", contatori_in_sets=True)["kings"] == 34
    assert points("SwK BaK CuK Matto", contatori_in_sets=True) == {"kings": 34}
    assert points("SwK TBegato Matto", contatori_in_sets=True) == {}
    held = points("SwQ CuQ TAngel TBegato Matto", contatori_in_sets=True)
    assert held == {"queens": 28, "tarocchi": 18}  # the tarocchi take no substitutes


def test_two_sets_are_not_doubled_three_are() -> None:
    two = combos("SwK BaK CuK SwQ BaQ CuQ")
    assert not two.sets_doubled and two.set_points == 17 + 14
    three = combos("SwK BaK CuK SwQ BaQ CuQ SwJ BaJ CuJ CoJ")
    assert three.sets_doubled and three.set_points == 2 * (17 + 14 + 24)
    five = combos("TAngel TWorld TBegato SwK BaK CuK SwQ BaQ CuQ SwC BaC CuC SwJ BaJ CuJ")
    assert five.set_points == 2 * (18 + 17 + 14 + 13 + 12)


# --- suit sequences -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("SwK SwQ SwC", 3),
        ("SwK SwQ SwJ", 3),  # a figure may be missing
        ("SwK SwC SwJ", 3),
        ("SwK SwQ SwC SwJ", 4),
        ("SwK SwQ SwC SwJ SwA", 5),
        ("SwK SwQ SwJ SwA", 4),  # 6.5.3: K-Q-J-A = 15
        ("SwK SwQ TBegato", 3),  # the contatore fills C or J
        ("SwK SwJ Matto", 3),
        ("SwK SwQ TBegato Matto", 4),
        ("SwK SwQ SwA TBegato", 4),  # the contatore makes it valid, the ace extends it
        ("SwK SwQ SwC SwJ TBegato", 5),  # a contatore not filling a gap adds length
        ("SwK SwQ SwC SwJ SwA TBegato Matto", 7),  # 6.5.2: 30 points
    ],
)
def test_suit_sequence_lengths(hand: str, length: int) -> None:
    assert sizes(hand)["swords"] == length
    assert points(hand)["swords"] == sequence_value(length)


@pytest.mark.parametrize(
    "hand",
    [
        "SwQ SwC SwJ SwA",  # no king
        "SwK SwQ",
        "SwK SwQ SwA",  # the ace never counts toward the minimum
        "SwK TBegato Matto",  # at least one of Q/C/J must be real
        "SwK SwA TBegato Matto",
        "SwQ SwC TBegato Matto",
        "SwK BaQ CuC",  # one suit only
    ],
)
def test_no_suit_sequence(hand: str) -> None:
    assert not combos(hand).sequences


def test_round_suit_ace_extends_its_sequence() -> None:
    assert points("CuK CuQ CuC CuA") == {"cups": 15}
    assert points("CoK CoC CoJ CoA Co10") == {"coins": 15}  # the 10 is no ace
    assert points("BaK BaQ BaC Ba10") == {"batons": 10}


def test_value_of_sequences() -> None:
    assert [sequence_value(n) for n in (3, 4, 5, 7, 22)] == [10, 15, 20, 30, 105]


# --- aces and Moors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("SwA BaA CuA", 3),
        ("SwA BaA CuA CoA", 4),
        ("SwA CoA TBegato", 3),
        ("SwA CoA TBegato Matto", 4),
        ("SwA BaA CuA CoA TBegato Matto", 6),
    ],
)
def test_aces(hand: str, length: int) -> None:
    assert sizes(hand) == {"aces": length}


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("TMoor1 TMoor2 TMoor4", 3),
        ("TMoor1 TMoor2 TMoor3 TMoor4", 4),
        ("TMoor2 TMoor3 Matto", 3),
        ("TMoor1 TMoor2 TMoor3 TBegato Matto", 5),
    ],
)
def test_moors(hand: str, length: int) -> None:
    assert sizes(hand) == {"moors": length}


@pytest.mark.parametrize("hand", ["SwA BaA", "SwA TBegato Matto", "TMoor1 TBegato Matto"])
def test_aces_and_moors_need_two_real_cards_and_three_in_all(hand: str) -> None:
    assert not combos(hand).sequences


# --- the Grande ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("TAngel TWorld TSun", 3),
        ("TAngel TSun TMoon", 3),
        ("TAngel TWorld TMoon", 3),
        ("TAngel TWorld TSun TMoon", 4),
        ("TAngel TWorld TBegato", 3),  # one real block card, a contatore in the block
        ("TAngel TMoon Matto", 3),
        ("TAngel TWorld TSun TMoon T16 T15 T14", 7),
        ("TAngel TWorld TSun T16 T15", 5),  # one empty slot in the block is allowed
        ("TAngel TWorld TBegato T16 T15", 5),
        ("TAngel TWorld TBegato T15", 3),  # the block used the contatore: 16 stays a gap
        ("TAngel TWorld TBegato Matto T15 T14", 6),  # Bégato in the block, Matto for the 16
        ("TAngel TWorld TSun TMoon T15 T14 TBegato", 7),  # a filled 16
        ("TAngel TWorld TSun TMoon T16 T14 TBegato", 7),  # a filled 15, then the 14
        ("TAngel TWorld TSun TMoon T16 T14 T12 TBegato", 7),  # second gap unfilled: stop
        ("TAngel TWorld TSun TMoon T16 T14 T12 T11 TBegato Matto", 10),  # two single gaps
        ("TAngel TWorld TSun TMoon T14 T13 T12 TBegato Matto", 6),  # 16, 15 both filled: stop
        ("TAngel TWorld TSun TMoon T16 T15 TBegato Matto", 8),  # contatori add length
    ],
)
def test_grande_lengths(hand: str, length: int) -> None:
    assert sizes(hand)["grande"] == length


@pytest.mark.parametrize(
    "hand",
    [
        "TWorld TSun TMoon T16 T15",  # no Angel
        "TAngel TWorld",
        "TAngel TBegato Matto",  # no real block card
        "TAngel TBegato Matto T16 T15 T14",
    ],
)
def test_no_grande(hand: str) -> None:
    assert "grande" not in points(hand)


NUMBERED = " ".join(f"T{n}" for n in range(16, 4, -1))


def _without(text: str, *codes: str) -> str:
    return " ".join(c for c in text.split() if c not in codes)


def test_full_grande_with_moors_and_contatori_is_22_cards() -> None:
    hand = f"TAngel TWorld TSun TMoon {NUMBERED} TMoor1 TMoor2 TMoor3 TMoor4 TBegato Matto"
    assert sizes(hand)["grande"] == 22
    assert points(hand)["grande"] == 105


def test_moors_join_only_a_complete_numbered_run() -> None:
    top = "TAngel TWorld TSun TMoon"
    assert sizes(f"{top} {NUMBERED} TMoor1 TMoor2")["grande"] == 4 + 12 + 2
    no_five = _without(NUMBERED, "T5")
    assert sizes(f"{top} {no_five} TMoor1 TMoor2")["grande"] == 4 + 11
    # a slot filled by a contatore counts as complete
    assert sizes(f"{top} {no_five} TMoor1 TMoor2 TBegato")["grande"] == 4 + 11 + 2 + 1
    no_ten = _without(NUMBERED, "T10")
    assert sizes(f"{top} {no_ten} TMoor3 Matto")["grande"] == 4 + 11 + 1 + 1


def test_two_substitutions_in_a_row_stop_before_the_moors() -> None:
    top = "TAngel TWorld TSun TMoon"
    no_six_five = _without(NUMBERED, "T6", "T5")
    held = f"{top} {no_six_five} TMoor1 TMoor2 TMoor3 TBegato Matto"
    assert sizes(held)["grande"] == 4 + 10 + 2  # the run stops after 6 and 5: no Moors
    no_nine_eight = _without(NUMBERED, "T9", "T8")
    held = f"{top} {no_nine_eight} TMoor1 TBegato Matto"
    assert sizes(held)["grande"] == 4 + 7 + 2  # 16..10, two fillers, then stop


def test_grande_block_empty_slot_and_filler() -> None:
    # Angel + World only: one filler needed in the block, none left for a gap at 16
    assert sizes("TAngel TWorld TBegato T15 T14 T13")["grande"] == 3
    # with both contatori the second one fills the 16
    assert sizes("TAngel TWorld TBegato Matto T15 T14 T13")["grande"] == 7


# --- several combinations at once ---------------------------------------------------------


def test_sequence_doubling_is_independent_of_set_doubling() -> None:
    held = combos("SwK SwQ SwC BaK BaQ BaJ CuK")
    assert {c.name for c in held.sequences} == {"swords", "batons"}
    assert not held.sequences_doubled
    assert held.sets_doubled is False and held.set_points == 17  # three kings
    three = combos("SwK SwQ SwC BaK BaQ BaJ SwA BaA CoA")
    assert three.sequences_doubled
    # swords K Q C A (15), batons K Q J A (15), aces x3 (10); kings need three
    assert three.sequence_points == 2 * (15 + 15 + 10)
    assert three.set_points == 0


def test_overlapping_hand_counts_every_card_in_every_combination() -> None:
    hand = "TAngel TWorld TSun TBegato Matto SwK SwQ SwC BaK CuK SwA BaA TMoor1 TMoor2 T16"
    found = combos(hand)
    assert {c.name: c.points for c in found.sets} == {"tarocchi": 36, "kings": 17}
    assert {c.name: len(c.cards) for c in found.sequences} == {
        "swords": 6,  # K Q C A + Bégato + Matto
        "aces": 4,  # 2 real aces + 2 contatori
        "moors": 4,  # 2 real Moors + 2 contatori
        "grande": 6,  # Angel World Sun (Moon empty) 16, Bégato for 15, no 14: + Matto
    }
    assert found.sequence_points == 2 * (25 + 15 + 15 + 25)
    assert found.set_points == 36 + 17
    assert found.total == 160 + 53
    assert found.cards() == frozenset(cards(hand))


def test_the_whole_pack() -> None:
    found = find(DECK.cards)
    assert found.set_points == 2 * (36 + 34 + 28 + 26 + 24)
    assert {c.name: len(c.cards) for c in found.sequences} == {
        "swords": 7,
        "batons": 7,
        "cups": 7,
        "coins": 7,
        "aces": 6,
        "moors": 6,
        "grande": 22,
    }
    assert found.sequence_points == 2 * (4 * 30 + 25 + 25 + 105)
    assert found.total == 846


def test_nothing_in_an_empty_or_plain_hand() -> None:
    assert not find(())
    assert find(cards("Sw6 Sw7 Cu8 Co9 T10 T9 TMoor1")).total == 0
