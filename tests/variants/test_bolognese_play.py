"""Tarocco Bolognese deal, discards, declarations, views and trick play, with hands written out."""

from __future__ import annotations

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.options import OptionError
from tarok_service.engine.state import TRICKS
from tarok_service.variants.registry import find_variant
from tarok_service.variants.tarocco_bolognese.rules import DECK, BologneseState

from .bolognese_helpers import (
    V,
    cards,
    deal,
    legal_ids,
    order_for,
    play,
    play_out,
    play_until,
)

# Dealer 3, so seat 0 (the dealer's right: seats run anticlockwise) leads.
HANDS = (
    "TAngel TWorld TSun T16 T15 SwK SwQ SwC SwA BaK Cu10 Sw10 Sw9 Cu6 Co6",
    "TMoon T14 T13 T12 TMoor1 TMoor2 TMoor3 TBegato CoK CoQ CoC Ba6 Ba7 Ba8 Cu7",
    "Matto T11 T10 T9 T8 TMoor4 SwJ BaJ CuJ CoJ BaQ CuQ Cu8 Cu9 Co7",
    "T7 T6 T5 Sw8 Sw7 Sw6 BaC Ba10 Ba9 BaA CuC CuA CuK CoA Co8 Co9 Co10",
)
DEALER = 3


def dealt() -> BologneseState:
    return deal(HANDS, DEALER)


def declared() -> BologneseState:
    """After the dealer's discards (BaA, Sw6) and the declarations of seats 0, 1, 2."""
    state = play(dealt(), "discard:BaA", "discard:Sw6")
    return play(state, "declare", "declare", "declare", "pass")


def test_registered_for_four_players_only() -> None:
    assert find_variant("tarocco_bolognese") is V
    with pytest.raises(OptionError):
        V.make_rules(3)
    with pytest.raises(OptionError):
        V.make_rules(4, {"no_such_option": True})
    assert V.make_rules(4).flag("contatori_in_sets") is False


def test_deal_gives_the_dealer_17_and_the_others_15() -> None:
    state = dealt()
    assert [len(h) for h in state.hands] == [15, 15, 15, 17]
    for seat, text in enumerate(HANDS):
        assert set(state.hands[seat]) == set(cards(text))
    assert state.phase == "discard" and state.turn == DEALER


def test_deal_order_is_packets_of_five_from_the_dealers_right_then_two_to_the_dealer() -> None:
    order = list(DECK.cards)
    state = V.deal(V.make_rules(4), order, 1)
    assert set(state.hands[2]) == set(order[0:5] + order[20:25] + order[40:45])
    assert set(state.hands[1]) == set(order[15:20] + order[35:40] + order[55:62])
    with pytest.raises(ValueError):
        V.deal(V.make_rules(4), order[:-1], 1)


def test_dealer_never_discards_a_king_angel_world_begato_or_matto() -> None:
    state = dealt()
    assert "discard:CuK" not in legal_ids(state)
    assert len(legal_ids(state)) == 16
    with pytest.raises(IllegalMove) as err:
        play(state, "discard:CuK")
    assert err.value.reason == m.Reason.DISCARD_NOT_ALLOWED
    state = play(state, "discard:BaA", "discard:Sw6")
    assert state.phase == "declare" and state.turn == 0
    assert len(state.hands[DEALER]) == 15
    assert state.piles[DEALER] == cards("BaA Sw6")


def test_declarations_go_round_from_the_leader_and_then_the_leader_plays() -> None:
    state = play(dealt(), "discard:BaA", "discard:Sw6")
    assert legal_ids(state) == ["declare", "pass"]
    state = play(state, "declare", "declare", "declare")
    assert state.turn == DEALER
    assert legal_ids(state) == ["pass"]  # the dealer kept two aces only: nothing to declare
    state = play(state, "pass")
    assert state.phase == TRICKS and state.turn == 0
    facts = [(f.seat, f.kind, f.value, f.level) for f in state.facts]
    assert facts == [
        (0, "declare", "swords x4,grande x5", 35),
        (1, "declare", "coins x4,moors x4", 30),
        (2, "declare", "jacks x4", 24),
        (3, "pass", "", 0),
    ]


def test_dealer_declares_from_the_fifteen_cards_he_keeps() -> None:
    keep_aces = play(dealt(), "discard:Sw7", "discard:Sw6", "pass", "pass", "pass")
    assert legal_ids(keep_aces) == ["declare", "pass"]  # BaA CuA CoA
    state = play(keep_aces, "declare")
    assert state.declared[-1][1].total == 10


