"""Every benchmark script still starts: `--help` runs (imports resolve, arguments parse), so a
refactor cannot silently break the scripts the performance numbers come from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name not in ("serverproc.py",))


@pytest.mark.parametrize("script", SCRIPTS)
def test_bench_script_starts(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout.lower()
