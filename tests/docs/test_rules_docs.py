"""The rule pages in docs/rules/ stay in step with the code, and the repository stands alone."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tarok_service import rulesdoc
from tarok_service.variants.registry import all_variants

ROOT = Path(__file__).resolve().parents[2]


def test_every_rule_set_has_a_page_with_fresh_tables() -> None:
    assert rulesdoc.main(["--check"]) == 0


def test_every_option_is_described_in_prose_or_table() -> None:
    for variant in all_variants():
        page = (ROOT / "docs" / "rules" / f"{variant.id}.md").read_text(encoding="utf-8")
        for spec in variant.option_specs:
            assert f"`{spec.name}`" in page, f"{variant.id}: option {spec.name} is not documented"


def test_a_stale_page_is_detected(tmp_path: Path) -> None:
    variant = all_variants()[0]
    page = (ROOT / "docs" / "rules" / f"{variant.id}.md").read_text(encoding="utf-8")
    stale = page.replace("| `", "| `x", 1)
    assert rulesdoc.render(stale, variant) != stale
    assert rulesdoc.render(page, variant) == page


OUTSIDE = re.compile(r"\.\./shared|RULES\.md|seed 00[0-3]|STYLE principle|\((A\d+)\)")


def test_no_file_cites_a_document_outside_the_repository() -> None:
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".proto", ".toml", ".ts", ".yaml", ".yml"}:
            continue
        if name == "tests/docs/test_rules_docs.py" or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{name}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    assert not offenders, offenders[:20]
