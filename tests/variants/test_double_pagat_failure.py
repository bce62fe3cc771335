"""Double tarok: both pagats of one side fall in the last trick and lose it, nothing announced.
The side pays the silent double pagat ultimo by default, or the single one with the option
`double_pagat_failure=single`."""

from __future__ import annotations

from typing import Any

import pytest

from . import double_tarok_helpers as dth

# The last trick of a Three: the declarer (seat 0) leads the blue pagat, seat 1 plays the
# blue five, the partner (seat 2) the red pagat, seat 3 a small heart. Seat 1 wins it.
LAST = ("T1.1", "T5.1", "T1.2", "H4.1")


def last_trick_lines(failure: str | None = None) -> dict[str, int]:
    """The score lines after the last trick; `failure` None keeps the table default."""
    options: dict[str, Any] = {} if failure is None else {"double_pagat_failure": failure}
    state = dth.playing("three", LAST, declarer=0, partners=(2,), called="HK.1", **options)
    state = dth.play(state, *LAST)
    assert state.tricks[-1].winner == 1
    return {line.item: line.points for line in dth.result(state).lines}


def test_default_charges_the_silent_double_pagat_ultimo() -> None:
    lines = last_trick_lines()
    assert lines["double pagat ultimo (silent)"] == -50
    assert "pagat ultimo (silent)" not in lines


def test_option_single_charges_the_silent_single_pagat_ultimo() -> None:
    lines = last_trick_lines("single")
    assert lines["pagat ultimo (silent)"] == -25
    assert "double pagat ultimo (silent)" not in lines


@pytest.mark.parametrize("failure", ["double", "single"])
def test_a_won_double_pagat_is_always_the_double_item(failure: str) -> None:
    won = ("T1.1", "H4.1", "T1.2", "H4.2")  # no tarok beats the pagats: the blue one wins
    state = dth.playing("three", won, declarer=0, partners=(2,), called="HK.1",
                        double_pagat_failure=failure)
    state = dth.play(state, *won)
    lines = {line.item: line.points for line in dth.result(state).lines}
    assert lines["double pagat ultimo (silent)"] == 50
