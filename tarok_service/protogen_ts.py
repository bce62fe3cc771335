"""Generate the TypeScript protocol code (protobuf-es v2) for clients/typescript from protos/.

Run by `python -m tarok_service.protogen` (with the Python code). `buf generate` runs the
`protoc-gen-es` plugin installed by `npm ci` in clients/typescript (pinned in its lockfile) over
a copy of protos/ plus google/rpc/status.proto and error_details.proto (from the pinned
googleapis-common-protos package), so `errorInfo(err)` can decode an error's ErrorInfo.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "typescript"
TARGET = PACKAGE / "src" / "gen"
PLUGIN = PACKAGE / "node_modules" / ".bin" / "protoc-gen-es"
GOOGLE_RPC = ("status.proto", "error_details.proto")
TEMPLATE = {
    "version": "v2",
    "plugins": [
        {
            "local": str(PLUGIN),
            "out": "out",
            "opt": ["target=ts", "import_extension=js"],
        }
    ],
}


def available() -> bool:
    """Whether the plugin is installed (`npm ci` in clients/typescript)."""
    return PLUGIN.exists()


def _buf() -> str:
    path = Path(sys.executable).parent / "buf"
    found = str(path) if path.exists() else shutil.which("buf")
    if not found:
        raise SystemExit("buf not found (install the dev extras: pip install -e '.[dev]')")
    return found


def _google_rpc_dir() -> Path:
    import google.rpc  # type: ignore[import-untyped]  # the package ships its .proto files

    return Path(next(iter(google.rpc.__path__)))


def generate() -> dict[str, str]:
    """Fresh generated files: path relative to src/gen -> text."""
    if not available():
        raise SystemExit(f"{PLUGIN} not found: run `npm ci` in {PACKAGE.relative_to(ROOT)}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "protos" / "tarok", work / "in" / "tarok")
        (work / "in" / "google" / "rpc").mkdir(parents=True)
        for name in GOOGLE_RPC:
            shutil.copy(_google_rpc_dir() / name, work / "in" / "google" / "rpc" / name)
        subprocess.run(
            [_buf(), "generate", "in", "--template", json.dumps(TEMPLATE)],
            cwd=work,
            check=True,
        )
        out = work / "out"
        return {
            str(p.relative_to(out)): p.read_text(encoding="utf-8")
            for p in sorted(out.rglob("*.ts"))
        }


def current() -> dict[str, str]:
    """The committed generated files."""
    if not TARGET.exists():
        return {}
    return {
        str(p.relative_to(TARGET)): p.read_text(encoding="utf-8")
        for p in sorted(TARGET.rglob("*.ts"))
    }


def stale_files(fresh: dict[str, str]) -> list[str]:
    have = current()
    return [
        str((TARGET / rel).relative_to(ROOT))
        for rel in sorted(set(fresh) | set(have))
        if fresh.get(rel) != have.get(rel)
    ]


def write(fresh: dict[str, str]) -> None:
    for stale in set(current()) - set(fresh):
        (TARGET / stale).unlink()
    for rel, text in fresh.items():
        path = TARGET / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
