"""A rule set's `trick_watch` keeps its promise (`engine.trickplay.TrickWatch`): on a trick it
leaves quiet (one holding cards of only one side of `together` included), `after_trick`
gives back the very state it was given - or, under a watch of talon gifts while the talon
lasts, `give_talon`'s state - and `hand_over` is False: the fast replay skips both hooks
there (and gives the talon cards itself). Checked on the pure path (`apply`) of random hands
of every rule set and player count, steered towards the rare mechanics."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tarok_service.engine.state import TRICKS, HandState, Trick
from tarok_service.engine.trickplay import TrickPlay
from tarok_service.engine.trickwatch import EVERY_TRICK, QUIET, watch_knows_hooks
from tarok_service.variants.registry import find_variant
from tarok_service.variants.slovenian.rules import Slovenian, SlovenianState
from tests.engine.test_fast_paths import CONFIGS, playouts
from tests.engine.toy_rules import Toy

Seen = tuple[HandState, Trick, HandState, bool]  # after_trick's state, trick, answer; hand_over


@pytest.mark.parametrize(("variant_id", "players"), CONFIGS)
def test_quiet_tricks_change_nothing(
    variant_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = find_variant(variant_id)
    assert isinstance(variant, TrickPlay)
    hooks: TrickPlay[Any] = variant
    after_trick, hand_over = hooks.after_trick, hooks.hand_over
    seen: list[Seen] = []

    def spy_after(state: HandState, trick: Trick) -> HandState:
        answer: HandState = after_trick(state, trick)
        over = hand_over(answer)
        seen.append((state, trick, answer, over))
        return answer

    monkeypatch.setattr(variant, "after_trick", spy_after)
    counts: Counter[str] = Counter()
    for dealt, moves, _ in playouts(variant_id, players, 60, seed=4):
        state, watch = dealt, EVERY_TRICK
        for move in moves:
            if state.phase == TRICKS and not state.trick:
                watch = hooks.trick_watch(state)
            seen.clear()
            state = variant.apply(state, move, check=False)
            for before, trick, answer, over in seen:
                first, second = watch.together
                together = any(c in first for c in trick.cards) and any(
                    c in second for c in trick.cards
                )
                quiet = not (
                    watch.every
                    or any(c in watch.cards for c in trick.cards)
                    or together
                    or trick.winner in watch.winners
                    or not any(before.hands)
                )
                gift = quiet and watch.gifts and bool(before.talon)
                if quiet and any(c in first or c in second for c in trick.cards):
                    counts["apart"] += 1  # one side of `together` only: quiet
                if first and second:
                    counts["together watched"] += 1
                counts["gift" if gift else "quiet" if quiet else "watched"] += 1
                if gift:
                    assert answer == hooks.give_talon(before, trick.winner), (variant_id, trick)
                elif quiet:
                    assert answer is before, (variant_id, trick)
                assert not (quiet and over), (variant_id, trick)
    assert counts["quiet"] > 0 and counts["watched"] > 0, counts
    gifting = variant_id in ("slovenian", "double_tarok", "taroky")
    assert counts["gift"] > 0 or not gifting, counts
    assert counts["apart"] > 0 or not counts["together watched"], counts


class _HouseRule(Slovenian):
    """A rule set that changes `after_trick` below the class that defines the watch."""

    def after_trick(self, s: SlovenianState, trick: Trick) -> SlovenianState:
        return super().after_trick(s, trick)


def test_a_watch_is_trusted_only_by_the_classes_that_know_the_hooks() -> None:
    assert watch_knows_hooks(Slovenian)
    assert not watch_knows_hooks(_HouseRule)  # every trick goes through its hooks


def test_a_rule_set_without_trick_hooks_watches_no_trick() -> None:
    toy = Toy()
    rules = toy.make_rules(2)
    state = toy.deal(rules, list(toy.deck(rules).cards), 0)
    assert toy.trick_watch(state) is QUIET
