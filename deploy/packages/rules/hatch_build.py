"""The rules wheel's build hook: the trick-play solver compiled from source, and no build
artifacts of the source tree in the wheel.

The solver's one build definition is the repository's `setup.py` (the server's package);
this hook runs its `build_ext` into a temporary folder, ships the compiled module, and marks
the wheel as one for this interpreter and platform (it holds compiled code)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tarok_service" / "bots"
COMPILED = (".so", ".pyd")


class CompiledSolver(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in sorted(BOTS.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in COMPILED:
                build_data["force_include"][str(path)] = path.relative_to(ROOT).as_posix()
        out = Path(tempfile.mkdtemp(prefix="tarok-solver-"))
        subprocess.run(
            [sys.executable, "setup.py", "-q", "build_ext",
             "--build-lib", str(out / "lib"), "--build-temp", str(out / "tmp")],
            cwd=ROOT, check=True,
        )  # fmt: skip
        for built in (out / "lib").rglob("_dds*"):
            build_data["force_include"][str(built)] = built.relative_to(out / "lib").as_posix()
