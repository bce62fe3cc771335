"""The TypeScript SDK as its users get it: `npm pack` builds it (prepare), the tarball installs
into an empty npm project (its dependencies from the registry, offline from npm's cache when
they are there), type-checks through its `exports`, and the README's own snippet plays a hand
against a server started here."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tarok_client.local import local_server

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "typescript"
TSC = SDK / "node_modules" / ".bin" / "tsc"
SNIPPET = re.compile(r"## Play a hand\n.*?```ts\n(.*?)```", re.DOTALL)
README_TARGET = "http://localhost:50051"
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "lib": ["ES2022"],
        "types": ["node"],
        "strict": True,
        "noUncheckedIndexedAccess": True,
        "skipLibCheck": True,  # as `tsc --init` sets it (Connect's types need DOM's)
    },
    "files": ["play.mts"],
}


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "npm_config_audit": "false", "npm_config_fund": "false"}
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env
    )
    assert done.returncode == 0, f"{args}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def readme_snippet() -> str:
    found = SNIPPET.search((SDK / "README.md").read_text())
    assert found is not None, "clients/typescript/README.md has no ts block under 'Play a hand'"
    code = found.group(1)
    assert README_TARGET in code
    return code


@pytest.mark.slow
def test_the_packed_sdk_installs_and_plays_the_readme_hand(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    assert npm is not None and TSC.exists(), "needs npm and clients/typescript's packages"
    shutil.rmtree(SDK / "dist", ignore_errors=True)  # the tarball must be built by prepare
    packed = run(npm, "pack", "--json", "--pack-destination", tmp_path, cwd=SDK)
    (tarball,) = json.loads(packed.stdout)
    files = {f["path"] for f in tarball["files"]}
    assert {"dist/src/index.js", "dist/src/node.js", "dist/src/node.d.ts"} <= files, files
    assert not any(f.startswith(("src/", "test/", "dist/test/")) for f in files), files

    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text('{"name": "try-tarok", "private": true}\n')
    # A Node.js TypeScript project has Node's types: the SDK's own pinned version of them.
    node_types = (
        "@types/node@"
        + json.loads((SDK / "package.json").read_text())["devDependencies"]["@types/node"]
    )
    run(npm, "install", "--prefer-offline", tmp_path / tarball["filename"], node_types, cwd=project)
    (project / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    with local_server() as target:
        code = readme_snippet().replace(README_TARGET, f"http://{target}")
        (project / "play.mts").write_text(code)
        run(TSC, "-p", "tsconfig.json", cwd=project)
        played = run("node", "play.mjs", cwd=project).stdout.splitlines()
    assert played[-1] == "TABLE_NOT_FOUND", played
    hands = re.fullmatch(r"hands played: 1, totals: (-?\d+) (-?\d+) (-?\d+) (-?\d+)", played[-2])
    assert hands is not None, played
