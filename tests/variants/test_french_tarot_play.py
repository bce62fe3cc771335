"""French Tarot through the rules API: the pack, the bids, the call, the écart, the
declarations, the card duties and the excuse, with the hands written out; then random hands
of every player count checked for reasons, views and invariants."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from tarok_service.engine import moves as m
from tarok_service.engine.cards import Card
from tarok_service.engine.fastcopy import evolve
from tarok_service.engine.moves import IllegalMove, Move
from tarok_service.engine.state import Trick
from tarok_service.variants.french_tarot import data as d
from tarok_service.variants.french_tarot import scoring as sc
from tarok_service.variants.french_tarot.rules import FRENCH_TAROT as V
from tarok_service.variants.french_tarot.state import Phase, TarotState

DECK = d.DECK
GENERIC = {m.Reason.ILLEGAL_MOVE, m.Reason.WRONG_PHASE, m.Reason.UNKNOWN_MOVE}


def cards(codes: str) -> tuple[Card, ...]:
    return DECK.sort(DECK.card(c) for c in codes.split())


def dealt(
    players: int, seed: int = 1, options: Mapping[str, bool | int | str] | None = None
) -> TarotState:
    """A deal with no petit sec (seeded shuffles until one is playable)."""
    rules = V.make_rules(players, options or {})
    rng = random.Random(seed)
    while True:
        order = list(DECK.cards)
        rng.shuffle(order)
        state = V.deal(rules, order, 0)
        if not state.finished:
            return state


def with_hands(state: TarotState, hands: Sequence[str], chien: str) -> TarotState:
    """The deal with these hands and this chien (the remaining cards need not be placed)."""
    written = tuple(cards(h) for h in hands)
    return evolve(state, hands=written, dealt=written, talon=cards(chien))


def run(state: TarotState, *moves: str) -> TarotState:
    for move in moves:
        state = V.apply(state, Move.parse(move))
    return state


def refused(state: TarotState, move: str) -> str:
    with pytest.raises(IllegalMove) as err:
        V.apply(state, Move.parse(move))
    return err.value.reason


def ids(state: TarotState) -> list[str]:
    return [mv.id for mv in V.legal_moves(state)]


# --- pack and deal --------------------------------------------------------------------------


def test_the_pack_has_78_cards_three_bouts_and_91_points() -> None:
    assert len(DECK) == 78
    assert DECK.total_points(DECK.cards) == d.PACK_HALF_POINTS == 2 * 91
    assert {DECK.codes[c] for c in d.BOUTS} == {"T1", "T21", "EX"}
    pile = cards("SK S3 T1 T5 HQ")
    assert DECK.total_points(pile) == 27  # 13.5 points


@pytest.mark.parametrize(("players", "hand", "chien"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_hands_and_chien_by_player_count(players: int, hand: int, chien: int) -> None:
    s = dealt(players)
    assert [len(h) for h in s.hands] == [hand] * players
    assert len(s.talon) == chien
    assert s.phase == Phase.BIDDING and s.turn == 1


def order_giving(seat: int, hand: Sequence[Card], players: int = 4) -> list[Card]:
    """A deal order (dealer 0) giving `seat` exactly `hand`: the chien comes first, then
    packets of 3 go round from seat 1."""
    others = [c for c in DECK.cards if c not in hand]
    size = d.TABLES[players].hand
    chien, rest = others[: d.TABLES[players].chien], iter(others[d.TABLES[players].chien :])
    mine = iter(hand)
    body = []
    for i in range(size * players):
        packet_seat = (1 + (i // 3)) % players
        body.append(next(mine) if packet_seat == seat else next(rest))
    return [*chien, *body]


def test_petit_sec_is_dealt_again_by_the_same_dealer() -> None:
    suits = [c for c in DECK.cards if c.suit in d.SUITS]
    state = V.deal(V.make_rules(4), order_giving(2, [d.PETIT, *suits[:17]]), 0)
    assert state.hands[2][0] == d.PETIT and state.phase == Phase.REDEAL
    result = V.result(state)
    assert result is not None and result.redeal  # the match keeps the dealer
    off = V.deal(
        V.make_rules(4, {"petit_sec_redeal": False}), order_giving(2, [d.PETIT, *suits[:17]]), 0
    )
    assert off.phase == Phase.BIDDING


def test_petit_with_the_excuse_is_not_petit_sec() -> None:
    suits = [c for c in DECK.cards if c.suit in d.SUITS]
    state = V.deal(V.make_rules(4), order_giving(2, [d.PETIT, d.EXCUSE, *suits[:16]]), 0)
    assert state.phase == Phase.BIDDING


# --- bids and the call --------------------------------------------------------------------


def test_one_round_of_bids_each_higher_and_the_highest_takes() -> None:
    s = dealt(4)
    assert ids(s) == ["pass", "bid:prise", "bid:garde", "bid:garde_sans", "bid:garde_contre"]
    s = run(s, "bid:garde")
    assert ids(s) == ["pass", "bid:garde_sans", "bid:garde_contre"]
    assert refused(s, "bid:prise") == m.Reason.BID_TOO_LOW
    s = run(s, "pass", "bid:garde_sans", "pass")  # seats 2, 3, 0
    assert s.taker == 3 and s.contract == "garde_sans"
    assert s.phase == Phase.CHELEM and s.turn == 3  # the chien stays face down


def test_all_pass_scores_nothing_and_the_deal_moves_on() -> None:
    s = run(dealt(4), "pass", "pass", "pass", "pass")
    result = V.result(s)
    assert result is not None and result.contract == "passed"
    assert result.scores == (0, 0, 0, 0) and not result.redeal


def test_prise_can_be_switched_off() -> None:
    assert "bid:prise" not in ids(dealt(4, options={"prise_allowed": False}))


def test_five_players_call_a_king_or_a_queen_with_all_four_kings() -> None:
    s = dealt(5)
    s = with_hands(
        s,
        [
            "SK HK DK CK SQ T21 T20 T19 T18 T17 T16 T15 T14 T13 T12",
            "HQ DQ CQ S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SN",
            "H1 H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HN D1 D2 D3",
            "D4 D5 D6 D7 D8 D9 D10 DJ DN C1 C2 C3 C4 C5 C6",
            "C7 C8 C9 C10 CJ CN T1 T2 T3 T4 T5 T6 T7 T8 T9",
        ],
        "T10 T11 EX",
    )
    s = run(s, "pass", "pass", "pass", "pass", "bid:garde")  # forehand is seat 1; seat 0 bids
    assert s.phase == Phase.CALL and s.taker == 0
    assert ids(s) == ["call:SQ", "call:HQ", "call:DQ", "call:CQ"]
    assert refused(s, "call:SK") == m.Reason.CALL_NOT_ALLOWED
    partnered = run(s, "call:HQ")
    assert partnered.partner == 1 and partnered.attack() == (0, 1)
    alone = run(s, "call:SQ")  # his own queen: he plays alone
    assert alone.partner is None and alone.attack() == (0,)


# --- the écart ----------------------------------------------------------------------------


def four_player_prise(taker_hand: str, chien: str) -> TarotState:
    s = dealt(4)
    rest = [c for c in DECK.cards if c not in cards(taker_hand) + cards(chien)]
    codes = [DECK.codes[c] for c in rest]
    hands = [" ".join(codes[:18]), taker_hand, " ".join(codes[18:36]), " ".join(codes[36:54])]
    s = with_hands(s, hands, chien)
    return run(s, "bid:prise", "pass", "pass", "pass")  # seat 1 (forehand) takes


def test_the_ecart_never_holds_a_king_or_a_bout_and_trumps_only_when_forced() -> None:
    s = four_player_prise(
        "SK S1 S2 H3 T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12", "HK H1 H2 D5 T13 T14"
    )
    assert s.phase == Phase.ECART and len(s.hands[1]) == 24
    assert ids(s) == [
        "discard:S2",
        "discard:S1",
        "discard:H3",
        "discard:H2",
        "discard:H1",
        "discard:D5",
    ]
    assert refused(s, "discard:SK") == m.Reason.DISCARD_NOT_ALLOWED
    assert refused(s, "discard:T21") == m.Reason.DISCARD_NOT_ALLOWED
    assert refused(s, "discard:T5") == m.Reason.DISCARD_NOT_ALLOWED
    s = run(s, "discard:S1", "discard:S2", "discard:H1", "discard:H2", "discard:H3", "discard:D5")
    assert s.phase == Phase.CHELEM and len(s.hands[1]) == 18


def test_a_trump_goes_in_the_ecart_when_unavoidable_and_is_shown() -> None:
    s = four_player_prise(
        "SK HK DK CK S1 T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11", "H1 H2 T12 T13 T14 T15"
    )
    s = run(s, "discard:S1", "discard:H1", "discard:H2")
    # no suit card but the kings is left: three trumps (never T1 or T21) fill the écart
    assert ids(s)[0] == "discard:T2" and "discard:T1" not in ids(s)
    s = run(s, "discard:T2", "discard:T3", "discard:T4")
    assert [f.value for f in s.facts if f.kind == "discard"] == ["T2", "T3", "T4"]
    others = V.view(s, 0).public
    assert [(g.name, [DECK.codes[c] for c in g.cards]) for g in others] == [
        ("chien", ["T12", "T13", "T14", "T15", "H2", "H1"]),
        ("ecart", ["T2", "T3", "T4"]),
    ]
    own = {g.name: len(g.cards) for g in V.view(s, 1).public}
    assert own["ecart"] == 6


# --- declarations ---------------------------------------------------------------------------


def test_poignee_shows_the_lowest_trumps_and_the_excuse_only_for_a_missing_trump() -> None:
    s = four_player_prise(
        "SK HK DK CK S1 S2 S3 S4 S5 S6 S7 S8 S9 T1 T2 T3 T4 T5", "H1 H2 H3 H4 H5 H6"
    )
    s = run(s, *(f"discard:H{i}" for i in range(1, 7)), "pass")  # écart, no chelem
    assert s.phase == Phase.DECLARE and s.turn == 1
    assert "announce:poignee_simple" not in ids(s)  # 5 trumps only
    rich = evolve(
        s,
        hands=(
            s.hands[0],
            cards("EX T1 T2 T3 T4 T5 T6 T7 T8 T9 S1 S2 S3 S4 S5 S6 S7 S8"),
            *s.hands[2:],
        ),
    )
    assert "announce:poignee_simple" in ids(rich)  # 9 trumps and the excuse
    shown = run(rich, "announce:poignee_simple")
    assert [DECK.codes[c] for c in shown.poignees[0][2]] == [f"T{r}" for r in range(1, 10)] + ["EX"]
    assert "announce:poignee_double" not in ids(shown)  # one poignée each
    assert refused(shown, "announce:poignee_double") == m.Reason.ANNOUNCEMENT_NOT_ALLOWED


@pytest.mark.parametrize(
    ("players", "federation", "house"),
    [
        (3, (13, 15, 18), (13, 15, 22)),
        (4, (10, 13, 15), (10, 13, 15)),
        (5, (8, 10, 13), (8, 10, 15)),
    ],
)
def test_poignee_thresholds_follow_the_federation_table_or_the_house_option(
    players: int, federation: tuple[int, int, int], house: tuple[int, int, int]
) -> None:
    assert d.poignee_sizes(dealt(players).rules, players) == federation
    rules = dealt(players, options={"poignee_thresholds": "house"}).rules
    assert d.poignee_sizes(rules, players) == house


def test_a_house_triple_poignee_at_three_players_needs_22_trumps() -> None:
    """Three players, forehand dealt 18 trumps and 6 spades takes a garde sans and passes the
    chelem: a triple poignée under the federation's steps, only a double under the house
    steps (22 trumps for a triple)."""
    others = "C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CN CQ CK D1 D2 D3 D4 D5 D6 D7 D8 D9 D10"
    hands = (
        others,
        "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 S1 S2 S3 S4 S5 S6",
    )
    for option, steps in (("federation", 3), ("house", 2)):
        s = dealt(3, options={"poignee_thresholds": option})
        s = with_hands(
            s,
            (*hands, "H1 H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HN HQ HK DJ DN DQ DK SJ SN SQ SK S7 S8"),
            "S9 S10 T19 T20 T21 EX",
        )
        s = run(s, "bid:garde_sans", "pass", "pass", "pass")  # no écart; no chelem
        assert s.phase == Phase.DECLARE and s.turn == 1 and s.first_leader() == 1
        shown = [i for i in ids(s) if i.startswith("announce:poignee")]
        assert shown == [f"announce:{p}" for p in d.POIGNEES[:steps]]
        big = run(s, f"announce:{d.POIGNEES[steps - 1]}")
        assert len(big.poignees[0][2]) == d.poignee_sizes(s.rules, 3)[steps - 1]


def test_an_announced_chelem_gives_the_taker_the_lead() -> None:
    s = four_player_prise(
        "SK HK DK CK S1 S2 S3 S4 S5 S6 S7 S8 S9 T1 T2 T3 T4 T5", "H1 H2 H3 H4 H5 H6"
    )
    s = run(s, *(f"discard:H{i}" for i in range(1, 7)))
    s = evolve(s, taker=2)  # let a seat other than forehand be the taker
    s = run(s, "announce:chelem")
    assert s.chelem_announced and s.turn == 2
    s = run(s, "pass", "pass", "pass", "pass")
    assert s.phase == Phase.TRICKS and s.turn == 2


def test_misere_needs_the_option_and_a_hand_without_trumps_or_heads() -> None:
    s = four_player_prise(
        "SK HK DK CK S1 S2 S3 S4 S5 S6 S7 S8 S9 T1 T2 T3 T4 T5", "H1 H2 H3 H4 H5 H6"
    )
    s = run(s, *(f"discard:H{i}" for i in range(1, 7)), "pass", "pass")  # seat 1 done
    plain = evolve(s, dealt=(s.dealt[0], s.dealt[1], cards("S10 H7 H8 H9 H10 D1"), s.dealt[3]))
    assert "announce:misere_trumps" not in ids(plain)
    on = evolve(plain, rules=V.make_rules(4, {"misere": True}))
    assert ids(on) == ["pass", "announce:misere_trumps", "announce:misere_heads"]


# --- card duties and the excuse -------------------------------------------------------------


def in_play(hands: Sequence[str], trick: Sequence[str], leader: int = 0) -> TarotState:
    s = dealt(4)
    s = evolve(
        s, hands=tuple(cards(h) for h in hands), phase=Phase.TRICKS, taker=0, contract="garde",
        trick=tuple(((leader + i) % 4, DECK.card(c)) for i, c in enumerate(trick)),
        turn=(leader + len(trick)) % 4,
    )  # fmt: skip
    return s


def legal_cards(s: TarotState) -> list[str]:
    return [mv.value for mv in V.legal_moves(s)]


def test_follow_suit_without_having_to_beat() -> None:
    s = in_play(["", "S2 SK T5 EX", "", ""], ["SQ"])
    assert set(legal_cards(s)) == {"SK", "S2", "EX"}
    assert refused(s, "play:T5") == m.Reason.MUST_FOLLOW_SUIT


def test_on_a_trump_lead_one_must_play_higher_if_one_can() -> None:
    s = in_play(["", "T3 T12 T20 H1", "", ""], ["T10"])
    assert set(legal_cards(s)) == {"T12", "T20"}
    assert refused(s, "play:T3") == m.Reason.MUST_OVERTAKE
    assert refused(s, "play:H1") == m.Reason.MUST_PLAY_TAROK
    low = in_play(["", "T3 T4 H1", "", ""], ["T10"])
    assert set(legal_cards(low)) == {"T3", "T4"}  # cannot overtrump: a lower trump


def test_void_in_the_suit_one_must_trump_and_overtrump() -> None:
    s = in_play(["", "", "T3 T12 D1", ""], ["S5", "T8"])
    assert set(legal_cards(s)) == {"T12"}
    assert refused(s, "play:D1") == m.Reason.MUST_PLAY_TAROK
    s = in_play(["", "", "T3 T4 D1", ""], ["S5", "T8"])
    assert set(legal_cards(s)) == {"T3", "T4"}  # undertrump rather than discard
    s = in_play(["", "", "D1 C2", ""], ["S5", "T8"])
    assert set(legal_cards(s)) == {"D1", "C2"}


def test_the_excuse_may_always_be_played_and_a_led_excuse_lets_the_next_card_set_the_suit() -> None:
    s = in_play(["", "EX S1 T4", "", ""], ["T10"])
    assert set(legal_cards(s)) == {"T4", "EX"}  # a lower trump is due, or the excuse
    s = in_play(["", "", "S3 H3 T2", ""], ["EX", "H5"])
    assert set(legal_cards(s)) == {"H3"}


def test_five_players_first_lead_avoids_the_called_suit() -> None:
    s = dealt(5)
    s = evolve(
        s, hands=(cards("HK H2 S3 T4"), *s.hands[1:]), phase=Phase.TRICKS, taker=1,
        called=DECK.card("HK"), turn=0,
    )  # fmt: skip
    assert set(legal_cards(s)) == {"HK", "S3", "T4"}
    assert refused(s, "play:H2") == m.Reason.CALL_NOT_ALLOWED
    off = evolve(s, rules=V.make_rules(5, {"called_suit_first_lead": False}))
    assert "H2" in legal_cards(off)


# --- the excuse's exchange, petit au bout, chelem (finished hands written out) -------------


def finished(
    tricks: Sequence[tuple[str, int, int]], ecart: str, **options: bool | int | str
) -> TarotState:
    """A 4-player garde of seat 0 after these tricks: (cards in playing order, leader,
    winner)."""
    s = dealt(4, options=options)
    done = []
    for codes, leader, winner in tricks:
        plays = tuple(((leader + i) % 4, DECK.card(c)) for i, c in enumerate(codes.split()))
        done.append(Trick(plays, winner))
    return evolve(
        s, phase=Phase.SCORED, turn=None, taker=0, contract="garde", ecart=cards(ecart),
        tricks=tuple(done), hands=((),) * 4,
    )  # fmt: skip


def test_the_excuse_comes_back_to_its_side_for_a_half_point() -> None:
    # the taker (seat 0) plays the excuse to a trick that seat 1 wins
    s = finished([("EX S1 S2 SQ", 0, 3), ("SK S4 S5 S6", 0, 0)], "")
    t = sc.tally(s)
    assert t.points == 12 + 9 - 1 and t.bouts == 1  # the SK trick and the excuse, less ½


def test_an_excuse_in_the_last_trick_goes_to_the_trick_winner() -> None:
    s = finished([("SK S4 S5 S6", 0, 0), ("EX S1 S2 SQ", 0, 3)], "")
    assert sc.tally(s).points == 9 + 3 and sc.tally(s).bouts == 0
    kept = finished([("SK S4 S5 S6", 0, 0), ("EX S1 S2 SQ", 0, 3)], "", excuse_last_trick="keep")
    assert sc.tally(kept).points == 12 + 9 - 1 and sc.tally(kept).bouts == 1


def test_an_excuse_led_to_the_last_trick_after_all_others_wins_it_and_the_petit_counts() -> None:
    tricks = [("SK S4 S5 S6", 0, 0), ("T21 T1 T2 T3", 0, 0), ("EX S1 S2 S3", 0, 3)]
    s = V.finish_play(evolve(finished(tricks, ""), phase=Phase.TRICKS))
    assert s.tricks[-1].winner == 0
    t = sc.tally(s)
    assert t.chelem == sc.ATTACK and t.petit == 1 and t.bouts == 3


def test_petit_au_bout_goes_to_the_side_that_wins_the_last_trick() -> None:
    s = finished([("SK S4 S5 S6", 0, 0), ("T1 T2 T3 T4", 0, 3)], "")
    assert sc.tally(s).petit == -1
    s = finished([("T1 T2 T3 T4", 0, 3), ("SK S4 S5 S6", 0, 0)], "")
    assert sc.tally(s).petit == 0  # not in the last trick


def test_the_defence_that_never_wins_keeps_its_excuse_and_still_owes_a_half_point() -> None:
    s = finished([("SK EX S5 S6", 0, 0), ("T5 T2 T3 T4", 0, 0)], "")
    assert sc.tally(s).points == 9 + 2 + 4 + 1 and sc.tally(s).chelem == sc.ATTACK
    kept = finished([("SK EX S5 S6", 0, 0), ("T5 T2 T3 T4", 0, 0)], "", excuse_unpaid="keep")
    assert sc.tally(kept).points == 9 + 2 + 4


# --- random hands ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_hands_give_specific_reasons_private_views_and_zero_sum_scores(players: int) -> None:
    rng = random.Random(f"french/{players}")
    contracts = set()
    for hand in range(12):
        s = dealt(players, seed=hand, options={"misere": hand % 2 == 0})
        while not s.finished:
            legal = V.legal_moves(s)
            assert all(V.label(s, mv) for mv in legal)
            if s.phase == Phase.TRICKS:
                assert s.turn is not None
                for c in s.hands[s.turn]:
                    mv = Move("play", DECK.codes[c])
                    if mv not in legal:
                        assert refused(s, mv.id) not in GENERIC
            on_table = {c for _, c in s.trick} | {c for t in s.tricks for c in t.cards}
            for seat in range(players):
                view = V.view(s, seat)
                public = {c for g in view.public if g.seat != seat for c in g.cards}
                assert set(view.hand) == set(s.hands[seat])
                assert view.visible_cards() <= set(s.hands[seat]) | on_table | public | set(
                    s.ecart if seat == s.taker else ()
                )
            bids = [mv for mv in legal if mv.kind == "bid"]
            move = bids[0] if bids and s.taker is None else rng.choice(legal)
            s = V.apply(s, move)
        result = V.result(s)
        assert result is not None and V.invariants(s, result) == []
        contracts.add(result.contract)
    assert contracts - {"passed", "redeal"}
