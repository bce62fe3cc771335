"""The bot brains are pure: the standard library, the engine and the rule sets, nothing else
(no grpc, no server, no store), so both the server and the client can run them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOTS = Path(__file__).resolve().parents[2] / "tarok_service" / "bots"
STDLIB = {
    "__future__", "argparse", "collections", "concurrent", "dataclasses", "math", "random",
    "statistics", "sys", "time", "typing",
}  # fmt: skip
PACKAGES = {"engine", "variants", ""}  # relative imports: ..engine, ..variants, .sibling


@pytest.mark.parametrize("path", sorted(BOTS.glob("*.py")), ids=lambda p: p.name)
def test_bot_module_imports(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] in STDLIB, f"{path.name} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0:
                assert module.split(".")[0] in STDLIB, f"{path.name} imports {module}"
            elif node.level == 2:
                assert module.split(".")[0] in PACKAGES, f"{path.name} imports ..{module}"
            else:
                assert node.level == 1, f"{path.name}: relative import beyond the package"
