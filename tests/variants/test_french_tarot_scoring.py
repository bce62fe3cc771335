"""French Tarot scoring: the worked examples of the rules digest (E1-E18) as golden vectors.

Each vector gives the contract, the attack's card points and bouts, the side that took the petit
au bout, the poignées shown, the chelem, and the expected amount X per defender and per-seat
scores (seat 0 is the taker; with 5 players seat 1 is the partner unless `alone`)."""

from __future__ import annotations

import pytest

# the rule set's own modules are reached through the registry in the service; its tests read
# the scoring functions directly
from tarok_service.variants.french_tarot import scoring as sc
from tarok_service.variants.registry import find_variant

VARIANT = find_variant("french_tarot")
STEPS = {"simple": 0, "double": 1, "triple": 2}

# id, players, contract, points, bouts, petit, poignees, announced, chelem, alone, miseres, X,
# scores
VECTORS = [
    ("E1", 4, "garde", 49, 2, 0, "", False, "", False, (), 66, (198, -66, -66, -66)),
    ("E2", 4, "prise", 51, 1, 0, "", False, "", False, (), 25, (75, -25, -25, -25)),
    ("E3", 4, "garde_sans", 48, 0, 0, "", False, "", False, (), -132, (-396, 132, 132, 132)),
    ("E4", 4, "garde_contre", 60, 3, 1, "", False, "", False, (), 354, (1062, -354, -354, -354)),
    ("E5", 4, "garde", 44, 2, -1, "", False, "", False, (), 36, (108, -36, -36, -36)),
    ("E6", 4, "garde", 47, 1, 0, "simple", False, "", False, (), -78, (-234, 78, 78, 78)),
    ("E7", 4, "prise", 43, 2, 0, "double", False, "", False, (), 57, (171, -57, -57, -57)),
    ("E8", 3, "garde", 40.5, 2, 0, "", False, "", False, (), -52, (-104, 52, 52)),
    ("E9", 3, "prise", 51.5, 1, 0, "", False, "", False, (), 26, (52, -26, -26)),
    ("E10", 5, "garde", 46.5, 2, 0, "", False, "", False, (), 62, (124, 62, -62, -62, -62)),
    ("E11", 5, "garde_sans", 45, 1, 0, "", False, "", True, (), -124, (-496, 124, 124, 124, 124)),
    (
        "E12",
        4,
        "garde_sans",
        91,
        3,
        1,
        "",
        True,
        "attack",
        False,
        (),
        760,
        (2280, -760, -760, -760),
    ),
    ("E13", 4, "garde", 70, 2, 0, "", True, "", False, (), -92, (-276, 92, 92, 92)),
    ("E14", 4, "prise", 87, 2, 0, "", False, "attack", False, (), 271, (813, -271, -271, -271)),
    ("E15", 4, "garde", 3, 0, 0, "", False, "defence", False, (), -356, (-1068, 356, 356, 356)),
    ("E16", 5, "prise", 36, 3, -1, "triple", False, "", False, (), 55, (110, 55, -55, -55, -55)),
    ("E17", 4, "prise", 55, 1, 0, "", False, "", False, (2,), 29, (77, -39, 1, -39)),
    (
        "E18",
        3,
        "garde_contre",
        50.5,
        0,
        -1,
        "simple,double",
        False,
        "",
        False,
        (),
        -296,
        (-592, 296, 296),
    ),
]


@pytest.mark.parametrize("vector", VECTORS, ids=[v[0] for v in VECTORS])
def test_worked_example(vector: tuple) -> None:  # type: ignore[type-arg]
    _, n, contract, points, bouts, petit, poignees, announced, chelem, alone, miseres, x, want = (
        vector
    )
    rules = VARIANT.make_rules(n, {"misere": bool(miseres)})
    tally = sc.Tally(
        contract=contract,
        points=int(points * 2),
        bouts=bouts,
        petit=petit,
        poignees=tuple(STEPS[p] for p in poignees.split(",") if p),
        chelem_announced=announced,
        chelem=chelem,
    )
    got, parts = sc.amount(tally, rules)
    assert got == x
    assert sum(p for _, p in parts) == x
    partner = 1 if n == 5 and not alone else None
    scores = sc.shares(got, n, 0, partner)
    extra = sc.misere_payments(n, tuple((seat, "misere_trumps") for seat in miseres), 10)
    totals = tuple(a + b for a, b in zip(scores, extra, strict=True))
    assert totals == want
    assert sum(totals) == 0


def test_half_point_short_fails_and_half_over_wins_by_one() -> None:
    rules = VARIANT.make_rules(3)
    short = sc.Tally("garde", points=81, bouts=2)
    over = sc.Tally("prise", points=103, bouts=1)
    assert not short.made and sc.difference(short, rules) == 1
    assert over.made and sc.difference(over, rules) == 1


def test_difference_rounded_to_the_table_step_ties_up() -> None:
    rules = VARIANT.make_rules(4, {"difference_round_to": 10})
    assert sc.difference(sc.Tally("garde", points=82 + 10, bouts=2), rules) == 10  # 5 -> 10
    assert sc.difference(sc.Tally("garde", points=82 + 8, bouts=2), rules) == 0  # 4 -> 0


def test_house_options_change_the_values() -> None:
    rules = VARIANT.make_rules(
        4, {"poignee_values": "20/40/60", "petit_au_bout": 0, "base_points": 20}
    )
    x, parts = sc.amount(sc.Tally("prise", points=86, bouts=2, petit=1, poignees=(1,)), rules)
    assert x == (20 + 2) + 40
    assert [item for item, _ in parts] == ["contract", "poignee"]
