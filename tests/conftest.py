"""Shared pytest setup for the whole test tree."""

import sys
from pathlib import Path

# Make the repository root importable (tarok_service, clients/python) without an editable install.
_ROOT = Path(__file__).resolve().parents[1]
for _path in (_ROOT, _ROOT / "clients" / "python"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
