"""The layers are enforced by import-linter: the contracts hold, and a module that breaks one
makes `lint-imports` fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).parent / "lint-imports"


def lint() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_the_contracts_hold_and_a_violation_breaks_them() -> None:
    assert LINT.exists(), "run make install (import-linter is a dev dependency)"
    kept = lint()
    assert kept.returncode == 0, kept.stdout[-3000:]
    probe = ROOT / "tarok_service" / "store" / "_layer_probe.py"
    probe.write_text("from ..engine.cards import Card  # the store must know no rules\n")
    try:
        broken = lint()
    finally:
        probe.unlink()
    assert broken.returncode != 0
    assert "tarok_service.store._layer_probe" in broken.stdout
