"""Every relative link in the repository's Markdown points at a file that is in it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def markdown_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).exists()]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, mail address or an anchor in the page
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            broken.append(f"{page.relative_to(ROOT)} -> {target}")
    return broken


def test_markdown_files_are_found() -> None:
    assert ROOT / "README.md" in markdown_files()


def test_every_relative_link_resolves() -> None:
    broken = [link for page in markdown_files() for link in broken_links(page)]
    assert broken == []


def test_a_broken_link_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("[here](missing.md) [web](https://example.org) [top](#top)\n")
    assert len(LINK.findall(page.read_text())) == 3
    saved = ROOT
    try:
        globals()["ROOT"] = tmp_path
        assert broken_links(page) == ["page.md -> missing.md"]
    finally:
        globals()["ROOT"] = saved
