"""The rules engine is pure: standard library only, no I/O, clock or global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "tarok_service"
ALLOWED = {
    "__future__",
    "abc",
    "collections",
    "dataclasses",
    "decimal",
    "enum",
    "functools",
    "hashlib",  # deterministic digests (deal commitments); never a source of randomness
    "itertools",
    "math",
    "operator",  # itemgetter: C-level picking by index (the deal)
    "struct",  # random keys unpacked from one draw of bits (`engine.shuffle`)
    "typing",
}
FORBIDDEN_NAMES = {"random", "time", "datetime", "os", "logging", "grpc", "sqlite3", "secrets"}
MODULES = sorted([*ROOT.joinpath("engine").glob("*.py"), *ROOT.joinpath("variants").rglob("*.py")])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [(node.module or "").split(".")[0]]
        else:
            continue
        for name in names:
            assert name in ALLOWED and name not in FORBIDDEN_NAMES, f"{path.name} imports {name}"
