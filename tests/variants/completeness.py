"""What a rule set needs besides its code, and which of it a registered rule set lacks.

Every registered rule set (`registry.all_rule_sets()`) must have: a PIMC sampler (without one
the `pimc` bot plays as the heuristic bot does), a rules page (docs/rules/<id>.md), a label for
every id of its vocabulary in every language (tarok_service/locales), a perft file
(tests/data/perft/<id>.txt), a knowledge model (tests/engine/knowledge.py `RULES`) and an
OpenSpiel mapping (clients/openspiel reads it from the registry).
"""

from __future__ import annotations

from pathlib import Path

from tarok_service.server.present.i18n import LOCALES, Labels
from tarok_service.variants.ruleset import RuleSet

from ..engine.knowledge import RULES as KNOWLEDGE
from ..i18n.test_catalogues import keys

ROOT = Path(__file__).resolve().parents[2]
PIECES = (
    "sampler",
    "rules page",
    "labels",
    "perft file",
    "knowledge model",
    "openspiel mapping",
)


def _labelled(rule_set: RuleSet) -> bool:
    try:
        wanted = [f"{kind}.{ident}" for kind, ident in keys(rule_set.variant)]
    except KeyError:  # no vocabulary table for the rule set
        return False
    return all(Labels(locale, rule_set.id).has(key) for locale in LOCALES for key in wanted)


def missing(rule_set: RuleSet) -> list[str]:
    """The pieces (named as in `PIECES`) that `rule_set` lacks, in that order."""
    vid = rule_set.id
    have = {
        "sampler": rule_set.sampler is not None,
        "rules page": (ROOT / "docs" / "rules" / f"{vid}.md").is_file(),
        "labels": _labelled(rule_set),
        "perft file": (ROOT / "tests" / "data" / "perft" / f"{vid}.txt").is_file(),
        "knowledge model": vid in KNOWLEDGE,
        "openspiel mapping": rule_set.openspiel is not None,
    }
    return [piece for piece in PIECES if not have[piece]]