def test_declared_cards_are_public_to_every_seat_and_spectators() -> None:
    state = declared()
    seat0 = cards("TAngel TWorld TSun T16 T15 SwK SwQ SwC SwA")
    for viewer in (None, 0, 1, 2, 3):
        view = V.view(state, viewer)
        groups = {g.seat: set(g.cards) for g in view.public if g.name == "declared"}
        assert groups[0] == set(seat0)
        assert groups[1] == set(cards("TMoor1 TMoor2 TMoor3 TBegato CoK CoQ CoC"))
        assert groups[2] == set(cards("SwJ BaJ CuJ CoJ"))
        assert 3 not in groups
    view = V.view(state, 1)
    assert set(seat0) <= view.visible_cards()
    assert not view.visible_cards() & set(cards("BaK Cu10 Sw10"))  # seat 0's other cards


def test_dealer_discards_are_hidden_from_everyone_but_the_dealer() -> None:
    state = declared()
    discards = set(cards("BaA Sw6"))
    for viewer in (None, 0, 1, 2):
        assert not V.view(state, viewer).visible_cards() & discards
    dealer_view = V.view(state, DEALER)
    assert [g.name for g in dealer_view.public if set(g.cards) == discards] == ["discards"]


def test_view_shows_partner_turn_and_legal_moves_only_to_the_player_to_move() -> None:
    state = declared()
    view = V.view(state, 0)
    assert view.partners == (2,) and view.turn == 0
    assert [mv.id for mv in view.legal] == legal_ids(state)
    assert V.view(state, 1).legal == () and V.view(state, 1).partners == (3,)
    assert V.view(state, None).hand == () and V.view(state, None).legal == ()
    assert V.view(state, 2).hand == state.hands[2]


def test_first_tricks_matto_and_trumping() -> None:
    state = play(declared(), "play:SwK")
    # seat 1 has no swords: it must trump (any trump: there is no duty to overtrump)
    trumps = "TMoon T14 T13 T12 TMoor1 TMoor2 TMoor3 TBegato"
    assert set(legal_ids(state)) == {f"play:{DECK.codes[c]}" for c in cards(trumps)}
    with pytest.raises(IllegalMove) as err:
        play(state, "play:Ba6")
    assert err.value.reason == m.Reason.MUST_PLAY_TAROK
    state = play(state, "play:TBegato")
    assert legal_ids(state) == ["play:SwJ", "play:Matto"]  # the Matto may always be played
    state = play(state, "play:Matto", "play:Sw7")
    assert state.tricks[-1].winner == 1
    assert set(state.piles[1]) == set(cards("SwK TBegato Sw7"))
    assert state.piles[2] == cards("Matto")  # the Matto stays with its team
    assert (state.matto_due, state.matto_taker, state.turn) == (2, 1, 1)


def test_matto_lost_in_a_trick_is_paid_for_at_the_end() -> None:
    state = play(declared(), "play:SwK", "play:TBegato", "play:Matto", "play:Sw7")
    state = play(state, "play:TMoor1", "play:TMoor4", "play:T5", "play:T16")
    assert state.tricks[-1].winner == 0
    state = play_until(state, "matto")
    assert state.turn == 2
    legal = V.legal_moves(state)
    pile = [c for seat in (0, 2) for c in state.piles[seat]]
    offered = [DECK.card(mv.value) for mv in legal]
    assert set(offered) == {c for c in pile if DECK.points[c] == 1}
    pips = [c for c in offered if not c.is_tarok]
    assert offered[0] == min(pips, key=lambda c: c.rank)  # the default: the lowest suit pip
    assert V.default_move(state) == legal[0]
    given = offered[-1]
    taker_pile = len(state.piles[1])
    after = play(state, legal[-1].id)
    assert after.phase == "scored" and after.given == given
    assert given in after.piles[1] and len(after.piles[1]) == taker_pile + 1
    assert after.facts[-1].kind == "give" and after.facts[-1].seat == 2
    assert V.view(after, 3).result is not None


def test_whole_scenario_declarations_score_for_their_team() -> None:
    state = play_out(declared())
    result = V.result(state)
    assert result is not None
    declared_lines = {(x.item, x.points, x.seats) for x in result.lines if "declared" in x.item}
    assert declared_lines == {
        ("declared by seat 0: swords x4", 15, (0, 2)),
        ("declared by seat 0: grande x5", 20, (0, 2)),
        ("declared by seat 2: jacks x4", 24, (0, 2)),
        ("declared by seat 1: moors x4", 15, (1, 3)),
        ("declared by seat 1: coins x4", 15, (1, 3)),
    }
    assert sum(result.side_points) == 87
    assert V.invariants(state, result) == []


def test_labels() -> None:
    state = play(dealt(), "discard:BaA", "discard:Sw6")
    assert V.label(state, Move("declare")) == "Declare swords x4, grande x5 (35 points)"
    assert V.label(state, Move("pass")) == "Pass (declare nothing)"
    assert V.label(state, Move("play", "CuA")) == "Play Ace of Cups"
    assert V.label(state, Move("give", "TMoor2")) == "Give Moor 2 for the Matto"


def test_order_helper_round_trips() -> None:
    assert len(order_for(HANDS, DEALER)) == 62
