"""Generates the tables of `docs/rules/<variant>.md` (contracts, bonuses, options) from the rule
sets themselves, between marker comments, so the pages cannot drift from the code.

    python -m tarok_service.rulesdoc            # rewrite the tables
    python -m tarok_service.rulesdoc --check    # exit 1 if a page is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .engine.variant import Variant
from .variants.registry import all_variants

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
BEGIN = "<!-- generated:tables:begin (python -m tarok_service.rulesdoc) -->"
END = "<!-- generated:tables:end -->"


def _value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def tables(variant: Variant[Any]) -> str:
    """The Markdown tables of one rule set: contracts and bonuses per player count, options."""
    out: list[str] = []
    for players in variant.player_counts:
        contracts = [c for c in variant.contracts(players) if players in c.players]
        if contracts:
            out += [f"### Contracts, {players} players", "", "| id | name | value |"]
            out.append("|---|---|---|")
            out += [f"| `{c.id}` | {_cell(c.name)} | {c.value} |" for c in contracts]
            out.append("")
        bonuses = variant.bonuses(players)
        if bonuses:
            out += [f"### Bonuses, {players} players", "", "| id | name | silent | announced |"]
            out.append("|---|---|---|---|")
            out += [
                f"| `{b.id}` | {_cell(b.name)} | {b.silent or '-'} | {b.announced or '-'} |"
                for b in bonuses
            ]
            out.append("")
    out += ["### Options", "", "| option | default | allowed | what it decides |"]
    out.append("|---|---|---|---|")
    for spec in variant.option_specs:
        allowed = ", ".join(spec.allowed()) or "-"
        default = _value(spec.default)
        out.append(f"| `{spec.name}` | `{default}` | {_cell(allowed)} | {_cell(spec.doc)} |")
    return "\n".join(out) + "\n"


def render(page: str, variant: Variant[Any]) -> str:
    """`page` with its generated block replaced by the current tables."""
    head, _, rest = page.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n\n{tables(variant)}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if a page is stale")
    args = parser.parse_args(argv)
    stale = []
    for variant in all_variants():
        path = DOCS / f"{variant.id}.md"
        page = path.read_text(encoding="utf-8")
        if BEGIN not in page or END not in page:
            stale.append(f"{path}: no generated block")
            continue
        fresh = render(page, variant)
        if fresh != page:
            if args.check:
                stale.append(str(path))
            else:
                path.write_text(fresh, encoding="utf-8")
    for line in stale:
        print(f"stale: {line} (run python -m tarok_service.rulesdoc)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
